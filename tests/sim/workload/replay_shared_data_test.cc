// Every trace in ../shared/data replays: on a drive chosen for it (its own
// DiskSim drive for the validate traces), and the MSR sample's reads on a
// pool. Skips when the data are absent.
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "models/catalog/catalog.h"
#include "sim/workload/pool_replay.h"
#include "sim/workload/replay.h"
#include "tests/test_util.h"

namespace ziosim {
namespace {

struct Case {
  std::string path;    // under ../shared/data
  std::string target;  // a drive; "disksim:" + path with .parv for the validate traces
  const char* mode;
};

struct Counts {
  int64_t records = 0, reads = 0, measured = 0;
};

Counts CountRecords(const std::string& path) {
  auto reader = OpenTrace(path);
  Counts c;
  TraceRecord r;
  while (reader->Next(r)) {
    ++c.records;
    c.reads += r.op == IoOp::kRead ? 1 : 0;
    c.measured += r.measured_latency_ns >= 0 ? 1 : 0;
  }
  return c;
}

void ExpectSane(const ReplayComparison& c, int64_t requests, int64_t measured) {
  EXPECT_EQ(c.requests, requests);
  EXPECT_EQ(c.simulated.count, requests);
  EXPECT_GT(c.simulated.mean_ms, 0);
  EXPECT_TRUE(std::isfinite(c.simulated.p99_ms));
  EXPECT_GE(c.simulated.p99_ms, c.simulated.p50_ms);
  EXPECT_EQ(c.measured_requests, measured);
  if (measured > 0) {
    EXPECT_TRUE(std::isfinite(c.demerit_ms));
    EXPECT_TRUE(std::isfinite(c.mean_error_pct));
  }
}

TEST(ReplaySharedDataTest, EveryTraceReplaysOnAChosenDrive) {
  const std::string dv = "disksim-valid/";
  const std::vector<Case> cases = {
      {"traces/msr-cambridge/msr-cambridge1-sample.csv", "wd-re4-1tb", "open"},
      {"traces/blkparse/blktrace.txt", "generic-7200-hdd", "open"},
      {"traces/cloudphysics/cloudPhysicsIO.csv", "hgst-he8-8tb", "open"},
      {"fio-vm/pertrace/randread_qd4.iolog.gz", "generic-ssd", "closed:4"},
      {"fio-vm/pertrace/randread_qd4_lat.1.log.gz", "generic-ssd", "open"},
      {"fio-vm/pertrace/randread_qd4_clat.1.log.gz", "generic-ssd", "open"},
      {"fio-vm/pertrace/ftrace_block_DC.csv.gz", "generic-ssd", "open"},
      {dv + "atlas_III.trace", "disksim:" + test::SharedDataDir() + "/" + dv + "atlas_III.parv", "validate"},
      {dv + "barracuda.trace", "disksim:" + test::SharedDataDir() + "/" + dv + "barracuda.parv", "validate"},
      {dv + "cheetah4LP.trace", "disksim:" + test::SharedDataDir() + "/" + dv + "cheetah4LP.parv", "validate"},
      {dv + "cheetah9LP.trace", "disksim:" + test::SharedDataDir() + "/" + dv + "cheetah9LP.parv", "validate"},
      {dv + "hp_c2247a.trace", "disksim:" + test::SharedDataDir() + "/" + dv + "hp_c2247a.parv", "validate"},
      {dv + "hp_c2490a.trace", "disksim:" + test::SharedDataDir() + "/" + dv + "hp_c2490a.parv", "validate"},
  };
  int present = 0;
  for (const Case& c : cases) {
    const std::string path = test::SharedDataDir() + "/" + c.path;
    if (!std::filesystem::exists(path)) continue;
    ++present;
    SCOPED_TRACE(c.path + " on " + c.target);
    const Counts want = CountRecords(path);
    Simulation sim;
    std::unique_ptr<Device> dev = MakeDevice(&sim, "d", ResolveDrive(c.target), QueuePolicy::kSptf);
    ReplayOptions o;
    ParseReplayMode(c.mode, o);
    o.wrap = true;  // the traced volumes may be larger than the drive
    auto trace = OpenTrace(path);
    const ReplayResult r = ReplayTrace(*trace, *dev, sim, o);
    EXPECT_EQ(r.requests, want.records);
    EXPECT_EQ(r.reads, want.reads);
    EXPECT_GT(r.end_ns, 0);
    ExpectSane(r.all, want.records, want.measured);
  }
  if (present == 0) GTEST_SKIP() << "../shared/data is absent: nothing to replay";
}

TEST(ReplaySharedDataTest, MsrSampleReadsReplayOnAMirrorPool) {
  const std::string path = test::SharedDataDir() + "/traces/msr-cambridge/msr-cambridge1-sample.csv";
  if (!std::filesystem::exists(path)) GTEST_SKIP() << "no " << path << ": skipping";
  const Counts want = CountRecords(path);
  PoolReplayOptions pool;
  pool.pool = "mirror 2xwd-re4-1tb";
  ReplayOptions o;
  o.reads_only = true;
  const PoolReplayResult r = ReplayTraceOnPool(path, TraceFormat::kAuto, {}, pool, o);
  EXPECT_EQ(r.replay.requests, want.reads);
  EXPECT_EQ(r.replay.skipped_writes, want.records - want.reads);
  ExpectSane(r.replay.all, want.reads, want.reads);
  EXPECT_GT(r.disk_bytes_read, 0);
  EXPECT_GT(r.arc_hit_pct, 0);  // 16K blocks under smaller reads: neighbours hit
}

}  // namespace
}  // namespace ziosim
