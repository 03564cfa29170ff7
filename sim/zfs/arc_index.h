// The ARC's hash table (buf_hash_find / buf_hash_insert of arc.c): block key
// -> header index, by open addressing with linear probing over 8-byte slots
// (tag, index), kept at most half full, with backward-shift deletion. The home
// slot is the tag's top bits, so moving and growing need no key; a tag match is
// confirmed against the header's key. No allocation per access once grown.
// The DMU indexes its blocks in flight with it too.
#ifndef ZIOSIM_SIM_ZFS_ARC_INDEX_H_
#define ZIOSIM_SIM_ZFS_ARC_INDEX_H_

#include <cstddef>
#include <cstdint>
#include <vector>

#include "sim/zfs/arc.h"

namespace ziosim {

class ArcIndex {
 public:
  static constexpr uint32_t kNone = UINT32_MAX;  // "no header"

  ArcIndex() { Rehash(16); }

  // Room for `n` keys without growing.
  void Reserve(size_t n);

  // The header index of `key`, or kNone; key_of(index) gives a header's key.
  template <typename KeyOf>
  uint32_t Find(const ArcKey& key, const KeyOf& key_of) const {
    const uint32_t tag = Tag(key);
    for (size_t i = Home(tag);; i = (i + 1) & mask_) {
      const Slot& s = slots_[i];
      if (s.idx == kNone) return kNone;
      if (s.tag == tag && key_of(s.idx) == key) return s.idx;
    }
  }

  // REQUIRES: `key` is not present.
  void Insert(const ArcKey& key, uint32_t idx);
  // Removes the slot of header `idx`, whose key is `key`.
  void Erase(const ArcKey& key, uint32_t idx);

 private:
  struct Slot {
    uint32_t tag = 0;
    uint32_t idx = kNone;
  };

  // 32 well-mixed bits of a key.
  static uint32_t Tag(const ArcKey& k);
  size_t Home(uint32_t tag) const { return static_cast<size_t>(tag) >> shift_; }
  void Place(Slot s);
  void Rehash(size_t cap);

  std::vector<Slot> slots_;
  size_t mask_ = 0;
  int shift_ = 32;
  size_t count_ = 0;
};

}  // namespace ziosim

#endif  // ZIOSIM_SIM_ZFS_ARC_INDEX_H_
