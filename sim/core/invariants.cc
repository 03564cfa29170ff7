#include "sim/core/invariants.h"

namespace ziosim {

void CheckClockForward(SimTime min_step_ns) {
  if (min_step_ns < 0) {
    throw InternalError("simulated time went backwards (an event ran " + std::to_string(-min_step_ns) +
                        " ns before the clock's time)");
  }
}

void CheckCompletedOnce(const std::string& what, int64_t issued, int64_t completed) {
  if (issued != completed) {
    throw InternalError(what + ": " + std::to_string(issued) + " issued but " + std::to_string(completed) +
                        " completed (each must complete exactly once)");
  }
}

void CheckBytesDelivered(const std::string& what, int64_t asked, int64_t delivered) {
  if (asked != delivered) {
    throw InternalError(what + ": " + std::to_string(asked) + " bytes asked but " + std::to_string(delivered) +
                        " delivered");
  }
}

}  // namespace ziosim
