// DiskSim 4.0's PRI_VSCAN_LBN disk scheduler (disksim_ioqueue.c,
// ioqueue_get_request_from_pri_lbn_vscan_queue), as its disk model runs it, for a
// drive whose spec names it, or any HDD given --policy pri_vscan_lbn.
//
// The disk picks among the commands that had reached it when its arm was released
// (HddDevice::StartNext), walking them in arrival order (the queue is FCFS-ordered
// under this scheduler, ioqueue_insert_new_request), and takes the first of the
// highest effective priority, in integers:
//   d = the command's first LBN - the first LBN of the command started last (0 before
//       any: ioqueue's lastblkno);
//   under "Timeout scheduling" 3 (CYCLE_LBN): d += the drive's blocks if d < 0;
//   else d = |d|, plus for a command below the drive's blocks under 2 (ELEVATOR_LBN)
//       (the sweep's direction stays ascending: nothing sets it), nothing otherwise
//       (SSTF_LBN's 0, or the vscan_cyls no spec sets);
//   priority = blocks - d + "Priority scheduling" x blocks x level / 100, the level 1
//       for a read or a time-critical command, 0 for another (priority_mix 1);
// and an age term that is the same for every waiting command (each one's starttime is
// still -1 until it starts), so changes no pick.
#ifndef ZIOSIM_MODELS_DEVICE_DISKSIM_PRIORITY_ORDER_H_
#define ZIOSIM_MODELS_DEVICE_DISKSIM_PRIORITY_ORDER_H_

#include <cstddef>
#include <cstdint>

#include "models/device/hdd_params.h"

namespace ziosim {

class DisksimPriorityOrder {
 public:
  // One waiting command as the scheduler sees it.
  struct Candidate {
    int64_t lbn = 0;
    bool raised = false;  // a read or a time-critical command (priority level 1)
  };

  DisksimPriorityOrder(const HddScheduler& scheduler, int64_t total_blocks);

  // The position, in arrival order, of the command to start among `n` >= 1 waiting;
  // `candidate(i)` is the i-th one.
  template <typename CandidateOf>
  size_t Pick(size_t n, CandidateOf candidate) const {
    size_t best = 0;
    int64_t best_priority = Priority(candidate(0));
    for (size_t i = 1; i < n; ++i) {
      const int64_t priority = Priority(candidate(i));
      if (priority > best_priority) {
        best = i;
        best_priority = priority;
      }
    }
    return best;
  }

  // The drive starts the command at `lbn`.
  void Started(int64_t lbn) { last_lbn_ = lbn; }

 private:
  int64_t Priority(const Candidate& c) const;

  int64_t blocks_;
  bool cycle_;            // "Timeout scheduling" CYCLE_LBN: distances wrap upwards
  int64_t down_penalty_;  // added to a distance down: the drive's blocks under ELEVATOR_LBN
  int64_t raise_;         // "Priority scheduling" x blocks / 100, for level 1
  int64_t last_lbn_ = 0;
};

}  // namespace ziosim

#endif  // ZIOSIM_MODELS_DEVICE_DISKSIM_PRIORITY_ORDER_H_
