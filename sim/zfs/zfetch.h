// Predictive prefetch (dmu_zfetch.c), one object per file, in the era the
// tunables select (`ziosim_zfetch_era`):
//   old    2005-2015 (ZoL <= 0.6.5, FreeBSD <= 10): streams with strides,
//          cap doubling to zfetch_block_cap (256 blocks), reset on a miss;
//   2015   illumos 5987 (ZoL 0.7, FreeBSD 11): exact continuation, lead
//          doubling to zfetch_max_distance (8 MiB), plus indirect prefetch;
//   2022   OpenZFS 2.2: distance doubling to zfetch_min_distance (4 MiB),
//          then +1/8 per late prefetch up to zfetch_max_distance (64 MiB).
// The DMU calls Access() once per read chunk and issues what it returns.
#ifndef ZIOSIM_SIM_ZFS_ZFETCH_H_
#define ZIOSIM_SIM_ZFS_ZFETCH_H_

#include <cstdint>
#include <functional>
#include <memory>
#include <utility>
#include <vector>

#include "sim/core/time.h"
#include "sim/zfs/tunables.h"

namespace ziosim {

struct PrefetchRange {
  int level = 0;        // 0: data blocks, 1: indirect blocks
  int64_t first = 0;    // block id at that level
  int64_t count = 0;
};

// accesses: Access() calls (all of them, prefetching or not); stream_hits and
// stream_misses: dmu_zfetch calls that continued / found no stream (per block
// in the old era, per chunk after); resets: old-era streams removed by a
// demand miss; blocks_prefetched / indirect_prefetched: blocks put in `out`.
struct ZfetchStats {
  uint64_t accesses = 0, stream_hits = 0, stream_misses = 0, resets = 0;
  uint64_t blocks_prefetched = 0, indirect_prefetched = 0;
};

namespace zfetch_detail {

// What a PrefetchSink collects during one Access() call, kept by the
// prefetcher so that its storage is reused from call to call.
struct PrefetchScratch {
  std::vector<std::pair<int64_t, int64_t>> taken;  // data blocks taken in the call: sorted disjoint [first, end)
  std::vector<PrefetchRange> indirect;
};

}  // namespace zfetch_detail

class Zfetch {
 public:
  virtual ~Zfetch() = default;
  // A read chunk [blkid, blkid + nblks) of the file at `now`, `length_bytes` long.
  // `cached(b)` tells whether data block b is in the ARC or already being read
  // (the old zfetch's "prefetched" test); `missed` whether the chunk had a demand
  // miss (2021+: data prefetch starts only after one). Appends what to prefetch to `out`.
  //
  // Call it before issuing the chunk's own demand reads: the old era asks
  // cached(b) for each block of the chunk as the kernel's dbuf_read did, i.e.
  // before that block's demand read. The ranges appended never hold a block
  // past the file's end, a block cached(b) reports, or a block of the chunk
  // itself (the DMU reads those on demand; in the old era a block's prefetch
  // could cover the next block of the same chunk, which then counts as
  // prefetched for the stream but is left to the demand read). Data ranges
  // come in issue order, adjacent blocks merged; level-1 ranges after them.
  virtual void Access(int64_t blkid, int64_t nblks, int64_t length_bytes, bool missed,
                      const std::function<bool(int64_t)>& cached, SimTime now,
                      std::vector<PrefetchRange>* out) = 0;
  // A prefetched data block arrived after the reader had already asked for it
  // (the 2022 era grows the distance by 1/8 at the stream's next hit, once per
  // hit however many blocks were late, as zs_more does).
  virtual void LatePrefetch(int64_t blkid) { (void)blkid; }
  // Streams the file holds now (for reports and tests).
  virtual size_t num_streams() const { return 0; }
  const ZfetchStats& stats() const { return stats_; }

 protected:
  ZfetchStats stats_;
  zfetch_detail::PrefetchScratch sink_scratch_;  // for the PrefetchSink of each Access()
};

// For a file of `blocks` blocks of `block_bytes`, indirect blocks covering
// `ptrs_per_indirect` data blocks each. Reads zfs_prefetch_disable: a
// disabled prefetcher returns nothing.
// `fetch_data` is false for primarycache=metadata: the 2015 and 2022 eras then
// prefetch indirect blocks only (OpenZFS 6322) and the old era nothing (its
// dbufs were not cacheable). With primarycache=none the DMU does not call the
// prefetcher at all.
std::unique_ptr<Zfetch> MakeZfetch(const Tunables& tunables, int64_t blocks, int64_t block_bytes,
                                   int ptrs_per_indirect, bool fetch_data = true);

// ---- Era implementations (zfetch_old.cc, zfetch_2015.cc, zfetch_2022.cc) ----

// What an era prefetcher copies from the tunables once.
struct ZfetchConfig {
  int64_t blocks = 0;             // data blocks in the file (maxblkid + 1)
  int64_t block_bytes = 128 << 10;
  int64_t ptrs_per_indirect = 1024;
  bool fetch_data = true;
  int64_t max_streams = 8;        // zfetch_max_streams
  int64_t min_sec_reap = 2;       // zfetch_min_sec_reap (s)
  int64_t max_sec_reap = 2;       // zfetch_max_sec_reap (s, 2022 era)
  int64_t block_cap = 256;        // zfetch_block_cap (old era)
  int64_t array_rd_sz = 1 << 20;  // zfetch_array_rd_sz
  bool rd_sz_inclusive = true;    // ziosim_zfetch_rd_sz_inclusive (2015 and 2022 eras)
  bool misaligned_hit = true;     // ziosim_zfetch_misaligned_hit (2015 and 2022 eras)
  bool after_miss = true;         // ziosim_zfetch_after_miss (2015 and 2022 eras)
  int64_t max_distance = 64 << 20;   // zfetch_max_distance
  int64_t min_distance = 4 << 20;    // zfetch_min_distance (2022 era)
  int64_t max_idistance = 64 << 20;  // zfetch_max_idistance; 0: no indirect prefetch

  // The config the tunables describe, for a file of that shape.
  static ZfetchConfig FromTunables(const Tunables& tunables, int64_t blocks, int64_t block_bytes,
                                   int ptrs_per_indirect, bool fetch_data);
  // Whether a chunk of `length_bytes` may be prefetched for (array_rd_sz, with
  // `inclusive` choosing <= or <).
  bool ChunkQualifies(int64_t length_bytes, bool inclusive) const {
    return inclusive ? length_bytes <= array_rd_sz : length_bytes < array_rd_sz;
  }
  // The early returns of dmu_zfetch in the 2015 and 2022 eras: an empty chunk
  // or one too long (array_rd_sz, rd_sz_inclusive), the file's first block
  // (the fast path for small files), a file of fewer than three blocks.
  bool SkipsChunk(int64_t blkid, int64_t nblks, int64_t length_bytes) const {
    return nblks <= 0 || !ChunkQualifies(length_bytes, rd_sz_inclusive) || blkid == 0 || blocks - 1 < 2;
  }
};

std::unique_ptr<Zfetch> MakeZfetchOld(const ZfetchConfig& config);
std::unique_ptr<Zfetch> MakeZfetch2015(const ZfetchConfig& config);
std::unique_ptr<Zfetch> MakeZfetch2022(const ZfetchConfig& config);

namespace zfetch_detail {

// The stream (of the 2015 and 2022 eras) an access [blkid, blkid + nblks)
// continues: the first whose zs_blkid is blkid, or, with misaligned_hit, one
// block further, and then the access starts a block later. streams.end() if none.
template <typename Streams>
typename Streams::iterator FindStream(Streams& streams, const ZfetchConfig& c, int64_t& blkid, int64_t& nblks) {
  for (auto it = streams.begin(); it != streams.end(); ++it) {
    if (blkid == it->blkid) return it;
    if (c.misaligned_hit && blkid + 1 == it->blkid) {
      ++blkid;
      --nblks;
      return it;
    }
  }
  return streams.end();
}

// Collects what one Access() call prefetches: drops blocks past the file's
// end, blocks of the chunk itself, blocks cached() reports and blocks already
// taken in this call; merges adjacent data blocks; counts them in the stats.
// Works in `scratch` (cleared first), so a call allocates nothing once the
// scratch has grown.
class PrefetchSink {
 public:
  PrefetchSink(const ZfetchConfig& config, int64_t chunk_first, int64_t chunk_nblks,
               const std::function<bool(int64_t)>& cached, std::vector<PrefetchRange>* out,
               ZfetchStats* stats, PrefetchScratch* scratch);
  // Hands the collected level-1 ranges to `out` after the data ranges.
  ~PrefetchSink();
  PrefetchSink(const PrefetchSink&) = delete;
  PrefetchSink& operator=(const PrefetchSink&) = delete;

  // Whether data block b counts as cached or in flight in this call: cached(b),
  // or prefetched by an earlier step of the same call.
  bool Prefetched(int64_t b) const;
  // Prefetches data blocks [first, first + count) (dbuf_prefetch level 0).
  void Data(int64_t first, int64_t count);
  // Prefetches level-1 blocks [first, first + count).
  void Indirect(int64_t first, int64_t count);
  // The level-1 blocks covering data blocks [data_first, data_end), as the
  // kernel rounds them: [ceil(first / ptrs), ceil(end / ptrs)).
  void IndirectsFor(int64_t data_first, int64_t data_end);

 private:
  bool Taken(int64_t b) const;
  // Adds data blocks [first, end) to the taken runs, merging.
  void Take(int64_t first, int64_t end);

  const ZfetchConfig& config_;
  int64_t chunk_first_, chunk_end_;
  const std::function<bool(int64_t)>& cached_;
  std::vector<PrefetchRange>* out_;
  ZfetchStats* stats_;
  std::vector<std::pair<int64_t, int64_t>>& taken_;  // data blocks taken in this call
  std::vector<PrefetchRange>& indirect_;
  bool appended_ = false;               // out_ ends with a data range of this call
};

}  // namespace zfetch_detail

}  // namespace ziosim

#endif  // ZIOSIM_SIM_ZFS_ZFETCH_H_
