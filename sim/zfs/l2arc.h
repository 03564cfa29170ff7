// The L2ARC's cache device as arc.c's l2arc_* code manages it: a ring written
// at a hand that wraps to the start, l2arc_write_max (+ l2arc_write_boost
// while the ARC is cold) per feed pass, the pass looking l2arc_headroom x that
// far down each ARC list (boosted with compressed ARC), and the feed clock
// (l2arc_feed_secs, or l2arc_feed_min_ms after a pass that wrote more than half
// its target). The ARC (arc.h) picks the blocks and keeps each header's copy;
// this keeps where the copies are, in write order, so the front of the ring
// is always the next thing the hand overwrites.
#ifndef ZIOSIM_SIM_ZFS_L2ARC_H_
#define ZIOSIM_SIM_ZFS_L2ARC_H_

#include <algorithm>
#include <cstdint>
#include <deque>

#include "sim/core/time.h"
#include "sim/zfs/tunables.h"

namespace ziosim {

// One copy on the cache device: header `idx` of generation `gen` (a header
// slot reused since is another block).
struct L2Copy {
  int64_t offset;
  int64_t asize;
  uint32_t idx;
  uint32_t gen;
};

class L2Arc {
 public:
  // `capacity_bytes` 0: no cache device.
  L2Arc(const Tunables& tunables, int64_t capacity_bytes);

  bool present() const { return capacity_ > 0; }
  int64_t capacity_bytes() const { return capacity_; }
  // l2arc_noprefetch: prefetched blocks are neither written nor read here.
  bool noprefetch() const { return noprefetch_; }
  // Device bytes a block of `psize` takes.
  static int64_t Asize(int64_t psize);

  // Starts a feed pass at `now` (`warm`: the ARC has been full) and returns the
  // bytes it may write (0: none). Clears that space first (l2arc_evict),
  // wrapping the hand to the start when the pass does not fit before the end:
  // `drop(copy)` hears of every copy overwritten.
  template <typename Drop>
  int64_t StartFeed(SimTime now, bool warm, Drop&& drop) {
    const int64_t target = std::min(write_max_ + (warm ? 0 : write_boost_), capacity_);
    fed_ = true;
    last_feed_ = now;
    last_target_ = target;
    last_written_ = 0;
    if (target <= 0) return 0;
    if (hand_ + target > capacity_) {
      DropBefore(capacity_, drop);
      hand_ = 0;
    }
    DropBefore(hand_ + target, drop);
    return target;
  }
  // How many bytes (lsize) down each ARC list a pass of `target` looks; 0: no limit.
  int64_t HeadroomBytes(int64_t target) const;
  // Records a block written `written` bytes into the pass; returns its offset.
  int64_t Place(int64_t written, int64_t asize, uint32_t idx, uint32_t gen);
  // Ends the pass: the hand moves past what it wrote.
  void FinishFeed(int64_t written);

  // When the next feed pass is due; 0 before the first.
  SimTime NextFeedTime() const;

 private:
  // Drops the copies in [hand_, end): the oldest entries of the ring.
  template <typename Drop>
  void DropBefore(int64_t end, Drop& drop) {
    while (!ring_.empty() && ring_.front().offset >= hand_ && ring_.front().offset < end) {
      const L2Copy c = ring_.front();
      ring_.pop_front();
      drop(c);
    }
  }

  // Tunables.
  int64_t capacity_ = 0;
  int64_t write_max_ = 0, write_boost_ = 0, headroom_ = 0;
  bool headroom_boost_ = false;  // compressed ARC
  SimTime feed_interval_ = kNsPerSec;
  bool noprefetch_ = true;

  std::deque<L2Copy> ring_;
  int64_t hand_ = 0;
  bool fed_ = false;
  SimTime last_feed_ = 0;
  int64_t last_target_ = 0, last_written_ = 0;
};

}  // namespace ziosim

#endif  // ZIOSIM_SIM_ZFS_L2ARC_H_
