// The ARC (arc.c) and the dbuf cache, as far as they decide whether a read
// touches a disk: adaptive replacement over MRU/MFU lists bounded by
// zfs_arc_max, data and metadata, compressed ARC (blocks kept as on disk; a
// decompressed copy lives in the dbuf cache while recently used), the
// primarycache property (data of a non-cacheable dataset is dropped when the
// read call releases it), and which blocks go to the L2ARC (fed from the
// eviction end, no prefetched blocks with l2arc_noprefetch; the cache
// device's ring and feed clock are l2arc.h's). Bookkeeping only: the DMU
// issues the I/Os and charges the CPU.
#ifndef ZIOSIM_SIM_ZFS_ARC_H_
#define ZIOSIM_SIM_ZFS_ARC_H_

#include <cstdint>
#include <memory>

#include "sim/core/time.h"
#include "sim/zfs/tunables.h"

namespace ziosim {

struct ArcKey {
  uint64_t object = 0;
  int level = 0;      // 0: data, 1+: indirect
  int64_t blkid = 0;
  bool operator==(const ArcKey&) const = default;
};

enum class PrimaryCache { kAll, kMetadata, kNone };

struct ArcLookupResult {
  enum class Where { kMiss, kArc, kL2 } where = Where::kMiss;
  bool needs_decompress = false;  // compressed ARC hit with no decompressed copy in the dbuf cache
  int64_t l2_offset = 0;          // kL2: where the block sits on the cache device
  int64_t l2_bytes = 0;           // kL2: bytes to read there
};

// Where a block's header is (for tests and reports).
enum class ArcState { kNone, kMru, kMfu, kMruGhost, kMfuGhost, kL2Only };

// Counts are of demand lookups unless named otherwise: `hits` + `misses` = demand
// Lookup calls; an ARC miss served by the L2ARC is a miss and an l2_hit.
struct ArcStats {
  uint64_t hits = 0, misses = 0, l2_hits = 0, l2_misses = 0;
  uint64_t prefetch_hits = 0;      // a demand read found a block a prefetch had brought in
  uint64_t evictions = 0, dropped_on_release = 0, decompressions = 0;
  int64_t size_bytes = 0;          // current ARC size
  int64_t l2_written_bytes = 0;
  // Extensions.
  uint64_t prefetch_lookup_hits = 0, prefetch_lookup_misses = 0;  // prefetch Lookup calls
  uint64_t mru_ghost_hits = 0, mfu_ghost_hits = 0;  // a block came back while its ghost was listed
  uint64_t l2_feeds = 0;           // FeedL2 passes with a cache device
  uint64_t l2_overwritten = 0;     // L2 copies dropped when the ring wrapped over them
  int64_t mru_bytes = 0, mfu_bytes = 0;              // size_bytes split by list
  int64_t data_bytes = 0, metadata_bytes = 0;        // size_bytes split by kind
  int64_t mru_ghost_bytes = 0, mfu_ghost_bytes = 0;  // lsize of the evicted blocks remembered
  int64_t mru_target_bytes = 0;    // the adaptive target p
  int64_t dbuf_bytes = 0;          // decompressed copies in the dbuf cache (lsize; not in size_bytes)
  int64_t l2_size_bytes = 0;       // bytes on the cache device holding a block
};

class Arc {
 public:
  // Sizes from the tunables (zfs_arc_max, dbuf_cache_max_bytes,
  // zfs_compressed_arc_enabled, l2arc_*); `l2_capacity_bytes` 0 = no cache device.
  Arc(const Tunables& tunables, int64_t l2_capacity_bytes);
  ~Arc();
  Arc(const Arc&) = delete;
  Arc& operator=(const Arc&) = delete;

  // A demand (prefetch = false) or prefetch access at `now`. A demand hit counts
  // as a use (MRU -> MFU once more than ARC_MINTIME, 62 ms, after the block's
  // previous recorded access; a prefetched block's first demand hit only clears
  // its prefetch flag); it holds the block until Release. A prefetch hit changes
  // nothing (dbuf_prefetch finds the block cached and stops).
  ArcLookupResult Lookup(const ArcKey& key, bool prefetch, SimTime now);
  // Whether `key` is in the ARC (not the L2ARC), without counting an access.
  bool Contains(const ArcKey& key) const;
  // A block arrived from a disk (or the L2ARC): `lsize` logical, `psize` physical bytes.
  // A demand insert holds the block until Release. Inserting a block whose ghost
  // is listed adapts p. Inserting a block already in the ARC counts as the demand
  // use of it (or nothing, for a prefetch).
  void Insert(const ArcKey& key, int64_t lsize, int64_t psize, bool metadata, bool prefetch, SimTime now);
  // The read call that held `key` releases it. Not cacheable (primarycache): the block
  // leaves the ARC at once. Cacheable: its decompressed copy enters the dbuf cache.
  void Release(const ArcKey& key, bool cacheable);
  // One L2ARC feed pass at `now`: moves eligible blocks from the eviction end of
  // the ARC to the cache device. Returns the bytes written (the DMU charges the
  // device writes), 0 without a cache device.
  int64_t FeedL2(SimTime now);

  // When the next feed pass is due (l2arc_feed_secs, or 200 ms after a pass that
  // wrote more than half its target, as l2arc_feed_again does); 0 before the first.
  SimTime NextL2FeedTime() const;

  const ArcStats& stats() const;
  // Zeroes the event counters (hits, misses, ...), e.g. after a warm-up pass.
  void ResetCounters();
  // Which list holds `key` now; kNone if the ARC knows nothing of it.
  ArcState StateOf(const ArcKey& key) const;

 private:
  class Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace ziosim

#endif  // ZIOSIM_SIM_ZFS_ARC_H_
