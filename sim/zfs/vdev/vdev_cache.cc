#include "sim/zfs/vdev/vdev_cache.h"

#include <stdexcept>

namespace ziosim {

VdevCache::VdevCache(int64_t size_bytes, int64_t max_io_bytes, int bshift)
    : size_bytes_(size_bytes), max_io_bytes_(max_io_bytes), bshift_(bshift) {
  if (enabled()) lines_.resize(static_cast<size_t>((size_bytes_ >> bshift_) + 1));
}

bool VdevCache::Eligible(const Zio& zio) const {
  if (zio.type != ZioType::kRead || !zio.metadata || zio.size > max_io_bytes_) return false;
  // P2BOUNDARY: a read that straddles two lines is not cached.
  return (zio.offset >> bshift_) == ((zio.end() - 1) >> bshift_);
}

int VdevCache::Find(int64_t line_offset) const {
  for (size_t i = 0; i < lines_.size(); ++i) {
    if (lines_[i].offset == line_offset) return static_cast<int>(i);
  }
  return -1;
}

int VdevCache::Allocate() {
  if ((static_cast<int64_t>(used_) << bshift_) > size_bytes_) {
    // The oldest line; among equally old ones the lowest offset (the AVL order of vdev_cache_lastused_compare).
    int lru = -1;
    for (size_t i = 0; i < lines_.size(); ++i) {
      const Line& l = lines_[i];
      if (l.offset < 0) continue;
      if (lru < 0 || l.last_used < lines_[lru].last_used ||
          (l.last_used == lines_[lru].last_used && l.offset < lines_[lru].offset)) {
        lru = static_cast<int>(i);
      }
    }
    if (lines_[lru].filling) return -1;
    lines_[lru] = Line{};
    --used_;
    return lru;
  }
  for (size_t i = 0; i < lines_.size(); ++i) {
    if (lines_[i].offset < 0) return static_cast<int>(i);
  }
  throw std::logic_error("internal error: vdev cache has no free line below its size");
}

VdevCache::Action VdevCache::Read(Zio* zio, SimTime now, int* line, int64_t* fill_offset) {
  if (!enabled() || !Eligible(*zio)) return Action::kBypass;
  const int64_t line_offset = zio->offset >> bshift_ << bshift_;
  const int found = Find(line_offset);
  if (found >= 0) {
    Line& l = lines_[found];
    if (l.stale) {
      ++stats_.bypassed;
      return Action::kBypass;
    }
    if (l.filling) {
      zio->cache_next = l.waiters;
      l.waiters = zio;
      *line = found;
      ++stats_.delegations;
      return Action::kJoinFill;
    }
    l.last_used = now;
    ++stats_.hits;
    return Action::kHit;
  }
  const int slot = Allocate();
  if (slot < 0) {
    ++stats_.bypassed;
    return Action::kBypass;
  }
  lines_[slot] = Line{.offset = line_offset, .last_used = now, .filling = true, .stale = false, .waiters = zio};
  zio->cache_next = nullptr;
  ++used_;
  ++stats_.misses;
  *line = slot;
  *fill_offset = line_offset;
  return Action::kFill;
}

Zio* VdevCache::FillDone(int line, SimTime now) {
  Line& l = lines_[static_cast<size_t>(line)];
  Zio* waiters = l.waiters;
  l.waiters = nullptr;
  l.filling = false;
  l.last_used = now;  // vdev_cache_hit for each waiter stamps the line
  if (l.stale) {
    l = Line{};
    --used_;
  }
  return waiters;
}

void VdevCache::Write(int64_t offset, int64_t size) {
  if (!enabled()) return;
  for (Line& l : lines_) {
    // A filled line takes the written bytes (a copy, no I/O); one being filled misses them.
    if (l.offset >= 0 && l.filling && l.offset < offset + size && offset < l.offset + line_bytes()) l.stale = true;
  }
}

}  // namespace ziosim
