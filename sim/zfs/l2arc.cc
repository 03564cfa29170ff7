#include "sim/zfs/l2arc.h"

#include "sim/core/bytes.h"

namespace ziosim {
namespace {

constexpr int64_t kL2Sector = 512;              // cache device allocation unit
constexpr int64_t kL2HeadroomBoostPct = 200;    // l2arc_headroom_boost, applied with compressed ARC
constexpr SimTime kL2FeedMin = 200 * kNsPerMs;  // l2arc_feed_min_ms (l2arc_feed_again = 1)

}  // namespace

L2Arc::L2Arc(const Tunables& t, int64_t capacity_bytes)
    : capacity_(std::max<int64_t>(0, capacity_bytes) / kL2Sector * kL2Sector),
      write_max_(t.Int("l2arc_write_max")),
      write_boost_(t.Int("l2arc_write_boost")),
      headroom_(t.Int("l2arc_headroom")),
      headroom_boost_(t.Bool("zfs_compressed_arc_enabled")),
      feed_interval_(t.Int("l2arc_feed_secs") * kNsPerSec),
      noprefetch_(t.Bool("l2arc_noprefetch")) {}

int64_t L2Arc::Asize(int64_t psize) { return std::max(kL2Sector, RoundUp(psize, kL2Sector)); }

int64_t L2Arc::HeadroomBytes(int64_t target) const {
  const int64_t headroom = target * headroom_;
  return headroom_boost_ ? headroom * kL2HeadroomBoostPct / 100 : headroom;
}

int64_t L2Arc::Place(int64_t written, int64_t asize, uint32_t idx, uint32_t gen) {
  const int64_t offset = hand_ + written;
  ring_.push_back({offset, asize, idx, gen});
  return offset;
}

void L2Arc::FinishFeed(int64_t written) {
  hand_ += written;
  last_written_ = written;
}

SimTime L2Arc::NextFeedTime() const {
  if (!fed_) return 0;
  return last_feed_ + (last_written_ > last_target_ / 2 ? kL2FeedMin : feed_interval_);
}

}  // namespace ziosim
