#include "sim/zfs/vdev/queue/vdev_queue.h"

#include <algorithm>
#include <string>

#include "sim/zfs/vdev/queue/aggregation.h"
#include "sim/zfs/vdev/queue/class_queue.h"
#include "sim/zfs/vdev/queue/deadline_queue.h"
#include "sim/core/status.h"
#include "sim/zfs/write_throttle.h"

namespace ziosim {
namespace {

int IntTunable(const Tunables& t, const char* name) { return static_cast<int>(t.Int(name)); }

std::unique_ptr<VdevQueue> MakeDeadlineQueue(const Tunables& t, VdevQueueSink* sink) {
  DeadlineQueueConfig c;
  c.max_pending = IntTunable(t, "zfs_vdev_max_pending");
  c.min_pending = IntTunable(t, "zfs_vdev_min_pending");
  c.ramp_rate = IntTunable(t, "zfs_vdev_ramp_rate");
  c.time_shift = IntTunable(t, "zfs_vdev_time_shift");
  c.time_unit_ns = t.Int("ziosim_vdev_time_unit_ns");
  // Era 1 predates the non-rotating limit and the 5313/4045 class rules: every
  // queued zio of the type may merge, sync reads included.
  c.aggregation.limit = t.Int("zfs_vdev_aggregation_limit");
  c.aggregation.read_gap = t.Int("zfs_vdev_read_gap_limit");
  c.aggregation.write_gap = t.Int("zfs_vdev_write_gap_limit");
  c.aggregation.cross_class = true;
  c.aggregation.sync_classes = true;
  return std::make_unique<DeadlineVdevQueue>(c, sink);
}

std::unique_ptr<VdevQueue> MakeClassQueue(const Tunables& t, bool rotational, VdevQueueSink* sink,
                                          const int64_t* dirty_bytes) {
  static constexpr const char* kClassNames[kNumZioPriorities] = {"sync_read", "sync_write", "async_read",
                                                                 "async_write", "scrub"};
  ClassQueueConfig c;
  for (int p = 0; p < kNumZioPriorities; ++p) {
    const std::string prefix = std::string("zfs_vdev_") + kClassNames[p];
    c.min_active[p] = IntTunable(t, (prefix + "_min_active").c_str());
    c.max_active[p] = IntTunable(t, (prefix + "_max_active").c_str());
  }
  c.max_active_total = IntTunable(t, "zfs_vdev_max_active");
  if (t.Bool("ziosim_vdev_nia")) {
    c.nia_delay = IntTunable(t, "zfs_vdev_nia_delay");
    c.nia_credit = IntTunable(t, "zfs_vdev_nia_credit");
  }

  const std::string& lba_last = t.Choice("ziosim_vdev_lba_last");
  if (lba_last == "start") {
    c.lba_last = LbaLast::kStart;
  } else if (lba_last == "end") {
    c.lba_last = LbaLast::kEnd;
  } else if (lba_last == "bucket") {
    c.lba_last = LbaLast::kBucket;
  } else {
    throw InputError("ziosim_vdev_lba_last: unknown value '" + lba_last + "' (start, end or bucket)");
  }

  const int64_t limit =
      t.Int(rotational ? "zfs_vdev_aggregation_limit" : "zfs_vdev_aggregation_limit_non_rotating");
  c.aggregation.limit = std::min(limit, kMaxAggregateSpan);
  c.aggregation.read_gap = t.Int("zfs_vdev_read_gap_limit");
  c.aggregation.write_gap = t.Int("zfs_vdev_write_gap_limit");
  c.aggregation.cross_class = t.Bool("ziosim_vdev_aggregate_cross_class");
  c.aggregation.sync_classes = t.Bool("ziosim_vdev_aggregate_sync_reads");
  c.dirty_bytes = dirty_bytes;
  const int64_t dirty_max = WriteThrottle::DirtyDataMax(t);
  c.async_write_lo_bytes = dirty_max / 100 * t.Int("zfs_vdev_async_write_active_min_dirty_percent");
  c.async_write_hi_bytes = dirty_max / 100 * t.Int("zfs_vdev_async_write_active_max_dirty_percent");
  return std::make_unique<ClassVdevQueue>(c, sink);
}

}  // namespace

std::unique_ptr<VdevQueue> MakeVdevQueue(const Tunables& tunables, bool rotational, VdevQueueSink* sink,
                                         const int64_t* dirty_bytes) {
  const std::string& scheduler = tunables.Choice("ziosim_vdev_scheduler");
  if (scheduler == "deadline") return MakeDeadlineQueue(tunables, sink);
  if (scheduler == "class") return MakeClassQueue(tunables, rotational, sink, dirty_bytes);
  throw InputError("ziosim_vdev_scheduler: unknown value '" + scheduler + "' (deadline or class)");
}

}  // namespace ziosim
