#include "models/device/disksim_priority_order.h"

namespace ziosim {

namespace {

// DiskSim's scheduler numbers (disksim_ioqueue.h) that "Timeout scheduling" names.
constexpr int kElevatorLbn = 2;
constexpr int kCycleLbn = 3;

}  // namespace

DisksimPriorityOrder::DisksimPriorityOrder(const HddScheduler& scheduler, int64_t total_blocks)
    : blocks_(total_blocks),
      cycle_(scheduler.timeout_scheduling == kCycleLbn),
      down_penalty_(scheduler.timeout_scheduling == kElevatorLbn ? total_blocks : 0),
      raise_(static_cast<int64_t>(scheduler.priority_scheduling) * total_blocks / 100) {}

int64_t DisksimPriorityOrder::Priority(const Candidate& c) const {
  int64_t d = c.lbn - last_lbn_;
  if (cycle_) {
    if (d < 0) d += blocks_;
  } else if (d < 0) {
    d = -d + down_penalty_;
  }
  return blocks_ - d + (c.raised ? raise_ : 0);
}

}  // namespace ziosim
