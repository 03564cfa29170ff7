#include "sim/zfs/write_throttle.h"

#include <algorithm>

namespace ziosim {

int64_t WriteThrottle::DirtyDataMax(const Tunables& t) {
  const int64_t set = t.Int("zfs_dirty_data_max");
  if (set > 0) return set;
  // arc_init: allmem * zfs_dirty_data_max_percent / 100, capped at zfs_dirty_data_max_max.
  // RAM is not a ziosim setting; zfs_arc_max defaults to half of it (arc.c).
  const int64_t ram_bytes = 2 * t.Int("zfs_arc_max");
  return std::min(ram_bytes / 100 * t.Int("zfs_dirty_data_max_percent"), t.Int("zfs_dirty_data_max_max"));
}

WriteThrottle::WriteThrottle(const Tunables& t)
    : dirty_max_bytes_(DirtyDataMax(t)),
      delay_scale_ns_(t.Int("zfs_delay_scale")),
      delay_max_ns_(t.Int("zfs_delay_max_ns")) {
  const int64_t sync_fixed = t.Int("zfs_dirty_data_sync");
  sync_bytes_ = sync_fixed > 0 ? sync_fixed : dirty_max_bytes_ / 100 * t.Int("zfs_dirty_data_sync_percent");
  delay_min_bytes_ = dirty_max_bytes_ / 100 * t.Int("zfs_delay_min_dirty_percent");
}

SimTime WriteThrottle::DelayNs(int64_t dirty) const {
  if (dirty <= delay_min_bytes_) return 0;
  if (dirty >= dirty_max_bytes_) return delay_max_ns_;
  const __int128 ns = static_cast<__int128>(delay_scale_ns_) * (dirty - delay_min_bytes_) / (dirty_max_bytes_ - dirty);
  return static_cast<SimTime>(std::min<__int128>(ns, delay_max_ns_));
}

SimTime WriteThrottle::WakeupAt(SimTime now, SimTime start, int64_t dirty) {
  const SimTime min_tx_ns = DelayNs(dirty);
  if (min_tx_ns == 0 || now > start + min_tx_ns) return now;
  const SimTime wakeup = std::max(start + min_tx_ns, last_wakeup_ + min_tx_ns);
  last_wakeup_ = wakeup;
  return std::max(wakeup, now);
}

}  // namespace ziosim
