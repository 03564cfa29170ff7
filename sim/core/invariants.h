// Invariants every run checks at its end (the clock at every event, cheaply): a
// violation throws InternalError (sim/core/status.h). Pool and device checks
// live in sim/stats/run_check.h.
#ifndef ZIOSIM_SIM_CORE_INVARIANTS_H_
#define ZIOSIM_SIM_CORE_INVARIANTS_H_

#include <cstdint>
#include <string>

#include "sim/core/status.h"
#include "sim/core/time.h"

namespace ziosim {

// The clock only moves forward: `min_step_ns` is the smallest (event time -
// clock) the event loop saw when popping (Simulation::CheckClock).
void CheckClockForward(SimTime min_step_ns);

// `what` (e.g. "replay: dev0: requests") issued `issued` and saw `completed`
// completions: each must complete exactly once.
void CheckCompletedOnce(const std::string& what, int64_t issued, int64_t completed);

// A consumer asked for `asked` bytes and was handed `delivered`.
void CheckBytesDelivered(const std::string& what, int64_t asked, int64_t delivered);

}  // namespace ziosim

#endif  // ZIOSIM_SIM_CORE_INVARIANTS_H_
