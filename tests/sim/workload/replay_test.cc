#include "sim/workload/replay.h"

#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <string>
#include <vector>

#include "models/catalog/catalog.h"
#include "sim/core/status.h"
#include "sim/trace/disksim_validate_trace.h"
#include "sim/workload/validate_replay.h"
#include "tests/test_util.h"

namespace ziosim {
namespace {

// Serves every command in `latency` (plus `per_4k_ns` for each 4 KiB of
// offset, to spread latencies when a test wants a distribution), up to
// `queue_depth` at once, so that the replay's timing can be checked by hand.
class FixedLatencyDevice final : public Device {
 public:
  FixedLatencyDevice(Simulation* sim, SimTime latency, int queue_depth, int64_t capacity = int64_t{1} << 40,
                     int64_t sector = 512, SimTime per_4k_ns = 0)
      : Device(sim, "fixed0"),
        latency_(latency),
        queue_depth_(queue_depth),
        capacity_(capacity),
        sector_(sector),
        per_4k_ns_(per_4k_ns) {}

  bool is_rotational() const override { return false; }
  int64_t capacity_bytes() const override { return capacity_; }
  int64_t sector_bytes() const override { return sector_; }
  int queue_depth() const override { return queue_depth_; }
  int in_device() const override { return in_device_; }

  void Submit(const DeviceRequest& req) override {
    CheckRequest(req);
    ++in_device_;
    submits_.push_back(req);
    submitted_at_.push_back(sim_->now());
    sim_->ScheduleIn(latency_ + per_4k_ns_ * (req.offset_bytes / 4096), this, 0, submits_.size() - 1);
  }
  void OnEvent(uint32_t, uint64_t i) override {
    --in_device_;
    listener_->OnDeviceDone(submits_[i], submitted_at_[i], sim_->now());
  }

  const std::vector<DeviceRequest>& submits() const { return submits_; }

 private:
  SimTime latency_;
  int queue_depth_;
  int64_t capacity_;
  int64_t sector_;
  SimTime per_4k_ns_;
  int in_device_ = 0;
  std::vector<DeviceRequest> submits_;
  std::vector<SimTime> submitted_at_;
};

using test::TempFile;

struct Timing {
  int64_t index;
  SimTime arrival, issued, done;
  bool operator==(const Timing&) const = default;
};
std::ostream& operator<<(std::ostream& os, const Timing& t) {
  return os << "{" << t.index << ": " << t.arrival << ", " << t.issued << ", " << t.done << "}";
}

struct ReplayRun {
  ReplayResult result;
  std::vector<Timing> timings;  // in completion order
  std::vector<DeviceRequest> submits;
};

ReplayRun Replay(const std::string& path, const ReplayOptions& options, SimTime latency, int queue_depth,
           int64_t capacity = int64_t{1} << 40, int64_t sector = 512, SimTime per_4k_ns = 0) {
  Simulation sim;
  FixedLatencyDevice dev(&sim, latency, queue_depth, capacity, sector, per_4k_ns);
  auto trace = OpenTrace(path);
  ReplayRun run;
  run.result = ReplayTrace(*trace, dev, sim, options, [&run](const ReplayRequestResult& r) {
    run.timings.push_back({r.index, r.arrival_ns, r.issued_ns, r.done_ns});
  });
  run.submits = dev.submits();
  return run;
}

constexpr SimTime kMs = kNsPerMs;

// Four requests at 0, 1, 1 and 5 ms (a DiskSim ascii trace's times are the replay's).
const char kAscii[] = "0 0 0 8 1\n1 0 8 8 1\n1 0 16 8 1\n5 0 24 8 1\n";

// ---------------------------------------------------------------- pacing

TEST(ReplayTest, OpenLoopArrivesAtTheRecordedTimes) {
  TempFile f("open.trace", kAscii);
  const ReplayRun run = Replay(f.path(), ReplayOptions{}, 2 * kMs, 32);
  EXPECT_EQ(run.timings, (std::vector<Timing>{{0, 0, 0, 2 * kMs},
                                              {1, 1 * kMs, 1 * kMs, 3 * kMs},
                                              {2, 1 * kMs, 1 * kMs, 3 * kMs},
                                              {3, 5 * kMs, 5 * kMs, 7 * kMs}}));
  EXPECT_EQ(run.result.requests, 4);
  EXPECT_EQ(run.result.reads, 4);
  EXPECT_EQ(run.result.bytes, 4 * 4096);
  EXPECT_EQ(run.result.end_ns, 7 * kMs);
  EXPECT_DOUBLE_EQ(run.result.iops, 4 / 0.007);
  EXPECT_DOUBLE_EQ(run.result.mb_s, 4 * 4096 / 0.007 / 1e6);
  EXPECT_DOUBLE_EQ(run.result.all.simulated.mean_ms, 2.0);
  EXPECT_EQ(run.result.all.measured_requests, 0);
  EXPECT_TRUE(std::isnan(run.result.all.demerit_ms));
}

TEST(ReplayTest, OpenLoopSpeedDividesTheArrivalTimes) {
  TempFile f("speed.trace", kAscii);
  ReplayOptions o;
  o.speed = 2;
  const ReplayRun run = Replay(f.path(), o, 2 * kMs, 32);
  ASSERT_EQ(run.timings.size(), 4u);
  EXPECT_EQ(run.timings[1].arrival, 500'000);
  EXPECT_EQ(run.timings[3].arrival, 2'500'000);
  EXPECT_EQ(run.result.end_ns, 4'500'000);
}

TEST(ReplayTest, OpenLoopQueuesInFrontOfAFullDevice) {
  TempFile f("full.trace", kAscii);
  const ReplayRun run = Replay(f.path(), ReplayOptions{}, 2 * kMs, 1);
  // Arrivals 0, 1, 1, 5; one at a time: issued 0, 2, 4, 6.
  EXPECT_EQ(run.timings, (std::vector<Timing>{{0, 0, 0, 2 * kMs},
                                              {1, 1 * kMs, 2 * kMs, 4 * kMs},
                                              {2, 1 * kMs, 4 * kMs, 6 * kMs},
                                              {3, 5 * kMs, 6 * kMs, 8 * kMs}}));
  EXPECT_DOUBLE_EQ(run.result.all.simulated.mean_ms, (2 + 3 + 5 + 3) / 4.0);
  EXPECT_EQ(run.result.max_waiting, 2);  // both requests of 1 ms
}

TEST(ReplayTest, ClosedLoopKeepsNOutstandingAndIgnoresTheTimes) {
  TempFile f("closed.trace", std::string(kAscii) + "900 0 32 8 1\n");
  ReplayOptions o;
  ParseReplayMode("closed:2", o);
  const ReplayRun run = Replay(f.path(), o, 2 * kMs, 32);
  EXPECT_EQ(run.timings, (std::vector<Timing>{{0, 0, 0, 2 * kMs},
                                              {1, 0, 0, 2 * kMs},
                                              {2, 2 * kMs, 2 * kMs, 4 * kMs},
                                              {3, 2 * kMs, 2 * kMs, 4 * kMs},
                                              {4, 4 * kMs, 4 * kMs, 6 * kMs}}));
  EXPECT_EQ(run.result.end_ns, 6 * kMs);
}

TEST(ReplayTest, ClosedLoopDeeperThanTheDeviceWaitsInFront) {
  TempFile f("deep.trace", kAscii);
  ReplayOptions o;
  ParseReplayMode("closed:4", o);
  const ReplayRun run = Replay(f.path(), o, 2 * kMs, 2);
  EXPECT_EQ(run.timings, (std::vector<Timing>{{0, 0, 0, 2 * kMs},
                                              {1, 0, 0, 2 * kMs},
                                              {2, 0, 2 * kMs, 4 * kMs},
                                              {3, 0, 2 * kMs, 4 * kMs}}));
  EXPECT_EQ(run.result.max_waiting, 2);
}

TEST(ReplayTest, ValidateModeWaitsTheTracesIdleTimeAfterEachCompletion) {
  // Measured 1 ms each; arrivals 0, 3 and 4 ms: idle 2 ms after the first, 0 after the second.
  TempFile f("validate.csv", "0.000,0.001,R,0,8,1000\n0.003,0.004,R,8,8,1000\n0.004,0.0045,R,16,8,500\n");
  ReplayOptions o;
  ParseReplayMode("validate", o);
  const ReplayRun run = Replay(f.path(), o, 2 * kMs, 32);
  EXPECT_EQ(run.timings, (std::vector<Timing>{{0, 0, 0, 2 * kMs}, {1, 4 * kMs, 4 * kMs, 6 * kMs}, {2, 6 * kMs, 6 * kMs, 8 * kMs}}));
}

TEST(ReplayTest, ValidateModeUsesADisksimTracesGaps) {
  ReplayOptions o;
  ParseReplayMode("validate", o);
  const ReplayRun run = Replay(test::FormatFixture("disksim_validate.txt"), o, 2 * kMs, 32);
  // Gaps 56 ms, then 0.
  EXPECT_EQ(run.timings, (std::vector<Timing>{{0, 0, 0, 2 * kMs},
                                              {1, 58'000'000, 58'000'000, 60'000'000},
                                              {2, 60'000'000, 60'000'000, 62'000'000}}));
}

TEST(ReplayTest, ValidateModeWithoutMeasurementsRunsBackToBack) {
  TempFile f("b2b.trace", kAscii);
  ReplayOptions o;
  ParseReplayMode("validate", o);
  const ReplayRun run = Replay(f.path(), o, 2 * kMs, 32);
  ASSERT_EQ(run.timings.size(), 4u);
  EXPECT_EQ(run.timings[3], (Timing{3, 6 * kMs, 6 * kMs, 8 * kMs}));
}

// Two threads (PIDs 1 and 2), each read measured 1 ms with 1 ms of idle time
// before the thread's next: on a 3 ms device each thread waits only for its
// own reads; thread 2 starts at its recorded 0.5 ms.
TEST(ReplayTest, ValidateModePacesEachTracedThreadOnItsOwn) {
  TempFile f("threads.strace",
             "1 10:00:00.000000 read(3</f>, \"\"..., 512) = 512 <0.001000>\n"
             "2 10:00:00.000500 read(4</g>, \"\"..., 512) = 512 <0.001000>\n"
             "1 10:00:00.002000 read(3</f>, \"\"..., 512) = 512 <0.001000>\n"
             "2 10:00:00.002500 read(4</g>, \"\"..., 512) = 512 <0.001000>\n"
             "1 10:00:00.004000 read(3</f>, \"\"..., 512) = 512 <0.001000>\n");
  ReplayOptions o;
  ParseReplayMode("validate", o);
  const ReplayRun run = Replay(f.path(), o, 3 * kMs, 32);
  // Thread 1: 0-3, idle 1, 4-7, idle 1, 8-11. Thread 2: 0.5-3.5, idle 1, 4.5-7.5.
  EXPECT_EQ(run.timings, (std::vector<Timing>{{0, 0, 0, 3 * kMs},
                                              {1, 500'000, 500'000, 3'500'000},
                                              {2, 4 * kMs, 4 * kMs, 7 * kMs},
                                              {3, 4'500'000, 4'500'000, 7'500'000},
                                              {4, 8 * kMs, 8 * kMs, 11 * kMs}}));
}

TEST(ReplayTest, InstancesRunAtOnceEachFromItsStart) {
  TempFile f("open.trace", kAscii);
  Simulation sim;
  FixedLatencyDevice dev(&sim, 2 * kMs, 1);
  auto t0 = OpenTrace(f.path());
  auto t1 = OpenTrace(f.path());
  std::vector<ReplayRequestResult> seen;
  const ReplayRequestCallback cb = [&seen](const ReplayRequestResult& r) { seen.push_back(r); };
  // Two instances in one simulation, a drive each.
  FixedLatencyDevice dev2(&sim, 2 * kMs, 1);
  std::vector<ReplayInstance> instances;
  ReplayOptions o;
  std::unique_ptr<ReplayTarget> a = MakeDriveTarget(dev);
  std::unique_ptr<ReplayTarget> b = MakeDriveTarget(dev2);
  instances.push_back(ReplayInstance{t0.get(), a.get(), 0, cb});
  instances.push_back(ReplayInstance{t1.get(), b.get(), 10 * kMs, cb});
  const ReplayGroupResult g = ReplayTraces(instances, sim, o);
  ASSERT_EQ(g.instances.size(), 2u);
  EXPECT_EQ(g.instances[0].end_ns, 8 * kMs);
  EXPECT_EQ(g.instances[1].start_ns, 10 * kMs);
  EXPECT_EQ(g.instances[1].end_ns, 18 * kMs);  // the same timeline, 10 ms later
  EXPECT_DOUBLE_EQ(g.instances[1].mb_s, g.instances[0].mb_s);
  EXPECT_EQ(g.pooled.requests, 8);
  EXPECT_EQ(g.pooled.end_ns, 18 * kMs);
  EXPECT_DOUBLE_EQ(g.pooled.all.simulated.mean_ms,
                   (g.instances[0].all.simulated.mean_ms + g.instances[1].all.simulated.mean_ms) / 2);
  ASSERT_EQ(seen.size(), 8u);
  EXPECT_EQ(seen[0].instance, 0);
  EXPECT_EQ(seen.back().instance, 1);
  EXPECT_EQ(seen.back().arrival_ns, 15 * kMs);
}

// ---------------------------------------------------------------- comparison with the measured latencies

TEST(ReplayTest, ComparesWithMeasuredLatencies) {
  // Measured 1 ms each; simulated 2 ms: +100 %, and every quantile 1 ms apart.
  TempFile f("measured.csv", "0.000,0.001,R,0,8,1000\n0.003,0.004,W,8,8,1000\n0.004,0.0045,R,16,8,1000\n");
  const ReplayRun run = Replay(f.path(), ReplayOptions{}, 2 * kMs, 32);
  EXPECT_EQ(run.result.all.measured_requests, 3);
  EXPECT_EQ(run.result.writes, 1);
  EXPECT_DOUBLE_EQ(run.result.all.measured.mean_ms, 1.0);
  EXPECT_DOUBLE_EQ(run.result.all.simulated_measured.mean_ms, 2.0);
  EXPECT_DOUBLE_EQ(run.result.all.mean_error_pct, 100.0);
  EXPECT_NEAR(run.result.all.demerit_ms, 1.0, 1e-12);
  EXPECT_NEAR(run.result.all.demerit_pct, 100.0, 1e-9);
  EXPECT_TRUE(run.result.exact_quantiles);
}

TEST(ReplayTest, ComparesOnlyTheRequestsThatWereMeasured) {
  // blkparse: the last D never completes in the trace.
  const ReplayRun run = Replay(test::FormatFixture("blkparse.txt"), ReplayOptions{}, 2 * kMs, 32);
  EXPECT_EQ(run.result.requests, 4);
  EXPECT_EQ(run.result.all.measured_requests, 3);
  EXPECT_EQ(run.result.all.simulated.count, 4);
  EXPECT_EQ(run.result.all.simulated_measured.count, 3);
}

// MSR lines: disk 0 measured 1 ms (reads) and 3 ms (the write), disk 1 measured 4 ms.
const char kTwoDisks[] =
    "100000,hm,0,Read,0,4096,10000\n"
    "110000,hm,1,Read,8192,4096,40000\n"
    "120000,hm,0,Write,16384,4096,30000\n"
    "130000,hm,0,Read,24576,4096,10000\n";

// A DiskSim ascii trace's times are DiskSim's clock, whose platters stand at angle 0 at
// time 0: its first request comes at 10 ms. Another trace's times are the traced
// system's: the MSR trace's first request (at 10 ms of its clock) comes at once.
TEST(ReplayTest, AnAsciiTraceKeepsItsTimesOthersStartAtTheirFirstRequest) {
  TempFile ascii("late.trace", "10 0 0 8 1\n11 0 8 8 1\n");
  const ReplayRun a = Replay(ascii.path(), ReplayOptions{}, 2 * kMs, 32);
  ASSERT_EQ(a.timings.size(), 2u);
  EXPECT_EQ(a.timings[0].arrival, 10 * kMs);
  EXPECT_EQ(a.timings[1].arrival, 11 * kMs);
  TempFile msr("late.csv", kTwoDisks);
  const ReplayRun m = Replay(msr.path(), ReplayOptions{}, 2 * kMs, 32);
  ASSERT_EQ(m.timings.size(), 4u);
  EXPECT_EQ(m.timings[0].arrival, 0);
  EXPECT_EQ(m.timings[1].arrival, 1 * kMs);  // 10,000 ticks of 100 ns later
}

TEST(ReplayTest, ComparesReadsWritesAndDevicesApart) {
  TempFile f("two.csv", kTwoDisks);
  ReplayOptions o;
  o.per_device = true;
  const ReplayResult r = Replay(f.path(), o, 2 * kMs, 32).result;  // every request simulated at 2 ms
  EXPECT_EQ(r.devices_seen, 2);
  EXPECT_EQ(r.read.requests, 3);
  EXPECT_DOUBLE_EQ(r.read.measured.mean_ms, 2.0);
  EXPECT_DOUBLE_EQ(r.read.mean_error_pct, 0.0);
  EXPECT_EQ(r.write.requests, 1);
  EXPECT_NEAR(r.write.mean_error_pct, -100.0 / 3, 1e-9);
  EXPECT_NEAR(r.write.demerit_ms, 1.0, 1e-12);
  ASSERT_EQ(r.devices.size(), 2u);
  EXPECT_EQ(r.devices[0].device, 0);
  EXPECT_EQ(r.devices[0].comparison.requests, 3);
  EXPECT_NEAR(r.devices[0].comparison.measured.mean_ms, 5.0 / 3, 1e-12);
  EXPECT_EQ(r.devices[1].device, 1);
  EXPECT_EQ(r.devices[1].comparison.requests, 1);
  EXPECT_DOUBLE_EQ(r.devices[1].comparison.mean_error_pct, -50.0);
  o.per_device = false;
  EXPECT_TRUE(Replay(f.path(), o, 2 * kMs, 32).result.devices.empty());
}

TEST(ReplayTest, DeviceAndReadsOnlyPassOverRequestsAndCountThem) {
  TempFile f("pick.csv", kTwoDisks);
  ReplayOptions o;
  o.device = 0;
  ReplayRun run = Replay(f.path(), o, 2 * kMs, 32);
  EXPECT_EQ(run.result.requests, 3);
  EXPECT_EQ(run.result.other_devices, 1);
  EXPECT_EQ(run.result.devices_seen, 2);
  // The passed-over request leaves no gap in the timeline: arrivals at 0, 2, 3 ms.
  ASSERT_EQ(run.timings.size(), 3u);
  EXPECT_EQ(run.timings[2].arrival, 3 * kMs);
  o.reads_only = true;
  run = Replay(f.path(), o, 2 * kMs, 32);
  EXPECT_EQ(run.result.requests, 2);
  EXPECT_EQ(run.result.writes, 0);
  EXPECT_EQ(run.result.skipped_writes, 1);
  o.device = 7;
  try {
    Replay(f.path(), o, 2 * kMs, 32);
    FAIL();
  } catch (const InputError& e) {
    EXPECT_EQ(std::string(e.what()),
              f.path() + ": the trace holds no requests to replay, 4 of other devices passed over");
  }
}

TEST(ReplayTest, HistogramModeAgreesWithExactQuantiles) {
  // 2000 requests with spread latencies (1 ms + 1 us per 4 KiB of offset), measured spread differently.
  std::string text;
  for (int i = 0; i < 2000; ++i) {
    const int64_t block = (i * 7919) % 5003;
    text += std::to_string(i) + ".0," + std::to_string(i) + ".5,R," + std::to_string(block * 8) + ",8," +
            std::to_string(500 + (i * 31) % 3000) + ".0\n";
  }
  TempFile f("many.csv", text);
  const ReplayRun exact = Replay(f.path(), ReplayOptions{}, kMs, 32, int64_t{1} << 40, 512, 1000);
  ReplayOptions o;
  o.exact_sample_limit = 100;
  const ReplayRun hist = Replay(f.path(), o, kMs, 32, int64_t{1} << 40, 512, 1000);
  ASSERT_TRUE(exact.result.exact_quantiles);
  ASSERT_FALSE(hist.result.exact_quantiles);
  EXPECT_NEAR(hist.result.all.simulated.mean_ms, exact.result.all.simulated.mean_ms, 1e-9);
  for (auto [h, e] : {std::pair{hist.result.all.simulated.p50_ms, exact.result.all.simulated.p50_ms},
                      std::pair{hist.result.all.simulated.p99_ms, exact.result.all.simulated.p99_ms},
                      std::pair{hist.result.all.measured.p90_ms, exact.result.all.measured.p90_ms},
                      std::pair{hist.result.all.demerit_ms, exact.result.all.demerit_ms}}) {
    EXPECT_NEAR(h, e, 1e-3 * e);
  }
}

// ---------------------------------------------------------------- placement on the device

TEST(ReplayTest, RequestsPastTheEndAreAnErrorUnlessWrapped) {
  constexpr int64_t kCap = 1 << 20;
  // 4 KiB at 3 MiB + 4 KiB, then 4 KiB at 2 MiB + 1 MiB - 512 (wraps to the last 512 bytes: pulled back).
  TempFile f("wrap.csv", "0,hm,0,Read,3149824,4096,1\n1,hm,0,Read,3145216,4096,1\n");
  try {
    Replay(f.path(), ReplayOptions{}, kMs, 32, kCap);
    FAIL();
  } catch (const InputError& e) {
    EXPECT_EQ(std::string(e.what()),
              f.path() + ":1: field offset: 4096 bytes at offset 3149824 run past the end of fixed0 (1048576 bytes); "
                         "pass --wrap to wrap offsets modulo the target's capacity");
  }
  ReplayOptions o;
  o.wrap = true;
  const ReplayRun run = Replay(f.path(), o, kMs, 32, kCap);
  ASSERT_EQ(run.submits.size(), 2u);
  EXPECT_EQ(run.submits[0].offset_bytes, 4096);
  EXPECT_EQ(run.submits[1].offset_bytes, kCap - 4096);
  EXPECT_EQ(run.result.wrapped, 2);
}

TEST(ReplayTest, RequestsAreWidenedToWholeSectors) {
  TempFile f("align.csv", "0,hm,0,Read,512,512,1\n1,hm,0,Write,8192,4096,1\n");
  const ReplayRun run = Replay(f.path(), ReplayOptions{}, kMs, 32, int64_t{1} << 30, 4096);
  ASSERT_EQ(run.submits.size(), 2u);
  EXPECT_EQ(run.submits[0].offset_bytes, 0);
  EXPECT_EQ(run.submits[0].size_bytes, 4096);
  EXPECT_EQ(run.submits[1].offset_bytes, 8192);
  EXPECT_EQ(run.result.realigned, 1);
}

TEST(ReplayTest, LimitStopsEarly) {
  TempFile f("limit.trace", kAscii);
  ReplayOptions o;
  o.limit = 2;
  EXPECT_EQ(Replay(f.path(), o, kMs, 32).result.requests, 2);
}

TEST(ReplayTest, AnEmptyTraceIsAnError) {
  TempFile f("empty.iolog", "fio version 2 iolog\nf add\nf trim 0 4096\n");
  try {
    Replay(f.path(), ReplayOptions{}, kMs, 32);
    FAIL();
  } catch (const InputError& e) {
    EXPECT_EQ(std::string(e.what()), f.path() + ": the trace holds no requests");
  }
}

TEST(ReplayTest, StreamsTheTrace) {
  // The bad last line is met only when the replay gets there: the first requests have completed by then.
  TempFile f("late.trace", std::string(kAscii) + "20 0 x 8 1\n");
  Simulation sim;
  FixedLatencyDevice dev(&sim, kMs, 32);
  auto trace = OpenTrace(f.path());
  int completed = 0;
  EXPECT_THROW(ReplayTrace(*trace, dev, sim, ReplayOptions{}, [&](const ReplayRequestResult&) { ++completed; }),
               InputError);
  EXPECT_EQ(completed, 3);  // the fourth arrives at 5 ms, when the bad line is read
}

TEST(ReplayModeTest, ParsesTheModesAndRejectsOthers) {
  ReplayOptions o;
  ParseReplayMode("closed:16", o);
  EXPECT_EQ(o.mode, ReplayMode::kClosed);
  EXPECT_EQ(o.depth, 16);
  EXPECT_EQ(ReplayModeName(o), "closed:16");
  for (const char* bad : {"closed", "closed:0", "closed:x", "fast"}) {
    try {
      ParseReplayMode(bad, o);
      FAIL() << bad;
    } catch (const InputError& e) {
      EXPECT_EQ(std::string(e.what()),
                std::string("--mode: expected open, closed:N (N >= 1 requests outstanding) or validate, got '") +
                    bad + "'");
    }
  }
}

// ---------------------------------------------------------------- against the existing validate replay

TEST(ReplayTest, ValidateModeMatchesValidateReplayOnDisksimTraces) {
#ifndef ZIOSIM_SHARED_DATA_DIR
  GTEST_SKIP() << "ZIOSIM_SHARED_DATA_DIR not defined";
#else
  const std::string dir = std::string(ZIOSIM_SHARED_DATA_DIR) + "/disksim-valid/";
  if (!std::filesystem::exists(dir + "barracuda.parv")) GTEST_SKIP() << "no " << dir << ": skipping";
  const DriveSpec drive = ResolveDrive("disksim:" + dir + "barracuda.parv");

  Simulation sim_a;
  std::unique_ptr<Device> dev_a = MakeDevice(&sim_a, "a", drive, QueuePolicy::kFifo);
  DisksimValidateTrace trace_a(dir + "barracuda.trace");
  const ValidateReplayResult want = ReplayValidate(*dev_a, sim_a, trace_a);

  Simulation sim_b;
  std::unique_ptr<Device> dev_b = MakeDevice(&sim_b, "b", drive, QueuePolicy::kFifo);
  auto trace_b = OpenTrace(dir + "barracuda.trace");
  ReplayOptions o;
  ParseReplayMode("validate", o);
  std::vector<double> simulated;
  const ReplayResult got = ReplayTrace(*trace_b, *dev_b, sim_b, o, [&](const ReplayRequestResult& r) {
    simulated.push_back(NsToMs(r.done_ns - r.arrival_ns));
  });
  EXPECT_EQ(got.requests, want.requests);
  EXPECT_EQ(simulated, want.simulated_ms);
  EXPECT_EQ(got.end_ns, want.end_ns);
  EXPECT_DOUBLE_EQ(got.all.simulated.mean_ms, want.simulated.mean_ms);
  EXPECT_NEAR(got.all.measured.mean_ms, want.measured.mean_ms, 1e-12);
  EXPECT_NEAR(got.all.demerit_ms, want.demerit_ms, 1e-9);
  EXPECT_NEAR(got.all.mean_error_pct, want.mean_error_pct, 1e-9);
#endif
}

}  // namespace
}  // namespace ziosim
