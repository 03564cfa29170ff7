// DiskSim 4.0's LBN-ordered disk schedulers (disksim_ioqueue.c: ELEVATOR_LBN,
// CYCLE_LBN, SSTF_LBN and VSCAN_LBN) as its disk model runs them, for a drive
// whose spec names one, or any HDD given such a --policy.
//
// DiskSim keeps the queue sorted: by LBN under "Cylinder mapping strategy" 0, by
// (cylinder, surface, LBN) under any other (ioqueue_insert_ordered_to_queue), a
// command after those of the same key. It measures from the last command started
// (ioqueue_get_specific_request sets lastblkno): its first LBN for ELEVATOR_LBN
// and CYCLE_LBN, the LBN after its last for SSTF_LBN and VSCAN_LBN.
// - SSTF_LBN (ioqueue_get_request_from_lbn_vscan_queue with a value of 0): the
//   nearer of the first command at or above that LBN and the last below it (the
//   first of those with its LBN); a tie goes up, then down, alternately.
// - ELEVATOR_LBN: the same with the drive's block count added to the distance
//   down, against the sweep's direction. The direction never changes: the disk
//   picks with ioqueue_show_next_request, which puts back the direction it moved,
//   and takes the command with ioqueue_get_specific_request, which does not set
//   it; it stays ascending, as initialised. So: the first command at or above the
//   last one's first LBN, else the nearest below.
// - VSCAN_LBN: SSTF_LBN, as DiskSim runs it (its vscan_cyls is never set: 0).
// - CYCLE_LBN (ioqueue_get_request_from_lbn_scan_queue): the first command at or
//   above the last one's first LBN, else the first in the queue's order.
// The walks over the sorted queue are DiskSim's own, so that a queue sorted by
// cylinder (whose LBNs need not rise) is read as DiskSim reads it.
#ifndef ZIOSIM_MODELS_DEVICE_LBN_QUEUE_ORDER_H_
#define ZIOSIM_MODELS_DEVICE_LBN_QUEUE_ORDER_H_

#include <algorithm>
#include <cstdint>
#include <vector>

#include "models/device/queue_policy.h"

namespace ziosim {

class LbnQueueOrder {
 public:
  // Where a waiting command starts: its first LBN and that block's cylinder and surface.
  struct Key {
    int cylinder = 0;
    int surface = 0;
    int64_t lbn = 0;
  };

  // REQUIRES: IsLbnOrdered(policy). `by_cylinder`: DiskSim's cylinder mapping
  // strategy is not 0. Holds up to `queue_depth` commands without allocating.
  LbnQueueOrder(QueuePolicy policy, int64_t total_blocks, bool by_cylinder, int queue_depth);

  static bool IsLbnOrdered(QueuePolicy policy) {
    return policy == QueuePolicy::kSstfLbn || policy == QueuePolicy::kElevatorLbn ||
           policy == QueuePolicy::kCycleLbn;
  }

  // The position, in arrival order, of the command to start next among `n` >= 1
  // waiting commands; `key_of(i)` is the i-th one's Key.
  template <typename KeyOf>
  size_t Pick(size_t n, KeyOf key_of) {
    sorted_.clear();
    for (size_t i = 0; i < n; ++i) {
      Key k = key_of(i);
      if (!by_cylinder_) k.cylinder = k.surface = 0;
      sorted_.push_back({k, static_cast<uint32_t>(i)});
    }
    // Arrival order breaks ties: a command goes after those of its key.
    std::sort(sorted_.begin(), sorted_.end(), [](const Entry& a, const Entry& b) {
      if (a.key.cylinder != b.key.cylinder) return a.key.cylinder < b.key.cylinder;
      if (a.key.surface != b.key.surface) return a.key.surface < b.key.surface;
      if (a.key.lbn != b.key.lbn) return a.key.lbn < b.key.lbn;
      return a.arrival < b.arrival;
    });
    return sorted_[n == 1 ? 0 : policy_ == QueuePolicy::kCycleLbn ? Cycle() : Nearest()].arrival;
  }

  // The drive starts the command at `lbn` of `blocks` blocks.
  void Started(int64_t lbn, int64_t blocks) {
    last_lbn_ = policy_ == QueuePolicy::kSstfLbn ? lbn + blocks : lbn;
  }

 private:
  struct Entry {
    Key key;
    uint32_t arrival;
  };
  size_t Nearest();
  size_t Cycle() const;

  QueuePolicy policy_;
  int64_t down_penalty_;  // added to a distance down: 0 for SSTF, the block count for ELEVATOR
  bool by_cylinder_;
  int64_t last_lbn_ = 0;
  bool down_on_tie_ = false;  // DiskSim's sstfupdown
  std::vector<Entry> sorted_;
};

}  // namespace ziosim

#endif  // ZIOSIM_MODELS_DEVICE_LBN_QUEUE_ORDER_H_
