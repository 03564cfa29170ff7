// The ARC's hash table (buf_hash_find / buf_hash_insert of arc.c): block key
// -> header index, a TagIndex (sim/core/tag_index.h) whose tag is the block
// key's hash; a tag match is confirmed against the header's key. No
// allocation per access once grown. The DMU indexes its blocks in flight with
// it too.
#ifndef ZIOSIM_SIM_ZFS_ARC_INDEX_H_
#define ZIOSIM_SIM_ZFS_ARC_INDEX_H_

#include <cstddef>
#include <cstdint>

#include "sim/core/tag_index.h"
#include "sim/zfs/arc.h"

namespace ziosim {

class ArcIndex {
 public:
  static constexpr uint32_t kNone = TagIndex::kNone;  // "no header"

  // Room for `n` keys without growing.
  void Reserve(size_t n) { index_.Reserve(n); }

  // The header index of `key`, or kNone; key_of(index) gives a header's key.
  template <typename KeyOf>
  uint32_t Find(const ArcKey& key, const KeyOf& key_of) const {
    return index_.Find(Tag(key), [&](uint32_t idx) { return key_of(idx) == key; });
  }

  // REQUIRES: `key` is not present.
  void Insert(const ArcKey& key, uint32_t idx) { index_.Insert(Tag(key), idx); }
  // Removes the slot of header `idx`, whose key is `key`.
  void Erase(const ArcKey& key, uint32_t idx) { index_.Erase(Tag(key), idx); }

 private:
  static uint32_t Tag(const ArcKey& k) {
    return MixTag(k.object * 0x9E3779B97F4A7C15ULL ^ (static_cast<uint64_t>(k.blkid) + 0x632BE59BD9B4E019ULL) ^
                  (static_cast<uint64_t>(static_cast<uint32_t>(k.level)) << 56));
  }

  TagIndex index_;
};

}  // namespace ziosim

#endif  // ZIOSIM_SIM_ZFS_ARC_INDEX_H_
