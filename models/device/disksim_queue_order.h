// DiskSim 4.0's disk schedulers that order by position in the address space
// (disksim_ioqueue.c): ELEVATOR_LBN, CYCLE_LBN, SSTF_LBN and VSCAN_LBN, and
// ELEVATOR_CYL, CYCLE_CYL, SSTF_CYL and VSCAN_CYL, as its disk model runs them,
// for a drive whose spec names one, or any HDD given such a --policy.
//
// DiskSim keeps the queue sorted by (cylinder, surface, LBN), a command after
// those of the same key (ioqueue_insert_ordered_to_queue). For the LBN schedulers
// the cylinder and surface are 0 (MAP_NONE), and for the cylinder ones too, as
// DiskSim 4.0 runs: under "Cylinder mapping strategy" 0 by definition, under 1-4
// because disk_get_mapping passes the strategy where dm_translate_ltop takes the
// LBN and the LBN where it takes the strategy, so every request maps to block 1-4,
// cylinder 0 (strategy 6 divides by the never-set sectpercyl, 5 reads a pointer).
// So the drive gives every Key cylinder 0 and surface 0; the walks take any.
// It measures from a block of the last command started (ioqueue_get_specific_request
// sets lastblkno): its first for ELEVATOR and CYCLE, the one after its last for
// SSTF_LBN and VSCAN_LBN, its last for SSTF_CYL; never for VSCAN_CYL, which keeps
// block 0. The disk picks with ioqueue_show_next_request, which puts back the
// sweep's direction the pick moved, and takes the command with
// ioqueue_get_specific_request, which does not set it: the direction stays
// ascending, as initialised, for the drive's life. A tie of distances goes up, then
// down, alternately (sstfupdown). VSCAN_LBN runs as SSTF_LBN and VSCAN_CYL's
// distance has no penalty: DiskSim never sets their vscan_cyls.
// - *_LBN (ioqueue_get_request_from_lbn_vscan_queue, lbn_scan_queue): the first
//   command at or above the reference LBN against the last below (the first of those
//   with its LBN); ELEVATOR adds the block count to the distance down, so it goes up
//   while it can; CYCLE wraps to the first in the queue's order.
// - *_CYL (ioqueue_identify_request_on_cylinder, cyl_vscan_queue, cyl_scan_queue):
//   a command on the reference cylinder at or past the reference surface and block
//   first; else the first above and the first of the nearest cylinder below, by
//   cylinder distance (ELEVATOR adds the cylinder count down); CYCLE the first on a
//   later cylinder, wrapping.
// The walks are DiskSim's own, over the queue as DiskSim holds it at the pick: the
// command in service is still in it (not ready), which the cylinder walks can step
// on.
#ifndef ZIOSIM_MODELS_DEVICE_DISKSIM_QUEUE_ORDER_H_
#define ZIOSIM_MODELS_DEVICE_DISKSIM_QUEUE_ORDER_H_

#include <algorithm>
#include <cstdint>
#include <optional>
#include <vector>

#include "models/device/queue_policy.h"

namespace ziosim {

class DisksimQueueOrder {
 public:
  // Where a command starts: its first LBN and that block's cylinder and surface.
  struct Key {
    int cylinder = 0;
    int surface = 0;
    int64_t lbn = 0;
  };

  // REQUIRES: IsDisksimOrdered(policy). Holds up to `queue_depth` commands without allocating.
  DisksimQueueOrder(QueuePolicy policy, int64_t total_blocks, int cylinders, int queue_depth);

  static bool IsDisksimOrdered(QueuePolicy policy);

  // The position, in arrival order, of the command to start next among `n` >= 1
  // waiting commands; `key_of(i)` is the i-th one's Key; `in_service` the key of the
  // command that still holds the drive, if one does.
  template <typename KeyOf>
  size_t Pick(size_t n, KeyOf key_of, std::optional<Key> in_service) {
    if (n == 1) return 0;
    sorted_.clear();
    if (in_service) sorted_.push_back({*in_service, kInService});
    for (size_t i = 0; i < n; ++i) sorted_.push_back({key_of(i), static_cast<uint32_t>(i)});
    // The command in service came first; arrival order breaks other ties.
    std::sort(sorted_.begin(), sorted_.end(), [](const Entry& a, const Entry& b) {
      if (a.key.cylinder != b.key.cylinder) return a.key.cylinder < b.key.cylinder;
      if (a.key.surface != b.key.surface) return a.key.surface < b.key.surface;
      if (a.key.lbn != b.key.lbn) return a.key.lbn < b.key.lbn;
      return a.arrival + 1 < b.arrival + 1;  // kInService + 1 wraps to 0: first
    });
    return sorted_[PickSorted()].arrival;
  }

  // The drive starts the command at `lbn` of `blocks` blocks; `key_of_lbn(b)` is
  // block b's Key.
  template <typename KeyOfLbn>
  void Started(int64_t lbn, int64_t blocks, KeyOfLbn key_of_lbn) {
    switch (policy_) {
      case QueuePolicy::kSstfLbn: ref_ = key_of_lbn(lbn + blocks); return;
      case QueuePolicy::kSstfCyl: ref_ = key_of_lbn(lbn + blocks - 1); return;
      case QueuePolicy::kVscanCyl: return;  // stays at block 0
      default: ref_ = key_of_lbn(lbn); return;
    }
  }

 private:
  static constexpr uint32_t kInService = ~0u;
  struct Entry {
    Key key;
    uint32_t arrival;  // kInService: the command still in service, not ready
    bool ready() const { return arrival != kInService; }
  };
  size_t PickSorted();
  size_t NearestLbn();
  size_t CycleLbn() const;
  size_t OnCylinder() const;
  size_t NearestCylinder();
  size_t CycleCylinder() const;
  size_t Next(size_t i) const { return i + 1 == sorted_.size() ? 0 : i + 1; }
  size_t Prev(size_t i) const { return i == 0 ? sorted_.size() - 1 : i - 1; }
  size_t FirstReadyFrom(size_t i) const;
  size_t LastBelowRef() const;
  std::optional<size_t> AboveRef(size_t temp) const;
  size_t Choose(std::optional<size_t> below, std::optional<size_t> above, int64_t up, int64_t down);

  QueuePolicy policy_;
  int64_t down_penalty_;  // added to a distance down: ELEVATOR's block or cylinder count
  Key ref_;               // DiskSim's lastblkno and the cylinder and surface it maps to
  bool down_on_tie_ = false;  // DiskSim's sstfupdown
  std::vector<Entry> sorted_;
};

}  // namespace ziosim

#endif  // ZIOSIM_MODELS_DEVICE_DISKSIM_QUEUE_ORDER_H_
