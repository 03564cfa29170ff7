#include "models/device/disksim_positioning_order.h"

#include <stdexcept>

namespace ziosim {

namespace {

constexpr double kMsPerNs = 1e-6;

}  // namespace

bool DisksimPositioningOrder::IsPositioningOrdered(QueuePolicy policy) {
  switch (policy) {
    case QueuePolicy::kSptfOpt:
    case QueuePolicy::kSpctfOpt:
    case QueuePolicy::kWptfOpt:
    case QueuePolicy::kWpctfOpt:
    case QueuePolicy::kAsptfOpt:
    case QueuePolicy::kAspctfOpt:
    case QueuePolicy::kPriAsptfOpt:
    case QueuePolicy::kPriAspctfOpt:
    case QueuePolicy::kSptfRotWeight:
    case QueuePolicy::kSptfSeekWeight:
    case QueuePolicy::kSdfApprox:
    case QueuePolicy::kSdfExact: return true;
    default: return false;
  }
}

DisksimPositioningOrder::DisksimPositioningOrder(QueuePolicy policy, const HddScheduler& scheduler,
                                                 int queue_depth)
    : measure_(policy == QueuePolicy::kSdfApprox  ? Measure::kCylindersFromLastBlock
               : policy == QueuePolicy::kSdfExact ? Measure::kCylindersFromArm
                                                  : Measure::kPositioningMs),
      rule_(policy == QueuePolicy::kSptfRotWeight    ? Rule::kMostRotationOfTheLeast
            : policy == QueuePolicy::kSptfSeekWeight ? Rule::kLeastSeekOfTheRunningLeast
                                                     : Rule::kLeast),
      start_(measure_ == Measure::kPositioningMs ? kNoneMs : kNoneCylinders),
      check_cache_(policy == QueuePolicy::kSpctfOpt || policy == QueuePolicy::kWpctfOpt ||
                   policy == QueuePolicy::kAspctfOpt || policy == QueuePolicy::kPriAspctfOpt),
      age_(policy == QueuePolicy::kWptfOpt || policy == QueuePolicy::kWpctfOpt           ? Age::kScaled
           : policy == QueuePolicy::kAsptfOpt || policy == QueuePolicy::kAspctfOpt     ? Age::kCredited
           : policy == QueuePolicy::kPriAsptfOpt || policy == QueuePolicy::kPriAspctfOpt ? Age::kCreditedIfUrgent
                                                                                         : Age::kNone),
      weight_(scheduler.age_weight),
      // Distances carry no delay.
      read_delay_ms_(measure_ == Measure::kPositioningMs
                         ? static_cast<double>(scheduler.read_initiation_delay_ns) * kMsPerNs
                         : 0.0),
      write_delay_ms_(measure_ == Measure::kPositioningMs
                          ? static_cast<double>(scheduler.write_initiation_delay_ns) * kMsPerNs
                          : 0.0) {
  if (!IsPositioningOrdered(policy)) {
    throw std::logic_error("internal error: DisksimPositioningOrder for another policy");
  }
  order_.reserve(static_cast<size_t>(std::max(queue_depth, 1)));
}

}  // namespace ziosim
