#include "sim/core/simulation.h"

#include <algorithm>
#include <string>

#include "sim/core/invariants.h"

namespace ziosim {

void Simulation::Schedule(SimTime at, EventHandler* target, uint32_t kind, uint64_t arg) {
  if (at < now_) {
    throw InternalError("event scheduled in the past (" + std::to_string(at) + " ns < now " +
                        std::to_string(now_) + " ns)");
  }
  heap_.push_back(Event{at, next_seq_++, target, arg, kind});
  std::push_heap(heap_.begin(), heap_.end(), Later);
}

bool Simulation::Step() {
  if (heap_.empty()) return false;
  std::pop_heap(heap_.begin(), heap_.end(), Later);
  const Event ev = heap_.back();
  heap_.pop_back();
  min_step_ns_ = std::min(min_step_ns_, ev.at - now_);
  now_ = ev.at;
  ++processed_;
  ev.target->OnEvent(ev.kind, ev.arg);
  return true;
}

void Simulation::RunUntil(SimTime until) {
  while (!heap_.empty() && heap_.front().at <= until) Step();
  if (until > now_) now_ = until;
  CheckClock();
}

void Simulation::Run() {
  while (Step()) {
  }
  CheckClock();
}

void Simulation::CheckClock() const { CheckClockForward(min_step_ns_); }

}  // namespace ziosim
