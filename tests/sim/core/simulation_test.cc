#include "sim/core/simulation.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <stdexcept>
#include <utility>
#include <vector>

#include "sim/core/random.h"

namespace ziosim {
namespace {

// Records (time, kind, arg) of every event it receives.
class Recorder : public EventHandler {
 public:
  explicit Recorder(Simulation* sim) : sim_(sim) {}
  void OnEvent(uint32_t kind, uint64_t arg) override { seen.push_back({sim_->now(), kind * 1000 + arg}); }
  std::vector<std::pair<SimTime, uint64_t>> seen;

 private:
  Simulation* sim_;
};

TEST(SimulationTest, RunsEventsInTimeOrder) {
  Simulation sim;
  Recorder r(&sim);
  sim.Schedule(30, &r, 1, 3);
  sim.Schedule(10, &r, 1, 1);
  sim.Schedule(20, &r, 1, 2);
  sim.Run();
  ASSERT_EQ(r.seen.size(), 3u);
  EXPECT_EQ(r.seen[0], std::make_pair(SimTime{10}, uint64_t{1001}));
  EXPECT_EQ(r.seen[1], std::make_pair(SimTime{20}, uint64_t{1002}));
  EXPECT_EQ(r.seen[2], std::make_pair(SimTime{30}, uint64_t{1003}));
  EXPECT_EQ(sim.now(), 30);
  EXPECT_EQ(sim.events_processed(), 3u);
}

TEST(SimulationTest, SimultaneousEventsRunInSchedulingOrder) {
  Simulation sim;
  Recorder r(&sim);
  for (uint64_t i = 0; i < 100; ++i) sim.Schedule(5, &r, 2, i);
  sim.Run();
  ASSERT_EQ(r.seen.size(), 100u);
  for (uint64_t i = 0; i < 100; ++i) EXPECT_EQ(r.seen[i].second, 2000 + i);
}

TEST(SimulationTest, RunUntilStopsAtTheHorizonAndAdvancesTheClock) {
  Simulation sim;
  Recorder r(&sim);
  sim.Schedule(10, &r, 1);
  sim.Schedule(50, &r, 1);
  sim.RunUntil(20);
  EXPECT_EQ(r.seen.size(), 1u);
  EXPECT_EQ(sim.now(), 20);
  EXPECT_FALSE(sim.empty());
  sim.Run();
  EXPECT_EQ(r.seen.size(), 2u);
}

// Events scheduled at random times, many at the same instant, between steps
// that take the earliest: they run in (time, scheduling order), as a sorted
// list of every event says, whatever shape the heap had.
TEST(SimulationTest, RandomSchedulesRunInTimeThenSchedulingOrder) {
  for (const uint64_t seed : {1u, 2u, 3u}) {
    Simulation sim;
    Recorder r(&sim);
    RandomStream rng(seed, "heap");
    std::vector<std::pair<SimTime, uint64_t>> want;  // (time, scheduling number), sorted at the end
    uint64_t scheduled = 0;
    for (int round = 0; round < 400; ++round) {
      const int64_t burst = rng.UniformInt(0, 12);
      for (int64_t k = 0; k < burst; ++k) {
        const SimTime at = sim.now() + rng.UniformInt(0, 30);
        sim.Schedule(at, &r, 0, scheduled);
        want.push_back({at, scheduled++});
      }
      for (int64_t k = rng.UniformInt(0, 10); k > 0 && sim.Step(); --k) {
      }
    }
    sim.Run();
    std::stable_sort(want.begin(), want.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
    ASSERT_EQ(r.seen, want) << "seed " << seed;
  }
}

TEST(SimulationTest, SchedulingInThePastIsAnError) {
  Simulation sim;
  Recorder r(&sim);
  sim.Schedule(10, &r, 1);
  sim.Run();
  EXPECT_THROW(sim.Schedule(5, &r, 1), std::logic_error);
}

// A handler that reschedules itself with random delays: the trace of a run
// must be a pure function of the seed.
class Jitter : public EventHandler {
 public:
  Jitter(Simulation* sim, uint64_t seed, const char* name) : sim_(sim), rng_(seed, name) {}
  void OnEvent(uint32_t, uint64_t) override {
    times.push_back(sim_->now());
    if (times.size() < 1000) sim_->ScheduleIn(rng_.UniformInt(0, 100), this, 0);
  }
  std::vector<SimTime> times;

 private:
  Simulation* sim_;
  RandomStream rng_;
};

std::vector<SimTime> RunJitter(uint64_t seed) {
  Simulation sim;
  Jitter a(&sim, seed, "a"), b(&sim, seed, "b");
  sim.Schedule(0, &a, 0);
  sim.Schedule(0, &b, 0);
  sim.Run();
  std::vector<SimTime> all = a.times;
  all.insert(all.end(), b.times.begin(), b.times.end());
  return all;
}

TEST(SimulationTest, SameSeedSameRunBitForBit) {
  EXPECT_EQ(RunJitter(42), RunJitter(42));
  EXPECT_NE(RunJitter(42), RunJitter(43));
}

TEST(RandomStreamTest, StreamsDependOnComponentNameNotOnOtherComponents) {
  RandomStream disk0(7, "disk0");
  RandomStream disk0_again(7, "disk0");
  RandomStream disk1(7, "disk1");
  const int64_t x = disk0.UniformInt(0, 1 << 30);
  EXPECT_EQ(x, disk0_again.UniformInt(0, 1 << 30));
  EXPECT_NE(StreamSeed(7, "disk0"), StreamSeed(7, "disk1"));
  EXPECT_NE(StreamSeed(7, "disk0"), StreamSeed(8, "disk0"));
  (void)disk1;
}

}  // namespace
}  // namespace ziosim
