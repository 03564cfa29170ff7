// Era 1: the deadline scheduler (2008 -> illumos Aug 2013, ZoL <= 0.6.2,
// FreeBSD <= 9.x). One queue for every class:
//   - a zio's deadline is (now >> zfs_vdev_time_shift) + its class's priority
//     value (sync 0, async write 4, prefetch 6, scrub 20), `now` in the era's
//     clock unit (ns since illumos 3618, lbolt ticks before);
//   - the next I/O is the first by (deadline, offset): the earliest bucket,
//     and inside it the LOWEST queued offset (not an elevator from the head);
//   - an arrival issues one I/O if fewer than zfs_vdev_min_pending are in the
//     device; a completion issues up to zfs_vdev_ramp_rate, up to
//     zfs_vdev_max_pending in the device;
//   - the chosen zio grows by aggregation through every queued zio of its
//     type (aggregation.h with cross_class and sync_classes on).
// Not thread-safe.
#ifndef ZIOSIM_SIM_ZFS_VDEV_QUEUE_DEADLINE_QUEUE_H_
#define ZIOSIM_SIM_ZFS_VDEV_QUEUE_DEADLINE_QUEUE_H_

#include <algorithm>
#include <array>
#include <cstdint>

#include "sim/zfs/vdev/queue/aggregation.h"
#include "sim/zfs/vdev/queue/vdev_queue.h"
#include "sim/zfs/vdev/queue/zio_list.h"

namespace ziosim {

struct DeadlineQueueConfig {
  int max_pending = 10;
  int min_pending = 4;
  int ramp_rate = 2;
  int time_shift = 29;
  int64_t time_unit_ns = 1;  // ns per clock unit: 1 = gethrtime, 1000000 = hz=1000 ticks
  // zio_priority_table values added to the deadline bucket, by ZioPriority.
  std::array<int64_t, kNumZioPriorities> priority_value{0, 0, 6, 4, 20};
  AggregationConfig aggregation{.limit = 128 << 10, .read_gap = 32 << 10, .cross_class = true,
                                .sync_classes = true};
};

class DeadlineVdevQueue final : public VdevQueue {
 public:
  // `sink` must outlive the queue.
  DeadlineVdevQueue(const DeadlineQueueConfig& config, VdevQueueSink* sink);

  void Add(Zio* zio, SimTime now) override;
  void Done(Zio* io, SimTime now) override;
  bool ChangePriority(Zio* zio, ZioPriority priority) override;

  int queued() const override { return queued_; }
  int active() const override { return pending_; }
  int64_t last_issued_end() const override { return last_end_; }
  // An arrival issues up to min_pending, a completion up to max_pending; one window for every class.
  int active_limit() const override { return std::max(config_.min_pending, config_.max_pending); }
  int active_limit(ZioPriority) const override { return active_limit(); }

  // The deadline a zio queued at `queued_ns` with `priority` has.
  int64_t Deadline(SimTime queued_ns, ZioPriority priority) const {
    return ((queued_ns / config_.time_unit_ns) >> config_.time_shift) +
           config_.priority_value[static_cast<int>(priority)];
  }

 private:
  void Enqueue(Zio* zio);
  void Dequeue(Zio* zio);
  // Issues one I/O if fewer than `limit` are in the device; false if none was issued.
  bool IssueOne(int limit, SimTime now);

  DeadlineQueueConfig config_;
  VdevQueueSink* sink_;
  Aggregator aggregator_;
  SortedZioList by_deadline_;               // key (deadline, offset)
  std::array<SortedZioList, 2> by_offset_;  // per ZioType, key (offset, 0)
  int pending_ = 0;
  int queued_ = 0;
  int64_t last_end_ = -1;
};

}  // namespace ziosim

#endif  // ZIOSIM_SIM_ZFS_VDEV_QUEUE_DEADLINE_QUEUE_H_
