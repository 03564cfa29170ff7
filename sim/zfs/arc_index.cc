#include "sim/zfs/arc_index.h"

#include <utility>

namespace ziosim {

uint32_t ArcIndex::Tag(const ArcKey& k) {
  uint64_t x = k.object * 0x9E3779B97F4A7C15ULL ^ (static_cast<uint64_t>(k.blkid) + 0x632BE59BD9B4E019ULL) ^
               (static_cast<uint64_t>(static_cast<uint32_t>(k.level)) << 56);
  x ^= x >> 30;
  x *= 0xBF58476D1CE4E5B9ULL;
  x ^= x >> 27;
  x *= 0x94D049BB133111EBULL;
  x ^= x >> 31;
  return static_cast<uint32_t>(x >> 32);
}

void ArcIndex::Reserve(size_t n) {
  size_t cap = 16;
  while (cap < 2 * n) cap *= 2;
  if (cap > slots_.size()) Rehash(cap);
}

void ArcIndex::Insert(const ArcKey& key, uint32_t idx) {
  if (2 * (count_ + 1) > slots_.size()) Rehash(2 * slots_.size());
  Place(Slot{Tag(key), idx});
  ++count_;
}

void ArcIndex::Erase(const ArcKey& key, uint32_t idx) {
  size_t i = Home(Tag(key));
  while (slots_[i].idx != idx) i = (i + 1) & mask_;
  for (size_t j = (i + 1) & mask_; slots_[j].idx != kNone; j = (j + 1) & mask_) {
    // Move j back into the hole unless its home lies in (i, j].
    if (((j - Home(slots_[j].tag)) & mask_) >= ((j - i) & mask_)) {
      slots_[i] = slots_[j];
      i = j;
    }
  }
  slots_[i] = Slot{};
  --count_;
}

void ArcIndex::Place(Slot s) {
  size_t i = Home(s.tag);
  while (slots_[i].idx != kNone) i = (i + 1) & mask_;
  slots_[i] = s;
}

void ArcIndex::Rehash(size_t cap) {
  std::vector<Slot> old = std::move(slots_);
  slots_.assign(cap, Slot{});
  mask_ = cap - 1;
  shift_ = 32;
  for (size_t c = cap; c > 1; c >>= 1) --shift_;
  for (const Slot& s : old) {
    if (s.idx != kNone) Place(s);
  }
}

}  // namespace ziosim
