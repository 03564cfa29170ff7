// The adaptive-distance prefetcher of OpenZFS 2.2 (6aa8c21a2a): reference 5.4,
// after dmu_zfetch_prepare()/dmu_zfetch_run().
//
// Per stream a data distance zs_pf_dist: the access size on the first hit,
// doubled per hit up to zfetch_min_distance, then grown by 1/8 at a hit that
// follows a late prefetch (LatePrefetch) up to zfetch_max_distance. The
// indirect distance doubles per hit up to zfetch_max_idistance beyond the data
// prefetch front. Streams without hits may be reused at once, others after
// zfetch_min_sec_reap; any idle zfetch_max_sec_reap is deleted when a stream
// is created. With ziosim_zfetch_after_miss data prefetch waits for the
// stream's first demand miss; streams reaching the end of the file are deleted.
// Not modelled: the doubling is not held back when in-flight prefetch exceeds
// ~1/16 of the ARC.
#include <algorithm>
#include <cstdint>
#include <vector>

#include "sim/zfs/zfetch.h"

namespace ziosim {
namespace {

using zfetch_detail::PrefetchSink;

class Zfetch2022 final : public Zfetch {
 public:
  explicit Zfetch2022(const ZfetchConfig& config) : c_(config) {}

  void Access(int64_t blkid, int64_t nblks, int64_t length_bytes, bool missed,
              const std::function<bool(int64_t)>& cached, SimTime now,
              std::vector<PrefetchRange>* out) override {
    ++stats_.accesses;
    // The 1 MiB chunk restriction lasted until 2.3 (34b3d498a9).
    if (c_.SkipsChunk(blkid, nblks, length_bytes)) return;
    const int64_t maxblkid = c_.blocks - 1;

    auto it = zfetch_detail::FindStream(streams_, c_, blkid, nblks);
    // The file is ending: remove the stream; too late to create one.
    const int64_t end = blkid + nblks;  // end_of_access_blkid
    if (end >= maxblkid) {
      if (it != streams_.end()) streams_.erase(it);
      return;
    }
    if (nblks == 0) return;  // already prefetched this before
    if (it == streams_.end()) {
      Create(end, now);
      ++stats_.stream_misses;
      return;
    }
    ++stats_.stream_hits;
    Stream& zs = *it;

    // Data distance: the access size, doubled up to zfetch_min_distance, then
    // +1/8 if a prefetch came late since the last hit.
    const int64_t nbytes = nblks * c_.block_bytes;
    int64_t pf_nblks = 0;
    if (c_.fetch_data) {
      if (zs.pf_dist < nbytes) {
        zs.pf_dist = nbytes;
      } else if (zs.pf_dist < c_.min_distance) {
        zs.pf_dist *= 2;
      } else if (zs.more) {
        zs.pf_dist += zs.pf_dist / 8;
      }
      zs.more = false;
      zs.pf_dist = std::min(zs.pf_dist, c_.max_distance);
      pf_nblks = zs.pf_dist / c_.block_bytes;
    }
    zs.pf_start = std::max(zs.pf_start, end);
    zs.pf_end = std::max(zs.pf_end, end + pf_nblks);

    // Indirects: from where the data prefetch stops, doubling per hit.
    if (zs.ipf_dist < nbytes) {
      zs.ipf_dist = nbytes;
    } else {
      zs.ipf_dist *= 2;
    }
    zs.ipf_dist = std::min(zs.ipf_dist, c_.max_idistance);
    const int64_t ipf_nblks = zs.ipf_dist / c_.block_bytes;
    zs.ipf_start = std::max(zs.ipf_start, zs.pf_end);
    zs.ipf_end = std::max(zs.ipf_end, zs.pf_end + ipf_nblks);

    zs.blkid = end;
    zs.atime = now;

    // dmu_zfetch_run().
    if (missed) zs.missed = true;
    PrefetchSink sink(c_, blkid, nblks, cached, out, &stats_, &sink_scratch_);
    if (zs.missed || !c_.after_miss) {
      sink.Data(zs.pf_start, zs.pf_end - zs.pf_start);
      zs.pf_start = zs.pf_end;
    }
    sink.IndirectsFor(zs.ipf_start, zs.ipf_end);
    zs.ipf_start = zs.ipf_end;
  }

  void LatePrefetch(int64_t blkid) override {
    // zs_more of the stream that prefetched the block: one the reader has
    // passed and whose prefetch covered it.
    for (Stream& zs : streams_) {
      if (blkid >= zs.first && blkid < zs.blkid && blkid < zs.pf_start) {
        zs.more = true;
        return;
      }
    }
  }

  size_t num_streams() const override { return streams_.size(); }

 private:
  struct Stream {
    int64_t blkid = 0;     // zs_blkid: where the next access should start
    int64_t first = 0;     // where the stream started (for LatePrefetch)
    int64_t pf_dist = 0;   // bytes
    int64_t ipf_dist = 0;  // bytes
    int64_t pf_start = 0, pf_end = 0;    // data prefetch not yet issued: [start, end)
    int64_t ipf_start = 0, ipf_end = 0;  // indirect prefetch, in L0 block ids
    SimTime atime = 0;
    bool missed = false;   // zs_missed
    bool more = false;     // zs_more: a prefetch arrived late
  };

  // dmu_zfetch_stream_create().
  void Create(int64_t blkid, SimTime now) {
    const SimTime max_reap = c_.max_sec_reap * kNsPerSec;
    const SimTime min_reap = c_.min_sec_reap * kNsPerSec;
    // Delete streams idle zfetch_max_sec_reap, reusing the first found.
    const size_t kNone = streams_.size();
    size_t reuse_index = kNone;
    for (size_t i = 0; i < streams_.size();) {
      if (streams_[i].atime > now - max_reap) {
        ++i;
      } else if (reuse_index == kNone) {
        reuse_index = i++;
      } else {
        streams_.erase(streams_.begin() + static_cast<std::ptrdiff_t>(i));
      }
    }
    // Erasing only after it leaves the one to reuse where it was.
    Stream* reuse = reuse_index == kNone ? nullptr : &streams_[reuse_index];
    if (reuse == nullptr) {
      const int64_t maxblkid = c_.blocks - 1;
      const int64_t max_streams = std::max<int64_t>(
          1, std::min(c_.max_streams, maxblkid * c_.block_bytes / std::max<int64_t>(c_.max_distance, 1)));
      if (static_cast<int64_t>(streams_.size()) >= max_streams) {
        // Reuse the oldest stream idle zfetch_min_sec_reap (one without hits:
        // at once).
        for (Stream& zs : streams_) {
          if (zs.atime > now - min_reap) continue;
          if (reuse == nullptr || zs.atime < reuse->atime) reuse = &zs;
        }
        if (reuse == nullptr) return;
      } else {
        streams_.insert(streams_.begin(), Stream{});
        reuse = &streams_.front();
      }
    }
    *reuse = Stream{.blkid = blkid, .first = blkid, .pf_start = blkid, .pf_end = blkid,
                    .ipf_start = blkid, .ipf_end = blkid,
                    // Allow immediate reuse until the first hit.
                    .atime = now - min_reap};
  }

  ZfetchConfig c_;
  std::vector<Stream> streams_;  // list order: newest first
};

}  // namespace

std::unique_ptr<Zfetch> MakeZfetch2022(const ZfetchConfig& config) {
  return std::make_unique<Zfetch2022>(config);
}

}  // namespace ziosim
