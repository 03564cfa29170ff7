#include "sim/workload/disk_bench.h"

#include <cmath>
#include <string>

#include <gtest/gtest.h>

#include "models/catalog/catalog.h"
#include "sim/core/status.h"

namespace ziosim {
namespace {

DiskBenchOptions Options(BenchPattern pattern, int64_t bs, int qd, int jobs, int64_t count, uint64_t seed = 1) {
  DiskBenchOptions o;
  o.pattern = pattern;
  o.block_bytes = bs;
  o.queue_depth = qd;
  o.jobs = jobs;
  o.count = count;
  o.seed = seed;
  return o;
}

void ExpectIdentical(const DiskBenchResult& a, const DiskBenchResult& b) {
  EXPECT_EQ(a.ios, b.ios);
  EXPECT_EQ(a.bytes, b.bytes);
  EXPECT_EQ(a.elapsed_ns, b.elapsed_ns);
  // Bit-identical, not merely close.
  EXPECT_EQ(a.mb_s, b.mb_s);
  EXPECT_EQ(a.iops, b.iops);
  EXPECT_EQ(a.lat_mean_us, b.lat_mean_us);
  EXPECT_EQ(a.lat_p50_us, b.lat_p50_us);
  EXPECT_EQ(a.lat_p99_us, b.lat_p99_us);
  EXPECT_EQ(a.lat_p999_us, b.lat_p999_us);
  EXPECT_EQ(a.busy_pct, b.busy_pct);
}

TEST(DiskBenchTest, SameSeedGivesIdenticalResults) {
  const DriveSpec ssd = ResolveDrive("generic-ssd");
  const DiskBenchOptions o = Options(BenchPattern::kRandom, 4096, 4, 3, 20000, 42);
  ExpectIdentical(RunDiskBench(ssd, o), RunDiskBench(ssd, o));
  const DriveSpec hdd = ResolveDrive("hgst-nas-4tb");
  const DiskBenchOptions h = Options(BenchPattern::kRandom, 8192, 4, 2, 300, 42);
  ExpectIdentical(RunDiskBench(hdd, h), RunDiskBench(hdd, h));
}

TEST(DiskBenchTest, AnotherSeedDrawsOtherOffsets) {
  const DriveSpec hdd = ResolveDrive("hgst-nas-4tb");
  const DiskBenchResult a = RunDiskBench(hdd, Options(BenchPattern::kRandom, 4096, 1, 1, 200, 1));
  const DiskBenchResult b = RunDiskBench(hdd, Options(BenchPattern::kRandom, 4096, 1, 1, 200, 2));
  EXPECT_NE(a.elapsed_ns, b.elapsed_ns);
}

TEST(DiskBenchTest, CountModeRunsExactlyThatManyIos) {
  const DriveSpec ssd = ResolveDrive("generic-ssd");
  const DiskBenchResult r = RunDiskBench(ssd, Options(BenchPattern::kSequential, 131072, 4, 2, 1001));
  EXPECT_EQ(r.ios, 1001);
  EXPECT_EQ(r.bytes, 1001 * 131072);
  EXPECT_NEAR(r.mb_s, static_cast<double>(r.bytes) / NsToSec(r.elapsed_ns) / 1e6, 1e-9 * r.mb_s);
  EXPECT_NEAR(r.busy_pct, 100.0, 1e-9);  // closed loop: never idle
}

TEST(DiskBenchTest, RuntimeModeStopsAtTheRuntime) {
  const DriveSpec ssd = ResolveDrive("generic-ssd");
  DiskBenchOptions o = Options(BenchPattern::kRandom, 4096, 8, 1, 0);
  o.runtime_ns = 50 * kNsPerMs;
  const DiskBenchResult r = RunDiskBench(ssd, o);
  EXPECT_EQ(r.elapsed_ns, o.runtime_ns);
  EXPECT_NEAR(r.iops, static_cast<double>(r.ios) / 0.05, 1e-6);
  EXPECT_GT(r.ios, 1000);
}

TEST(DiskBenchTest, Qd1SsdLatencyIsTheDrivesFixedPath) {
  const DriveSpec ssd = ResolveDrive("generic-ssd");
  const DiskBenchResult r = RunDiskBench(ssd, Options(BenchPattern::kRandom, 4096, 1, 1, 500));
  const SsdParams& p = ssd.ssd;
  const double expected_ns = static_cast<double>(p.controller_overhead_ns + p.read_page_ns + p.interface_command_ns) +
                             std::round(4096e3 / p.channel_mb_s) + std::round(4096e3 / p.interface_mb_s);
  EXPECT_DOUBLE_EQ(r.lat_p50_us, expected_ns / 1e3);
  EXPECT_DOUBLE_EQ(r.lat_p999_us, expected_ns / 1e3);
  EXPECT_NEAR(r.iops, 1e9 / expected_ns, 1e-6 * r.iops);
}

TEST(DiskBenchTest, PercentilesAreOrdered) {
  const DriveSpec hdd = ResolveDrive("wd-re4-1tb");
  const DiskBenchResult r = RunDiskBench(hdd, Options(BenchPattern::kRandom, 4096, 8, 1, 400));
  EXPECT_LE(r.lat_p50_us, r.lat_p99_us);
  EXPECT_LE(r.lat_p99_us, r.lat_p999_us);
  EXPECT_GT(r.lat_mean_us, 0);
  EXPECT_LE(r.lat_mean_us, r.lat_p999_us);
}

TEST(DiskBenchTest, SequentialBeatsRandomOnAnHdd) {
  const DriveSpec hdd = ResolveDrive("generic-7200-hdd");
  const DiskBenchResult seq = RunDiskBench(hdd, Options(BenchPattern::kSequential, 65536, 1, 1, 300));
  const DiskBenchResult rnd = RunDiskBench(hdd, Options(BenchPattern::kRandom, 65536, 1, 1, 300));
  EXPECT_GT(seq.mb_s, 1.3 * rnd.mb_s) << "seq " << seq.mb_s << " rand " << rnd.mb_s;
  // A random read pays a seek and on average half a turn: several ms at 7200 rpm.
  EXPECT_GT(rnd.lat_mean_us, 8000);
  EXPECT_LT(rnd.lat_mean_us, 20000);
}

TEST(DiskBenchTest, RandomIopsOnAnHddGrowWithQueueDepth) {
  // NCQ reordering (SPTF) shortens positioning as the queue deepens.
  const DriveSpec hdd = ResolveDrive("generic-7200-hdd");
  const DiskBenchResult qd1 = RunDiskBench(hdd, Options(BenchPattern::kRandom, 4096, 1, 1, 400));
  const DiskBenchResult qd16 = RunDiskBench(hdd, Options(BenchPattern::kRandom, 4096, 16, 1, 400));
  EXPECT_GT(qd16.iops, 1.5 * qd1.iops);
}

TEST(DiskBenchTest, ClampsOutstandingCommandsToTheDeviceQueue) {
  const DriveSpec ssd = ResolveDrive("generic-ssd");  // NCQ: 32 tags
  const DiskBenchResult r = RunDiskBench(ssd, Options(BenchPattern::kRandom, 4096, 32, 4, 1000));
  EXPECT_EQ(r.jobs, 4);
  EXPECT_EQ(r.queue_depth, 8);
  EXPECT_NE(r.note.find("queue depth 32"), std::string::npos) << r.note;
  const DiskBenchResult many = RunDiskBench(ssd, Options(BenchPattern::kRandom, 4096, 2, 40, 1000));
  EXPECT_EQ(many.jobs, 32);
  EXPECT_EQ(many.queue_depth, 1);
  EXPECT_FALSE(many.note.empty());
  const DiskBenchResult fits = RunDiskBench(ssd, Options(BenchPattern::kRandom, 4096, 8, 4, 1000));
  EXPECT_TRUE(fits.note.empty());
}

TEST(DiskBenchTest, SpanLimitsWhereRandomReadsGo) {
  // On an HDD, a small span means short seeks: much faster than the full stroke.
  const DriveSpec hdd = ResolveDrive("generic-7200-hdd");
  DiskBenchOptions narrow = Options(BenchPattern::kRandom, 4096, 1, 1, 300);
  narrow.span = 0.001;
  const DiskBenchResult n = RunDiskBench(hdd, narrow);
  const DiskBenchResult w = RunDiskBench(hdd, Options(BenchPattern::kRandom, 4096, 1, 1, 300));
  EXPECT_GT(n.iops, 1.2 * w.iops);
}

TEST(DiskBenchTest, RejectsBadOptions) {
  const DriveSpec ssd = ResolveDrive("generic-ssd");
  EXPECT_THROW(RunDiskBench(ssd, Options(BenchPattern::kRandom, 1000, 1, 1, 10)), InputError);  // not 512-aligned
  EXPECT_THROW(RunDiskBench(ssd, Options(BenchPattern::kRandom, 4096, 0, 1, 10)), InputError);
  EXPECT_THROW(RunDiskBench(ssd, Options(BenchPattern::kRandom, 4096, 1, 0, 10)), InputError);
  DiskBenchOptions o = Options(BenchPattern::kRandom, 4096, 1, 1, 10);
  o.span = 0;
  EXPECT_THROW(RunDiskBench(ssd, o), InputError);
  o.span = 1e-12;  // holds no 4 KiB block
  EXPECT_THROW(RunDiskBench(ssd, o), InputError);
  EXPECT_THROW(ParsePattern("sequential"), InputError);
  EXPECT_EQ(ParsePattern("rand"), BenchPattern::kRandom);
}

}  // namespace
}  // namespace ziosim
