// The per-leaf ZFS I/O scheduler (vdev_queue.c): zios wait here until the
// era's rules let them go to the device, possibly merged with neighbours.
// Two eras sit behind this one interface: the deadline scheduler (2008-2013:
// max_pending, min_pending, ramp_rate, deadline buckets) and the class
// scheduler (illumos 4045, 2013-: per-class min/max active, FIFO sync
// classes, LBA-ordered async classes). Aggregation and its era limits are
// shared by both (aggregation.h).
//
// The queue never talks to the device; it hands I/Os to its VdevQueueSink
// (the leaf vdev), which owns the device. Not thread-safe.
#ifndef ZIOSIM_SIM_ZFS_VDEV_QUEUE_VDEV_QUEUE_H_
#define ZIOSIM_SIM_ZFS_VDEV_QUEUE_VDEV_QUEUE_H_

#include <algorithm>
#include <array>
#include <cstdint>
#include <memory>

#include "sim/zfs/tunables.h"
#include "sim/zfs/zio.h"

namespace ziosim {

class VdevQueueSink {
 public:
  virtual ~VdevQueueSink() = default;
  // Sends `io` (a queued zio, or an aggregate made by the queue) to the device now.
  virtual void IssueToDevice(Zio* io) = 0;
  // A fresh zio for an aggregate; the queue fills it and links the constituents.
  virtual Zio* NewAggregate() = 0;
  // An optional zio (Zio::optional) the queue would have issued alone: it is
  // not written, and the sink frees it. Sinks that never queue optional zios
  // need not override this.
  virtual void DropOptional(Zio* /*zio*/) {}
};

// Counters every queue keeps, for `zpool iostat`-style reports.
struct VdevQueueStats {
  uint64_t issued = 0;          // device I/Os issued (an aggregate counts once)
  uint64_t aggregated = 0;      // aggregates issued
  uint64_t aggregated_zios = 0; // zios that went out inside an aggregate
  int64_t gap_bytes = 0;        // bytes read only to bridge gaps between aggregated zios
  std::array<uint64_t, kNumZioPriorities> issued_by_class{};
  // High-water marks of the I/Os active (issued, not done), for the run invariants.
  int max_active = 0;
  std::array<int, kNumZioPriorities> max_active_by_class{};
};

class VdevQueue {
 public:
  virtual ~VdevQueue() = default;

  // A zio arrives at the leaf at `now` (zio->offset is physical). The queue may issue now.
  // Sets zio->queued_ns = now; every zio the queue issues (alone or inside an
  // aggregate) gets issued_ns. REQUIRES: nobody else changes the priority,
  // type, offset or queued_ns of a zio while the queue holds it.
  virtual void Add(Zio* zio, SimTime now) = 0;
  // An issued I/O (as handed to IssueToDevice) finished at `now`; the queue may issue more.
  // The queue frees its slot only: completing an aggregate's constituents and
  // freeing the aggregate (after Done returns) is the caller's.
  // REQUIRES: `io` was issued by this queue and is not yet freed.
  virtual void Done(Zio* io, SimTime now) = 0;

  // A queued zio changes class (a demand read finds its block being prefetched:
  // OpenZFS a8b2e30685, vdev_queue_change_io_priority). A zio still waiting is
  // re-filed under `priority`, keeping its arrival time, and true is returned;
  // nothing is issued now (as in OpenZFS: the next arrival or completion may
  // issue it). An issued zio keeps its class (it holds that class's active
  // slot), and false is returned; so it is when `priority` is its class already.
  // REQUIRES: `zio` was added to this queue and is not yet done.
  virtual bool ChangePriority(Zio* zio, ZioPriority priority) = 0;

  virtual int queued() const = 0;  // waiting in the queue
  virtual int active() const = 0;  // issued and not done
  // End offset of the last I/O the queue issued (after aggregation), or -1:
  // the "last offset" of the issue-time mirror load-balancing variant.
  virtual int64_t last_issued_end() const = 0;
  // The most I/Os the era's rules let be active, in total and in class `p`.
  virtual int active_limit() const = 0;
  virtual int active_limit(ZioPriority p) const = 0;
  const VdevQueueStats& stats() const { return stats_; }
  void ResetStats() { stats_ = VdevQueueStats{}; }

 protected:
  // Counts an I/O of class `p` just issued; `class_active` and `total_active` include it.
  void CountIssue(int p, int class_active, int total_active) {
    ++stats_.issued;
    ++stats_.issued_by_class[p];
    stats_.max_active_by_class[p] = std::max(stats_.max_active_by_class[p], class_active);
    stats_.max_active = std::max(stats_.max_active, total_active);
  }

  VdevQueueStats stats_;
};

// The scheduler the tunables select (`ziosim_vdev_scheduler`: deadline | class),
// configured from them, for a leaf whose device is `rotational` or not.
// `dirty_bytes` (optional) is the pool's dirty data, which scales the class
// scheduler's async-write max_active; it must outlive the queue.
std::unique_ptr<VdevQueue> MakeVdevQueue(const Tunables& tunables, bool rotational, VdevQueueSink* sink,
                                         const int64_t* dirty_bytes = nullptr);

}  // namespace ziosim

#endif  // ZIOSIM_SIM_ZFS_VDEV_QUEUE_VDEV_QUEUE_H_
