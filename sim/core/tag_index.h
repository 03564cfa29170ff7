// A hash index from keys to 32-bit slot numbers of a table the caller owns,
// by open addressing with linear probing over 8-byte slots (tag, index),
// kept at most half full, with backward-shift deletion. The caller hashes
// its key to a well-mixed 32-bit tag (MixTag); the home slot is the tag's
// top bits, so moving and growing need no key, and a tag match is confirmed
// against the key the caller keeps in its own table. No allocation per
// access once grown. The ARC's hash table (buf_hash_find / buf_hash_insert
// of arc.c), the DMU's blocks in flight and blkparse's outstanding requests
// use it.
#ifndef ZIOSIM_SIM_CORE_TAG_INDEX_H_
#define ZIOSIM_SIM_CORE_TAG_INDEX_H_

#include <cstddef>
#include <cstdint>
#include <vector>

namespace ziosim {

// 32 well-mixed bits of a (already combined) 64-bit key (splitmix64's finaliser).
inline uint32_t MixTag(uint64_t x) {
  x ^= x >> 30;
  x *= 0xBF58476D1CE4E5B9ULL;
  x ^= x >> 27;
  x *= 0x94D049BB133111EBULL;
  x ^= x >> 31;
  return static_cast<uint32_t>(x >> 32);
}

class TagIndex {
 public:
  static constexpr uint32_t kNone = UINT32_MAX;  // "no entry"

  TagIndex() { Rehash(16); }

  // Room for `n` entries without growing.
  void Reserve(size_t n);

  // The index stored under `tag` for which matches(index) holds, or kNone.
  template <typename Matches>
  uint32_t Find(uint32_t tag, const Matches& matches) const {
    for (size_t i = Home(tag);; i = (i + 1) & mask_) {
      const Slot& s = slots_[i];
      if (s.idx == kNone) return kNone;
      if (s.tag == tag && matches(s.idx)) return s.idx;
    }
  }

  // REQUIRES: no entry for this key is present; idx != kNone.
  void Insert(uint32_t tag, uint32_t idx);
  // Removes the entry `idx`, stored under `tag`. REQUIRES: it is present.
  void Erase(uint32_t tag, uint32_t idx);
  size_t size() const { return count_; }

 private:
  struct Slot {
    uint32_t tag = 0;
    uint32_t idx = kNone;
  };

  size_t Home(uint32_t tag) const { return static_cast<size_t>(tag) >> shift_; }
  void Place(Slot s);
  void Rehash(size_t cap);

  std::vector<Slot> slots_;
  size_t mask_ = 0;
  int shift_ = 32;
  size_t count_ = 0;
};

}  // namespace ziosim

#endif  // ZIOSIM_SIM_CORE_TAG_INDEX_H_
