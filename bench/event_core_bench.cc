// Raw speed of the event core: handlers that reschedule themselves, as device
// models and workload generators do, with delays spread so that the heap
// really reorders events. items_per_second = events run.
#include <benchmark/benchmark.h>

#include <cstdint>
#include <vector>

#include "sim/core/simulation.h"

namespace ziosim {
namespace {

constexpr uint64_t kEventsPerIteration = 1 << 20;

class SelfRescheduler final : public EventHandler {
 public:
  SelfRescheduler(Simulation* sim, uint64_t* budget, uint64_t seed) : sim_(sim), budget_(budget), state_(seed) {}

  void Start() { sim_->ScheduleIn(NextDelayNs(), this, 0); }

  void OnEvent(uint32_t /*kind*/, uint64_t /*arg*/) override {
    if (*budget_ == 0) return;
    --*budget_;
    sim_->ScheduleIn(NextDelayNs(), this, 0);
  }

 private:
  // An LCG: cheap and deterministic, so the benchmark measures the queue, not the generator.
  SimTime NextDelayNs() {
    state_ = state_ * 6364136223846793005ULL + 1442695040888963407ULL;
    return 1 + static_cast<SimTime>((state_ >> 33) % 1'000'000);
  }

  Simulation* sim_;
  uint64_t* budget_;
  uint64_t state_;
};

void BM_EventCore(benchmark::State& state) {
  const int handlers = static_cast<int>(state.range(0));
  uint64_t events = 0;
  for (auto _ : state) {
    Simulation sim;
    sim.Reserve(static_cast<size_t>(handlers));
    uint64_t budget = kEventsPerIteration;
    std::vector<SelfRescheduler> actors;
    actors.reserve(static_cast<size_t>(handlers));
    for (int i = 0; i < handlers; ++i) actors.emplace_back(&sim, &budget, static_cast<uint64_t>(i) + 1);
    for (SelfRescheduler& a : actors) a.Start();
    sim.Run();
    events += sim.events_processed();
  }
  state.SetItemsProcessed(static_cast<int64_t>(events));
}
BENCHMARK(BM_EventCore)->Arg(1)->Arg(16)->Arg(256)->Arg(4096)->Arg(65536)->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace ziosim
