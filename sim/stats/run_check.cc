#include "sim/stats/run_check.h"

#include <string>

#include "sim/core/invariants.h"

namespace ziosim {

void CheckDeviceAccounting(const Device& device, SimTime window_ns) {
  const DeviceStats& s = device.stats();
  const uint64_t completed = s.reads() + s.writes();
  if (s.submitted() != completed + static_cast<uint64_t>(device.in_device())) {
    throw InternalError(device.name() + ": " + std::to_string(s.submitted()) + " commands submitted but " +
                        std::to_string(completed) + " completed and " + std::to_string(device.in_device()) +
                        " inside (each must complete exactly once)");
  }
  if (s.busy_ns() > window_ns) {
    throw InternalError(device.name() + ": busy " + std::to_string(s.busy_ns()) + " ns, longer than the " +
                        std::to_string(window_ns) + " ns elapsed");
  }
  if (s.max_in_device() > device.queue_depth()) {
    throw InternalError(device.name() + ": held " + std::to_string(s.max_in_device()) +
                        " commands at once, above its queue depth " + std::to_string(device.queue_depth()));
  }
}

void CheckQueueLimits(const std::string& leaf, const VdevQueue& queue) {
  const VdevQueueStats& s = queue.stats();
  if (s.max_active > queue.active_limit()) {
    throw InternalError(leaf + ": vdev queue had " + std::to_string(s.max_active) + " I/Os active, above its limit " +
                        std::to_string(queue.active_limit()));
  }
  for (int p = 0; p < kNumZioPriorities; ++p) {
    const auto priority = static_cast<ZioPriority>(p);
    if (s.max_active_by_class[p] > queue.active_limit(priority)) {
      throw InternalError(leaf + ": vdev queue had " + std::to_string(s.max_active_by_class[p]) + " " +
                          ZioPriorityName(priority) + " I/Os active, above the class limit " +
                          std::to_string(queue.active_limit(priority)));
    }
  }
  if (queue.queued() != 0 || queue.active() != 0) {
    throw InternalError(leaf + ": vdev queue still holds " + std::to_string(queue.queued()) + " queued and " +
                        std::to_string(queue.active()) + " active I/Os at the end of the run");
  }
}

void CheckPoolQuiescent(const Pool& pool, SimTime window_ns) {
  pool.sim()->CheckClock();
  if (pool.live_zios() != 0) {
    throw InternalError("pool: " + std::to_string(pool.live_zios()) + " zios still live at the end of the run");
  }
  for (const LeafVdev* leaf : pool.leaves()) {
    CheckQueueLimits(leaf->name(), leaf->queue());
    CheckDeviceAccounting(leaf->device(), window_ns);
  }
}

}  // namespace ziosim
