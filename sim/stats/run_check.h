// The end-of-run invariants of the storage stack (sim/core/invariants.h has
// the error type and the generic checks). Every workload calls these once its
// events have run out: they are cheap (a few compares per device) and always
// on. A violation throws InternalError naming the device or leaf.
#ifndef ZIOSIM_SIM_STATS_RUN_CHECK_H_
#define ZIOSIM_SIM_STATS_RUN_CHECK_H_

#include "models/device/device.h"
#include "sim/zfs/vdev/queue/vdev_queue.h"
#include "sim/core/time.h"
#include "sim/zfs/pool.h"

namespace ziosim {

// `device` completed every command it was given exactly once (or holds it
// still), was busy no longer than the `window_ns` its statistics cover, and
// never held more than queue_depth() commands.
void CheckDeviceAccounting(const Device& device, SimTime window_ns);

// The leaf queue `leaf` never had more I/Os active than the era's limits, in
// total and per class, and holds none now.
void CheckQueueLimits(const std::string& leaf, const VdevQueue& queue);

// The pool's clock never went backwards, no zio is live (so every device is
// idle), and every leaf passes the two checks above.
void CheckPoolQuiescent(const Pool& pool, SimTime window_ns);

}  // namespace ziosim

#endif  // ZIOSIM_SIM_STATS_RUN_CHECK_H_
