// The 2015 rewrite of dmu_zfetch.c (illumos 5987; ZoL 0.7, FreeBSD 11):
// reference 5.2, with indirect prefetch (OpenZFS 6322, 5.3), the misaligned
// hit (OpenZFS 8835) and the 2.1 changes (891568c990, 5.4) as switches.
//
// A stream continues only where the last access ended (s.blkid == b, or with
// ziosim_zfetch_misaligned_hit b + 1 == s.blkid). Each hit doubles the lead
// (pf_blkid - end of access) up to zfetch_max_distance, after which every
// block read adds one block of prefetch. Indirect (level-1) prefetch starts at
// the data prefetch front and doubles its lead the same way; as in 755065f3dc
// its limit, zfetch_max_idistance, is counted from the end of the access (the
// reader), not from the data front (2.2 counts it from the data front).
// With ziosim_zfetch_after_miss (2.1) the data prefetch a stream plans is
// issued only once it has seen a demand miss, and streams reaching the end of
// the file are deleted.
#include <algorithm>
#include <cstdint>
#include <vector>

#include "sim/zfs/zfetch.h"

namespace ziosim {
namespace {

using zfetch_detail::PrefetchSink;

class Zfetch2015 final : public Zfetch {
 public:
  explicit Zfetch2015(const ZfetchConfig& config) : c_(config) {}

  void Access(int64_t blkid, int64_t nblks, int64_t length_bytes, bool missed,
              const std::function<bool(int64_t)>& cached, SimTime now,
              std::vector<PrefetchRange>* out) override {
    ++stats_.accesses;
    // dmu_buf_hold_array_by_dnode calls dmu_zfetch only for chunks shorter
    // than zfetch_array_rd_sz (5987), or not longer (6281).
    if (c_.SkipsChunk(blkid, nblks, length_bytes)) return;
    const int64_t maxblkid = c_.blocks - 1;

    // Find the stream this access continues.
    auto it = zfetch_detail::FindStream(streams_, c_, blkid, nblks);
    if (nblks == 0) return;  // a misaligned hit on a block already prefetched
    const int64_t end = blkid + nblks;  // end_of_access_blkid
    // 2.1: the stream ends with the file; too late to start one there.
    if (c_.after_miss && end >= maxblkid) {
      if (it != streams_.end()) streams_.erase(it);
      return;
    }
    if (it == streams_.end()) {
      ++stats_.stream_misses;
      Create(end, now);
      return;
    }
    ++stats_.stream_hits;
    Stream& zs = *it;

    // Start where prefetching stopped, or after this access on the first hit;
    // double the lead, but no further than zfetch_max_distance ahead.
    const int64_t pf_start = std::max(zs.pf_blkid, end);
    int64_t pf_nblks = 0;
    if (c_.fetch_data) {
      const int64_t max_dist_blks = c_.max_distance / c_.block_bytes;
      const int64_t pf_ahead_blks = zs.pf_blkid - blkid + nblks;
      const int64_t max_blks = max_dist_blks - (pf_start - end);
      pf_nblks = std::max<int64_t>(0, std::min(pf_ahead_blks, max_blks));
    }
    zs.pf_blkid = pf_start + pf_nblks;

    // The same for indirects, from where that stopped or where the data
    // prefetch stops, doubling the lead, at most zfetch_max_idistance past
    // the end of this access.
    const int64_t ipf_start = std::max(zs.ipf_blkid, zs.pf_blkid);
    int64_t ipf_nblks = 0;
    if (c_.max_idistance > 0) {
      const int64_t max_dist_blks = c_.max_idistance / c_.block_bytes;
      const int64_t pf_ahead_blks = zs.ipf_blkid - blkid + nblks + pf_nblks;
      const int64_t max_blks = max_dist_blks - (ipf_start - end);
      ipf_nblks = std::max<int64_t>(0, std::min(pf_ahead_blks, max_blks));
    }
    zs.ipf_blkid = ipf_start + ipf_nblks;
    zs.atime = now;
    zs.blkid = end;

    PrefetchSink sink(c_, blkid, nblks, cached, out, &stats_, &sink_scratch_);
    if (!c_.after_miss) {
      sink.Data(pf_start, pf_nblks);
    } else {
      // 2.1: what was planned but held back goes out with the first miss.
      if (missed) zs.missed = true;
      zs.pf_issued = std::max(zs.pf_issued, end);
      if (zs.missed && zs.pf_blkid > zs.pf_issued) {
        sink.Data(zs.pf_issued, zs.pf_blkid - zs.pf_issued);
        zs.pf_issued = zs.pf_blkid;
      }
    }
    if (ipf_nblks > 0) sink.IndirectsFor(ipf_start, zs.ipf_blkid);
  }

  size_t num_streams() const override { return streams_.size(); }

 private:
  struct Stream {
    int64_t blkid = 0;      // zs_blkid: where the next access should start
    int64_t pf_blkid = 0;   // zs_pf_blkid: end of the planned data prefetch
    int64_t ipf_blkid = 0;  // zs_ipf_blkid: end of the indirect prefetch (in L0 ids)
    int64_t pf_issued = 0;  // after_miss: end of the data prefetch issued
    SimTime atime = 0;
    bool missed = false;    // after_miss: the stream has seen a demand miss
  };

  // dmu_zfetch_stream_create(): reap streams idle more than
  // zfetch_min_sec_reap whole seconds, then add one if under the limit.
  void Create(int64_t blkid, SimTime now) {
    std::erase_if(streams_, [&](const Stream& s) { return (now - s.atime) / kNsPerSec > c_.min_sec_reap; });
    // At most zfetch_max_streams, fewer for small files so that the streams
    // could all be apart.
    const int64_t maxblkid = c_.blocks - 1;
    const int64_t max_streams =
        std::max<int64_t>(1, std::min(c_.max_streams, maxblkid * c_.block_bytes / std::max<int64_t>(c_.max_distance, 1)));
    if (static_cast<int64_t>(streams_.size()) >= max_streams) return;
    streams_.insert(streams_.begin(), Stream{.blkid = blkid, .pf_blkid = blkid, .ipf_blkid = blkid,
                                             .pf_issued = blkid, .atime = now});
  }

  ZfetchConfig c_;
  std::vector<Stream> streams_;  // list order: newest first
};

}  // namespace

std::unique_ptr<Zfetch> MakeZfetch2015(const ZfetchConfig& config) {
  return std::make_unique<Zfetch2015>(config);
}

}  // namespace ziosim
