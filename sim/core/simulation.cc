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

void Simulation::RemoveEarliest() {
  const size_t n = heap_.size() - 1;  // the heap without its last event
  const Event& last = heap_[n];
  size_t i = 0;
  for (;;) {
    const size_t first = i * kArity + 1;
    if (first >= n) break;
    size_t best = first;
    const size_t end = std::min(first + kArity, n);
    for (size_t c = first + 1; c < end; ++c) best = Earlier(heap_[c], heap_[best]) ? c : best;
    if (!Earlier(heap_[best], last)) break;
    heap_[i] = heap_[best];
    i = best;
  }
  if (n > 0) heap_[i] = last;  // else the last event is the one removed
  heap_.pop_back();
}

bool Simulation::Step() {
  if (heap_.empty()) return false;
  // The event is read field by field, as Schedule wrote it: most events were
  // scheduled a moment ago, and a wider load spanning several of those stores
  // cannot be forwarded from them, so it would wait for them to reach the cache.
  const Event& front = heap_.front();
  const SimTime at = front.at;
  EventHandler* const target = front.target;
  const uint32_t kind = front.kind;
  const uint64_t arg = front.arg;
  RemoveEarliest();
  min_step_ns_ = std::min(min_step_ns_, at - now_);
  now_ = at;
  ++processed_;
  target->OnEvent(kind, arg);
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
