#include "sim/core/tag_index.h"

#include <utility>

namespace ziosim {

void TagIndex::Reserve(size_t n) {
  size_t cap = 16;
  while (cap < 2 * n) cap *= 2;
  if (cap > slots_.size()) Rehash(cap);
}

void TagIndex::Insert(uint32_t tag, uint32_t idx) {
  if (2 * (count_ + 1) > slots_.size()) Rehash(2 * slots_.size());
  Place(Slot{tag, idx});
  ++count_;
}

void TagIndex::Erase(uint32_t tag, uint32_t idx) {
  size_t i = Home(tag);
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

void TagIndex::Place(Slot s) {
  size_t i = Home(s.tag);
  while (slots_[i].idx != kNone) i = (i + 1) & mask_;
  slots_[i] = s;
}

void TagIndex::Rehash(size_t cap) {
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
