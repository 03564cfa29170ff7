// The old zfetch (2005-2015; ZoL <= 0.6.5, FreeBSD <= 10): reference 5.1,
// after dmu_zfetch.c before illumos 5987.
//
// Streams {offset, len, stride, ph_offset, cap, direction, last use} detect
// forward and backward sequential and strided access; two equal sequential
// streams N apart merge into a strided one ("colinear"); a demand miss on an
// established stream removes it. dofetch doubles the cap up to
// zfetch_block_cap and prefetches len blocks every stride up to the limit.
// dbuf_read called it once per level-0 block with that block's "prefetched"
// flag (cached, or its read already in flight), and only for chunks of at most
// zfetch_array_rd_sz bytes (`length > zfetch_array_rd_sz` turned it off).
#include <algorithm>
#include <cstdint>
#include <vector>

#include "sim/zfs/zfetch.h"

namespace ziosim {
namespace {

using zfetch_detail::PrefetchSink;

class OldZfetch final : public Zfetch {
 public:
  explicit OldZfetch(const ZfetchConfig& config) : c_(config) {}

  void Access(int64_t blkid, int64_t nblks, int64_t length_bytes, bool missed,
              const std::function<bool(int64_t)>& cached, SimTime now,
              std::vector<PrefetchRange>* out) override {
    (void)missed;
    ++stats_.accesses;
    // DB_RF_NOPREFETCH for long chunks; dbufs of primarycache!=all data are not
    // cacheable and never reach dmu_zfetch. The test is `length > array_rd_sz`
    // in this era whatever ziosim_zfetch_rd_sz_inclusive says.
    if (!c_.fetch_data || nblks <= 0 || !c_.ChunkQualifies(length_bytes, /*inclusive=*/true)) return;
    PrefetchSink sink(c_, blkid, nblks, cached, out, &stats_, &sink_scratch_);
    for (int64_t b = blkid; b < blkid + nblks; ++b) {
      if (b < 0 || b >= c_.blocks) continue;
      Block(b, sink.Prefetched(b), now, &sink);
    }
  }

  size_t num_streams() const override { return streams_.size(); }

 private:
  enum Direction { kForward = 1, kBackward = -1 };
  struct Stream {
    int64_t offset = 0;     // zst_offset
    int64_t len = 0;        // zst_len
    int64_t stride = 0;     // zst_stride
    int64_t ph_offset = 0;  // zst_ph_offset: where prefetching stopped
    int64_t cap = 0;        // zst_cap
    int direction = kForward;
    SimTime last = 0;       // zst_last
    bool operator==(const Stream& o) const {
      return offset == o.offset && len == o.len && stride == o.stride && ph_offset == o.ph_offset &&
             cap == o.cap && direction == o.direction;
    }
  };

  int64_t maxblkid() const { return c_.blocks - 1; }

  // dmu_zfetch() for one block.
  void Block(int64_t b, bool prefetched, SimTime now, PrefetchSink* sink) {
    if (Find(b, prefetched, now, sink) || Colinear(b, now, sink)) {
      ++stats_.stream_hits;
      return;
    }
    ++stats_.stream_misses;

    // Reclaim the first stream idle more than zfetch_min_sec_reap whole
    // seconds, else create one if under the per-file limit.
    auto reclaim = std::find_if(streams_.begin(), streams_.end(), [&](const Stream& s) {
      return (now - s.last) / kNsPerSec > c_.min_sec_reap;
    });
    if (reclaim != streams_.end()) {
      streams_.erase(reclaim);
    } else {
      int64_t max_streams = std::min(c_.max_streams, maxblkid() / std::max<int64_t>(c_.block_cap, 1));
      if (max_streams <= 0) max_streams = 1;
      if (static_cast<int64_t>(streams_.size()) >= max_streams) return;
    }
    Stream s{.offset = b, .len = 1, .stride = 1, .ph_offset = b + 1, .cap = 1,
             .direction = kForward, .last = now};
    // dmu_zfetch_stream_insert: a stream equal to an existing one is dropped.
    if (std::find(streams_.begin(), streams_.end(), s) != streams_.end()) return;
    streams_.insert(streams_.begin(), s);
  }

  // dmu_zfetch_find(): true when a stream matched and was not reset.
  bool Find(int64_t b, bool prefetched, SimTime now, PrefetchSink* sink) {
    bool reset = !prefetched;
    for (size_t i = 0; i < streams_.size(); ++i) {
      Stream& zs = streams_[i];
      if (zs.len == 0) continue;  // bogus stream
      // Inside the stream's current window: a strided reader reading its len
      // blocks before striding. Already fetched: nothing to do.
      if (b >= zs.offset && b < zs.offset + zs.len && prefetched) return true;

      bool matched = true;
      if (b == zs.offset + zs.len) {
        // Forward sequential; a miss on an established stream resets it.
        reset = !prefetched && zs.len > 1;
        zs.len += 1;
        const int64_t diff = zs.len - c_.block_cap;
        if (diff > 0) {
          zs.offset += diff;
          zs.len = zs.len > diff ? zs.len - diff : 0;
        }
        zs.direction = kForward;
      } else if (b == zs.offset - 1) {
        // Backward sequential.
        reset = !prefetched && zs.len > 1;
        zs.offset = zs.offset > 1 ? zs.offset - 1 : 0;
        zs.ph_offset = zs.ph_offset > 1 ? zs.ph_offset - 1 : 0;
        zs.len += 1;
        const int64_t diff = zs.len - c_.block_cap;
        if (diff > 0) {
          zs.ph_offset = zs.ph_offset > diff ? zs.ph_offset - diff : 0;
          zs.len = zs.len > diff ? zs.len - diff : zs.len;
        }
        zs.direction = kBackward;
      } else if (static_cast<uint64_t>(b - zs.offset - zs.stride) < static_cast<uint64_t>(zs.len) &&
                 zs.len != zs.stride) {
        // Strided forward: b in [offset + stride, offset + stride + len).
        zs.offset += zs.stride;
        zs.direction = kForward;
      } else if (static_cast<uint64_t>(b - zs.offset + zs.stride) < static_cast<uint64_t>(zs.len) &&
                 zs.len != zs.stride) {
        // Strided reverse.
        zs.offset = zs.offset > zs.stride ? zs.offset - zs.stride : 0;
        zs.ph_offset = zs.ph_offset > 2 * zs.stride ? zs.ph_offset - 2 * zs.stride : 0;
        zs.direction = kBackward;
      } else {
        matched = false;
      }
      if (!matched) continue;
      if (reset) {
        ++stats_.resets;
        streams_.erase(streams_.begin() + static_cast<std::ptrdiff_t>(i));
        return false;
      }
      DoFetch(&zs, now, sink);
      return true;
    }
    return false;
  }

  // dmu_zfetch_colinear(): two equal-length sequential streams N apart and
  // this access N beyond the later one become one strided stream.
  bool Colinear(int64_t b, SimTime now, PrefetchSink* sink) {
    for (size_t i = 0; i < streams_.size(); ++i) {
      for (size_t j = i + 1; j < streams_.size(); ++j) {
        Stream& walk = streams_[i];
        const Stream& comp = streams_[j];
        if (walk.len != walk.stride || comp.len != comp.stride) continue;
        int64_t diff = comp.offset - walk.offset;
        bool merge = comp.offset + diff == b;
        if (!merge) {
          diff = walk.offset - comp.offset;
          merge = walk.offset + diff == b;
        }
        if (!merge) continue;
        walk.offset = b;
        walk.direction = diff < 0 ? kBackward : kForward;
        walk.stride = diff * walk.direction;
        walk.ph_offset = b + walk.stride;
        streams_.erase(streams_.begin() + static_cast<std::ptrdiff_t>(j));
        DoFetch(&streams_[i], now, sink);
        return true;
      }
    }
    return false;
  }

  // dmu_zfetch_dofetch().
  void DoFetch(Stream* zs, SimTime now, PrefetchSink* sink) {
    zs->stride = std::max(zs->stride, zs->len);
    zs->cap = std::min(c_.block_cap, 2 * zs->cap);
    int64_t tail = std::max(zs->ph_offset, zs->offset + zs->stride);
    const int64_t limit = zs->offset + zs->len + (zs->cap * zs->stride) / zs->len;
    while (tail < limit) {
      int64_t ofst = zs->offset + zs->direction * (tail - zs->offset);
      // Backward past block 0: the kernel's unsigned arithmetic fetched
      // [0, len) while that "length" still fit, and stopped after.
      if (zs->direction == kBackward && ofst < 0) {
        if (zs->len + ofst < 0) break;
        ofst = 0;
      }
      const int64_t fetched = Fetch(ofst, zs->len, sink);
      tail += zs->stride;
      if (fetched < zs->len) break;  // ran out of file
    }
    zs->ph_offset = tail;
    zs->last = now;
  }

  // dmu_zfetch_fetch(): dbuf_prefetch of the blocks that exist, counting them
  // as the kernel did (dmu_zfetch_fetchsz, with its off-by-one near the end).
  int64_t Fetch(int64_t blkid, int64_t nblks, PrefetchSink* sink) {
    if (blkid > maxblkid()) return 0;
    const int64_t n = blkid + nblks + 1 > maxblkid() ? maxblkid() - blkid + 1 : nblks;
    sink->Data(blkid, n);
    return n;
  }

  ZfetchConfig c_;
  std::vector<Stream> streams_;  // list order: newest first (list_insert_head)
};

}  // namespace

std::unique_ptr<Zfetch> MakeZfetchOld(const ZfetchConfig& config) {
  return std::make_unique<OldZfetch>(config);
}

}  // namespace ziosim
