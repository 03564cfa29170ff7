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
  const Event ev{at, next_seq_++, target, arg, kind};
  size_t i = heap_.size();
  heap_.push_back(ev);
  while (i > 0) {
    const size_t parent = (i - 1) / kArity;
    if (!Earlier(ev, heap_[parent])) break;
    heap_[i] = heap_[parent];
    i = parent;
  }
  heap_[i] = ev;
}

void Simulation::SiftDown(size_t i, const Event& ev) {
  const size_t n = heap_.size();
  for (;;) {
    const size_t first = i * kArity + 1;
    if (first >= n) break;
    size_t best = first;
    const size_t end = std::min(first + kArity, n);
    for (size_t c = first + 1; c < end; ++c) best = Earlier(heap_[c], heap_[best]) ? c : best;
    if (!Earlier(heap_[best], ev)) break;
    heap_[i] = heap_[best];
    i = best;
  }
  heap_[i] = ev;
}

bool Simulation::Step() {
  if (heap_.empty()) return false;
  const Event ev = heap_.front();
  const Event last = heap_.back();
  heap_.pop_back();
  if (!heap_.empty()) SiftDown(0, last);
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
