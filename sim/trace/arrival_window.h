// Requests logged as they complete, put back into arrival order (internal to
// sim/trace/): each is held until the log's completion times pass its arrival
// by the window. An arrival earlier than one already released (a latency
// longer than the window) cannot be put back; the reader reports it
// (InOrder). Memory: the requests of one window.
#ifndef ZIOSIM_SIM_TRACE_ARRIVAL_WINDOW_H_
#define ZIOSIM_SIM_TRACE_ARRIVAL_WINDOW_H_

#include <algorithm>
#include <cstdint>
#include <queue>
#include <vector>

#include "sim/trace/trace_reader.h"

namespace ziosim {

class ArrivalWindow {
 public:
  explicit ArrivalWindow(SimTime window_ns) : window_ns_(window_ns) {}

  // Whether a request arriving at `arrival_ns` can still be put in order.
  bool InOrder(SimTime arrival_ns) const { return !released_any_ || arrival_ns >= last_released_ns_; }
  // The arrival of the last request released.
  SimTime last_released_ns() const { return last_released_ns_; }

  // Holds `r`, which completed at `done_ns`. REQUIRES: InOrder(r.time_ns).
  void Push(const TraceRecord& r, SimTime done_ns) {
    latest_done_ns_ = std::max(latest_done_ns_, done_ns);
    held_.push(Held{r, seq_++});
  }

  // Hands `emit` the requests whose window has passed (every one with `all`),
  // in arrival order (ties in log order).
  template <typename Emit>
  void Release(bool all, Emit&& emit) {
    while (!held_.empty() && (all || held_.top().record.time_ns + window_ns_ <= latest_done_ns_)) {
      last_released_ns_ = held_.top().record.time_ns;
      released_any_ = true;
      emit(held_.top().record);
      held_.pop();
    }
  }

 private:
  struct Held {
    TraceRecord record;
    int64_t seq;
  };
  struct Later {
    bool operator()(const Held& a, const Held& b) const {
      return a.record.time_ns != b.record.time_ns ? a.record.time_ns > b.record.time_ns : a.seq > b.seq;
    }
  };

  SimTime window_ns_;
  std::priority_queue<Held, std::vector<Held>, Later> held_;
  int64_t seq_ = 0;
  SimTime latest_done_ns_ = 0;
  SimTime last_released_ns_ = 0;
  bool released_any_ = false;
};

}  // namespace ziosim

#endif  // ZIOSIM_SIM_TRACE_ARRIVAL_WINDOW_H_
