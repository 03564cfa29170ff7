// Dirty data and the OpenZFS write throttle (illumos 4045 "OpenZFS write
// throttle", 2013; dsl_pool.c, dmu_tx.c): how much dirty data the pool may
// hold, when the open txg must sync early, and how long each write() waits.
//   dirty <= min (zfs_delay_min_dirty_percent of max): no delay;
//   min < dirty < max: delay = zfs_delay_scale * (dirty - min) / (max - dirty)
//                      ns, at most zfs_delay_max_ns (dmu_tx_delay);
//   dirty >= max: the write waits until a sync frees dirty data (dmu_tx_wait).
// Delays of concurrent writers are spaced: each wakes no earlier than the
// previous wakeup + its delay (dp_last_wakeup), so N writers together get one
// write per delay, as one writer would.
// The pre-2013 throttle (zfs_write_limit_*, txg time targets) is not modelled:
// every era runs this one.
#ifndef ZIOSIM_SIM_ZFS_WRITE_THROTTLE_H_
#define ZIOSIM_SIM_ZFS_WRITE_THROTTLE_H_

#include <cstdint>

#include "sim/core/time.h"
#include "sim/zfs/tunables.h"

namespace ziosim {

class WriteThrottle {
 public:
  explicit WriteThrottle(const Tunables& tunables);

  // zfs_dirty_data_max as arc_init derives it (see the tunable's description).
  static int64_t DirtyDataMax(const Tunables& tunables);

  int64_t dirty_max_bytes() const { return dirty_max_bytes_; }
  // Dirty bytes in one open txg above which it is synced early (dsl_pool_need_dirty_sync).
  int64_t sync_bytes() const { return sync_bytes_; }
  int64_t delay_min_bytes() const { return delay_min_bytes_; }
  // True while a new write must wait for a sync (dmu_tx_try_assign / dmu_tx_wait).
  bool Full(int64_t dirty_bytes) const { return dirty_bytes >= dirty_max_bytes_; }

  // dmu_tx_delay: the delay, in ns, of a write at `dirty_bytes` of dirty data.
  SimTime DelayNs(int64_t dirty_bytes) const;
  // When a write that was assigned at `start` may go on, at `now`, with
  // `dirty_bytes` dirty; spaces concurrent writers (dp_last_wakeup).
  // Returns `now` when no delay applies.
  SimTime WakeupAt(SimTime now, SimTime start, int64_t dirty_bytes);

 private:
  int64_t dirty_max_bytes_;
  int64_t sync_bytes_;
  int64_t delay_min_bytes_;
  int64_t delay_scale_ns_;
  SimTime delay_max_ns_;
  SimTime last_wakeup_ = 0;
};

}  // namespace ziosim

#endif  // ZIOSIM_SIM_ZFS_WRITE_THROTTLE_H_
