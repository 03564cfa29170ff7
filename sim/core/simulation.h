// The event core: a clock and a queue of pending events, in the spirit of
// SimPy's Environment. A component that wants to be woken derives from
// EventHandler and schedules itself; an event is a plain value (target, kind,
// argument), so scheduling allocates nothing once the heap has grown.
//
// Simultaneous events run in the order they were scheduled (the sequence
// number breaks ties), so a run is a pure function of its inputs and seed.
// There is no global state: many Simulations can live in one process.
// Not thread-safe; one Simulation belongs to one thread.
#ifndef ZIOSIM_SIM_CORE_SIMULATION_H_
#define ZIOSIM_SIM_CORE_SIMULATION_H_

#include <cstdint>
#include <vector>

#include "sim/core/time.h"

namespace ziosim {

class EventHandler {
 public:
  virtual ~EventHandler() = default;
  // Called when an event scheduled for this handler comes due. `kind` and
  // `arg` are whatever the scheduler passed; their meaning is the handler's.
  virtual void OnEvent(uint32_t kind, uint64_t arg) = 0;
};

class Simulation {
 public:
  Simulation() = default;
  Simulation(const Simulation&) = delete;
  Simulation& operator=(const Simulation&) = delete;

  SimTime now() const { return now_; }

  // Schedules `target->OnEvent(kind, arg)` at absolute time `at`.
  // REQUIRES: at >= now() (the past cannot be changed).
  void Schedule(SimTime at, EventHandler* target, uint32_t kind, uint64_t arg = 0);
  void ScheduleIn(SimTime delay, EventHandler* target, uint32_t kind, uint64_t arg = 0) {
    Schedule(now_ + delay, target, kind, arg);
  }

  // Runs the earliest pending event. Returns false if there was none.
  bool Step();
  // Runs events until none is left or the next one lies after `until`;
  // the clock then reads `until` (or the last event's time if the queue ran dry first).
  void RunUntil(SimTime until);
  // Runs until no event is pending.
  void Run();
  // Throws InternalError if an event ever ran before the clock's time (Run and
  // RunUntil check this when they return; a caller of Step checks it itself).
  void CheckClock() const;

  bool empty() const { return heap_.empty(); }
  // When the earliest pending event is due. REQUIRES: !empty().
  SimTime next_event_at() const { return heap_.front().at; }
  uint64_t events_processed() const { return processed_; }
  void Reserve(size_t events) { heap_.reserve(events); }

 private:
  struct Event {
    SimTime at;
    uint64_t seq;
    EventHandler* target;
    uint64_t arg;
    uint32_t kind;
  };
  // Without branches (bitwise, not short-circuit): the heap compares siblings
  // whose order is a coin toss for the branch predictor.
  static bool Earlier(const Event& a, const Event& b) {
    return (a.at < b.at) | ((a.at == b.at) & (a.seq < b.seq));
  }
  // Removes the earliest event (the root): the last event fills the hole and
  // sinks below every earlier child. REQUIRES: !empty().
  void RemoveEarliest();

  // A 4-ary min-heap on (at, seq): half the depth of a binary heap, the four
  // children of a node side by side in memory, and holes filled by moves, not
  // swaps. The order events run in is the total order on (at, seq), whatever
  // the heap's shape.
  static constexpr size_t kArity = 4;
  std::vector<Event> heap_;
  SimTime now_ = 0;
  uint64_t next_seq_ = 0;
  uint64_t processed_ = 0;
  // Smallest (event time - clock) seen when popping: negative means time went
  // backwards. A branchless min, so the check costs nothing per event.
  SimTime min_step_ns_ = 0;
};

}  // namespace ziosim

#endif  // ZIOSIM_SIM_CORE_SIMULATION_H_
