// The vdev cache (vdev_cache.c, "software track buffer"; reference section 5.6):
// per leaf, an LRU of 2^bshift-byte lines. A metadata read of at most
// zfs_vdev_cache_max bytes that lies inside one line is served from the line
// (a hit, no I/O), waits for the line's fill already in flight (a delegation),
// or allocates the line and reads the whole aligned line instead of itself (a
// miss: one 64 KiB read for a 4-16 KiB indirect block). Level-0 blocks of file
// data carry ZIO_FLAG_DONT_CACHE and never come here; nor do fills and
// aggregates. When the cache is full the least recently used line is evicted,
// unless its own fill is still in flight: then the read bypasses the cache.
// A write that overlaps a line being filled marks it stale: reads skip it and
// the fill evicts it.
//
// On from the start of ZFS until illumos 175 / ZoL 2cc6c8db12 (2011) set
// zfs_vdev_cache_size to 0; removed in OpenZFS 2.2 (70ea484e3e).
//
// This class keeps the lines and decides; the leaf does the I/O. A cache holds
// at most size >> bshift + 1 lines (vdev_cache_allocate evicts only once the
// lines exceed the size), so lookups scan a small fixed array and nothing is
// allocated per read.
#ifndef ZIOSIM_SIM_ZFS_VDEV_VDEV_CACHE_H_
#define ZIOSIM_SIM_ZFS_VDEV_VDEV_CACHE_H_

#include <cstdint>
#include <vector>

#include "sim/core/time.h"
#include "sim/zfs/zio.h"

namespace ziosim {

struct VdevCacheStats {
  uint64_t hits = 0;         // served from a filled line
  uint64_t delegations = 0;  // waited for a fill in flight
  uint64_t misses = 0;       // allocated a line and read it
  uint64_t bypassed = 0;     // eligible, but no line could be had (full of fills) or the line was stale
};

class VdevCache {
 public:
  // `size_bytes` 0 disables the cache.
  VdevCache(int64_t size_bytes, int64_t max_io_bytes, int bshift);

  bool enabled() const { return size_bytes_ > 0; }
  int64_t line_bytes() const { return int64_t{1} << bshift_; }

  enum class Action {
    kBypass,    // read `zio` itself through the queue
    kHit,       // complete `zio` now, no I/O
    kJoinFill,  // `zio` now waits for the line's fill (Release hands it back)
    kFill,      // issue a fill of line_bytes() at *fill_offset; `zio` waits for it
  };
  // Decides what happens to the leaf read `zio` (offset physical, label included);
  // for kFill, *line and *fill_offset name the new line, for kJoinFill *line.
  Action Read(Zio* zio, SimTime now, int* line, int64_t* fill_offset);
  // The fill of `line` is in; returns the chain of zios that waited for it
  // (linked through cache_next) and evicts the line if a write made it stale.
  Zio* FillDone(int line, SimTime now);
  // A write of [offset, offset + size) reached the leaf.
  void Write(int64_t offset, int64_t size);

  const VdevCacheStats& stats() const { return stats_; }
  void ResetStats() { stats_ = VdevCacheStats{}; }

 private:
  struct Line {
    int64_t offset = -1;    // -1: unused slot
    SimTime last_used = 0;
    bool filling = false;
    bool stale = false;     // ve_missed_update
    Zio* waiters = nullptr; // zios waiting for the fill, newest first
  };

  bool Eligible(const Zio& zio) const;
  int Find(int64_t line_offset) const;
  // A slot for a new line, evicting the LRU one if the cache is over its size; -1 if none can go.
  int Allocate();

  int64_t size_bytes_;
  int64_t max_io_bytes_;
  int bshift_;
  std::vector<Line> lines_;
  int used_ = 0;
  VdevCacheStats stats_;
};

}  // namespace ziosim

#endif  // ZIOSIM_SIM_ZFS_VDEV_VDEV_CACHE_H_
