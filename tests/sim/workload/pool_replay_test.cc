// Replaying a block trace onto a zvol of a pool (sim/workload/pool_replay.h),
// with small traces made here in DiskSim ascii form ("time_ms devno blkno
// nsectors flags", 512-byte blocks, flags bit 0 = read).
#include "sim/workload/pool_replay.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <sstream>
#include <string>
#include <vector>

#include "sim/core/status.h"
#include "tests/test_util.h"

namespace ziosim {
namespace {

using test::TempFile;

struct Access {
  double time_ms;
  int64_t offset_bytes;
  int64_t size_bytes;
  bool write = false;
};

std::string AsciiTrace(const std::vector<Access>& accesses) {
  std::ostringstream out;
  for (const Access& a : accesses) {
    out << a.time_ms << " 0 " << a.offset_bytes / 512 << ' ' << a.size_bytes / 512 << ' ' << (a.write ? 0 : 1)
        << '\n';
  }
  return out.str();
}

// 4K reads at scattered 64 KiB-aligned offsets within the first 4 MiB (one L1
// indirect block at 8K and 16K blocks alike), 100 ms apart: no two touch the
// same block and no stream forms for the prefetcher.
std::vector<Access> ScatteredReads(int n, double first_ms = 0) {
  std::vector<Access> out;
  for (int i = 0; i < n; ++i) {
    const int64_t slot = (i * 37) % 64;  // 37 is coprime to 64: every slot once
    out.push_back({first_ms + 100.0 * i, slot * (64 << 10), 4096});
  }
  return out;
}

struct PoolRun {
  PoolReplayResult result;
  std::vector<ReplayRequestResult> requests;
};

PoolRun ReplayOnPool(const std::string& trace_text, const PoolReplayOptions& pool, const ReplayOptions& options = {}) {
  TempFile trace("trace.txt", trace_text);
  PoolRun run;
  run.result = ReplayTraceOnPool(trace.path(), TraceFormat::kDisksimAscii, {}, pool, options,
                                 [&run](const ReplayRequestResult& r) {
                                   run.requests.push_back(r);
                                   run.requests.back().record = nullptr;  // not valid after the callback
                                 });
  return run;
}

PoolReplayOptions Mirror() {
  PoolReplayOptions o;
  o.pool = "mirror 2xwd-re4-1tb";
  o.volblocksize = 16 << 10;
  return o;
}

std::string ErrorOf(const std::string& trace_text, const PoolReplayOptions& pool, const ReplayOptions& options = {}) {
  try {
    ReplayOnPool(trace_text, pool, options);
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

TEST(PoolReplayTest, ReReadsHitTheArcAndReadNoDiskBytes) {
  const std::vector<Access> once = ScatteredReads(20);
  std::vector<Access> twice = once;
  for (const Access& a : ScatteredReads(20, /*first_ms=*/5000)) twice.push_back(a);
  const PoolRun first = ReplayOnPool(AsciiTrace(once), Mirror());
  const PoolRun both = ReplayOnPool(AsciiTrace(twice), Mirror());
  ASSERT_GT(first.result.disk_bytes_read, 0);
  EXPECT_EQ(both.result.disk_bytes_read, first.result.disk_bytes_read);  // the second pass read nothing
  EXPECT_EQ(both.result.dmu.demand_misses, first.result.dmu.demand_misses);
  EXPECT_NEAR(both.result.arc_hit_pct, 50.0, 1e-9);  // 20 misses, then 20 hits
  EXPECT_EQ(both.result.replay.requests, 40);
  // A hit costs CPU only: far below any disk access.
  for (size_t i = 20; i < both.requests.size(); ++i) {
    EXPECT_LT(both.requests[i].done_ns - both.requests[i].arrival_ns, 200'000) << i;
  }
  // Both mirror halves served reads.
  ASSERT_EQ(both.result.disks.size(), 2u);
  EXPECT_GT(both.result.disks[0].reads + both.result.disks[1].reads, 0u);
}

TEST(PoolReplayTest, FourKReadsOfLargerBlocksReadWholeBlocks) {
  const std::string trace = AsciiTrace(ScatteredReads(32));
  ReplayOptions closed;
  ParseReplayMode("closed:1", closed);  // one at a time: nothing to aggregate
  PoolReplayOptions o = Mirror();
  o.volblocksize = 8 << 10;
  const PoolRun small = ReplayOnPool(trace, o, closed);
  o.volblocksize = 16 << 10;
  const PoolRun large = ReplayOnPool(trace, o, closed);
  EXPECT_EQ(small.result.dmu.demand_misses, 32u);
  EXPECT_EQ(large.result.dmu.demand_misses, 32u);
  EXPECT_EQ(small.result.dmu.indirect_reads, large.result.dmu.indirect_reads);
  // The same 32 reads of 4K cost 8K more each from disk with 16K blocks.
  EXPECT_EQ(large.result.disk_bytes_read - small.result.disk_bytes_read, 32 * (8 << 10));
  EXPECT_GE(large.result.disk_bytes_read, 32 * (16 << 10));
  EXPECT_EQ(large.result.replay.bytes, 32 * 4096);
}

TEST(PoolReplayTest, VolblocksizeDefaultsToTheEras) {
  EXPECT_EQ(DefaultVolblocksize("openzfs-2.2"), 16 << 10);
  EXPECT_EQ(DefaultVolblocksize("openzfs-2.1"), 8 << 10);
  EXPECT_EQ(DefaultVolblocksize("zol-0.8"), 8 << 10);
  EXPECT_EQ(DefaultVolblocksize("freebsd-12"), 8 << 10);
  PoolReplayOptions o = Mirror();
  o.volblocksize = 0;
  o.profile = "zol-0.8";
  const PoolRun run = ReplayOnPool(AsciiTrace(ScatteredReads(2)), o);
  EXPECT_EQ(run.result.volblocksize, 8 << 10);
  // The zvol ends at the last request's end, rounded up to a whole block.
  EXPECT_EQ(run.result.volsize, 37 * (64 << 10) + (8 << 10));
}

TEST(PoolReplayTest, SameInputsGiveIdenticalResults) {
  std::vector<Access> accesses = ScatteredReads(30);
  for (int i = 0; i < 30; ++i) accesses.push_back({3000.0 + i * 0.5, (8 << 20) + i * 65536, 65536});  // a stream
  const std::string trace = AsciiTrace(accesses);
  PoolReplayOptions o = Mirror();
  o.layout = "fragmented:50";
  const PoolRun a = ReplayOnPool(trace, o), b = ReplayOnPool(trace, o);
  ASSERT_EQ(a.requests.size(), b.requests.size());
  for (size_t i = 0; i < a.requests.size(); ++i) {
    EXPECT_EQ(a.requests[i].index, b.requests[i].index);
    EXPECT_EQ(a.requests[i].done_ns, b.requests[i].done_ns);
  }
  EXPECT_EQ(a.result.disk_bytes_read, b.result.disk_bytes_read);
  EXPECT_EQ(a.result.replay.all.simulated.mean_ms, b.result.replay.all.simulated.mean_ms);
  EXPECT_GT(a.result.dmu.prefetch_reads, 0u);  // the stream was prefetched
}

TEST(PoolReplayTest, OpenArrivesAtTheRecordedTimesClosedAtCompletions) {
  const std::string trace = AsciiTrace(ScatteredReads(10));
  const PoolRun open = ReplayOnPool(trace, Mirror());
  ASSERT_EQ(open.requests.size(), 10u);
  for (const ReplayRequestResult& r : open.requests) {
    EXPECT_EQ(r.arrival_ns, r.index * 100'000'000) << r.index;
    EXPECT_EQ(r.issued_ns, r.arrival_ns);  // a zvol takes every request at once
  }
  ReplayOptions closed;
  ParseReplayMode("closed:1", closed);
  const PoolRun one = ReplayOnPool(trace, Mirror(), closed);
  ASSERT_EQ(one.requests.size(), 10u);
  EXPECT_EQ(one.requests[0].arrival_ns, 0);
  for (size_t i = 1; i < one.requests.size(); ++i) {
    EXPECT_EQ(one.requests[i].arrival_ns, one.requests[i - 1].done_ns) << i;
  }
  EXPECT_LT(one.result.replay.end_ns, open.result.replay.end_ns);
}

TEST(PoolReplayTest, WritesAreReplayedAndReportedApartUnlessReadsOnly) {
  std::vector<Access> accesses = ScatteredReads(4);
  accesses.insert(accesses.begin() + 2, Access{150, 0, 8192, /*write=*/true});
  const std::string trace = AsciiTrace(accesses);
  const PoolRun mixed = ReplayOnPool(trace, Mirror());
  EXPECT_EQ(mixed.result.replay.requests, 5);
  EXPECT_EQ(mixed.result.replay.reads, 4);
  EXPECT_EQ(mixed.result.replay.writes, 1);
  EXPECT_EQ(mixed.result.replay.read.requests, 4);
  EXPECT_EQ(mixed.result.replay.write.requests, 1);
  EXPECT_EQ(mixed.result.dmu_write.calls, 1u);
  EXPECT_EQ(mixed.result.dmu_write.app_bytes, 8192);
  // 8K of a 16K block on disk: the rest is read first (read-modify-write).
  EXPECT_EQ(mixed.result.dmu_write.rmw_reads, 1u);
  ReplayOptions reads_only;
  reads_only.reads_only = true;
  const PoolRun run = ReplayOnPool(trace, Mirror(), reads_only);
  EXPECT_EQ(run.result.replay.requests, 4);
  EXPECT_EQ(run.result.replay.writes, 0);
  EXPECT_EQ(run.result.replay.skipped_writes, 1);
  EXPECT_EQ(run.result.dmu_write.calls, 0u);
}

// An async write returns once its blocks are dirty; a read of them right
// after finds them in memory and reads no disk, where a cold read must.
TEST(PoolReplayTest, ReadsOfJustWrittenBlocksAreServedFromMemory) {
  const int64_t at = 1 << 20;
  const std::vector<Access> written = {{0, at, 64 << 10, /*write=*/true}, {10, at, 64 << 10}};
  const std::vector<Access> cold = {{10, at, 64 << 10}};
  const PoolRun hot = ReplayOnPool(AsciiTrace(written), Mirror());
  const PoolRun miss = ReplayOnPool(AsciiTrace(cold), Mirror());
  ASSERT_EQ(hot.requests.size(), 2u);
  EXPECT_EQ(hot.result.dmu.dirty_hits, 4u);  // four 16K blocks
  EXPECT_EQ(hot.result.dmu.demand_misses, 0u);
  EXPECT_GT(miss.result.dmu.demand_misses, 0u);
  const SimTime hot_read_ns = hot.requests[1].done_ns - hot.requests[1].arrival_ns;
  const SimTime cold_read_ns = miss.requests[0].done_ns - miss.requests[0].arrival_ns;
  EXPECT_LT(hot_read_ns * 10, cold_read_ns);
  // The write cost no disk I/O before it returned either: whole blocks, no read-modify-write.
  EXPECT_EQ(hot.result.dmu_write.rmw_reads, 0u);
  EXPECT_LT(hot.requests[0].done_ns - hot.requests[0].arrival_ns, cold_read_ns / 10);
}

TEST(PoolReplayTest, BadOptionsAndRequestsPastTheVolumeAreInputErrors) {
  const std::string trace = AsciiTrace(ScatteredReads(3));
  PoolReplayOptions o = Mirror();
  o.volblocksize = 12 << 10;
  EXPECT_EQ(ErrorOf(trace, o), "--volblocksize: must be a power of two from 512 to 16M (got 12288)");
  o = Mirror();
  o.pool = "mirror 2xno-such-drive";
  EXPECT_NE(ErrorOf(trace, o), "");
  o = Mirror();
  o.volsize = 1 << 20;  // the third read is at 2 x 37 % 64 = 10 x 64K = 640K: inside; the second at 37 x 64K: past
  const std::string past = ErrorOf(trace, o);
  EXPECT_NE(past.find("trace.txt:2: field offset: 4096 bytes at offset 2424832 run past the end of zvol (1048576 "
                      "bytes); pass --wrap to wrap offsets modulo the target's capacity"),
            std::string::npos)
      << past;
  ReplayOptions wrap;
  wrap.wrap = true;
  EXPECT_EQ(ReplayOnPool(trace, o, wrap).result.replay.wrapped, 1);
}

}  // namespace
}  // namespace ziosim

namespace ziosim {
namespace {

// An strace of one thread reading two files of 1 MiB and 256 KiB through in 128 KiB calls, 1 ms apart.
std::string TwoFileStrace() {
  std::ostringstream out;
  int64_t us = 0;
  const auto call = [&](const std::string& text, int64_t duration_us) {
    out << "7 10:00:" << (us / 1000000 < 10 ? "0" : "") << us / 1000000 << '.';
    const std::string frac = std::to_string(us % 1000000);
    out << std::string(6 - frac.size(), '0') << frac << ' ' << text << " <0.000" << duration_us << ">\n";
    us += 1000;
  };
  call("openat(AT_FDCWD</d>, \"a\", O_RDONLY) = 3</d/a>", 10);
  for (int i = 0; i < 8; ++i) call("read(3</d/a>, \"\"..., 131072) = 131072", 100);
  call("read(3</d/a>, \"\", 131072) = 0", 10);
  call("openat(AT_FDCWD</d>, \"b\", O_RDONLY) = 4</d/b>", 10);
  for (int i = 0; i < 2; ++i) call("read(4</d/b>, \"\"..., 131072) = 131072", 100);
  return out.str();
}

PoolRun ReplayFiles(const PoolReplayOptions& pool, const ReplayOptions& options = {}) {
  TempFile trace("trace.strace", TwoFileStrace());
  PoolRun run;
  run.result = ReplayTraceOnPool(trace.path(), TraceFormat::kAuto, {}, pool, options,
                                 [&run](const ReplayRequestResult& r) {
                                   run.requests.push_back(r);
                                   run.requests.back().record = nullptr;
                                 });
  return run;
}

TEST(PoolReplayFilesTest, AFileLevelTraceReadsFilesOfTheDataset) {
  PoolReplayOptions o = Mirror();
  o.recordsize = 128 << 10;
  const PoolRun run = ReplayFiles(o);
  EXPECT_TRUE(run.result.file_level);
  EXPECT_EQ(run.result.files, (std::vector<std::string>{"/d/a", "/d/b"}));
  EXPECT_EQ(run.result.file_bytes, (std::vector<int64_t>{1 << 20, 256 << 10}));
  EXPECT_EQ(run.result.volblocksize, 128 << 10);
  EXPECT_EQ(run.result.replay.requests, 10);
  EXPECT_EQ(run.result.replay.bytes, 10 * (128 << 10));
  EXPECT_EQ(run.result.replay.realigned, 0);
  // Every record was read from disk once (prefetch reads no further than the files), plus the indirect blocks.
  EXPECT_GE(run.result.disk_bytes_read, (1 << 20) + (256 << 10));
  EXPECT_LE(run.result.disk_bytes_read, (1 << 20) + (256 << 10) + 2 * (128 << 10));
  EXPECT_EQ(run.result.dmu.demand_blocks, 10u);
}

TEST(PoolReplayFilesTest, InstancesReadTheirOwnCopiesOrOneSharedCopy) {
  PoolReplayOptions o = Mirror();
  ReplayOptions validate;
  ParseReplayMode("validate", validate);
  const PoolRun one = ReplayFiles(o, validate);
  o.instances = 3;
  const PoolRun own = ReplayFiles(o, validate);
  o.same_data = true;
  const PoolRun shared = ReplayFiles(o, validate);
  ASSERT_EQ(own.result.instances.size(), 3u);
  EXPECT_EQ(own.result.replay.requests, 30);
  EXPECT_EQ(own.result.replay.bytes, 3 * one.result.replay.bytes);
  // Own copies: three times the disk reads; one copy: read once, the rest hit or wait on the same blocks.
  EXPECT_EQ(own.result.disk_bytes_read, 3 * one.result.disk_bytes_read);
  EXPECT_EQ(shared.result.disk_bytes_read, one.result.disk_bytes_read);
  // Three readers of their own copies share the disks: each is slower than one alone.
  for (const ReplayResult& r : own.result.instances) EXPECT_LT(r.mb_s, one.result.replay.mb_s);
  EXPECT_EQ(std::count_if(own.requests.begin(), own.requests.end(),
                          [](const ReplayRequestResult& r) { return r.instance == 2; }),
            10);
}

TEST(PoolReplayFilesTest, StaggerStartsEachInstanceLater) {
  PoolReplayOptions o = Mirror();
  o.instances = 2;
  o.stagger_ns = 5 * kNsPerSec;
  const PoolRun run = ReplayFiles(o);
  ASSERT_EQ(run.result.instances.size(), 2u);
  EXPECT_EQ(run.result.instances[1].start_ns, 5 * kNsPerSec);
  // Instance 1's first read arrives 5 s in, when instance 0 is long done.
  EXPECT_LT(run.result.instances[0].end_ns, 5 * kNsPerSec);
  SimTime first = INT64_MAX;
  for (const ReplayRequestResult& r : run.requests) {
    if (r.instance == 1) first = std::min(first, r.arrival_ns);
  }
  EXPECT_EQ(first, 5 * kNsPerSec);
  EXPECT_EQ(run.result.replay.end_ns, run.result.instances[1].end_ns);
}

TEST(PoolReplayFilesTest, BadInstanceOptions) {
  PoolReplayOptions o = Mirror();
  o.instances = 0;
  try {
    ReplayFiles(o);
    ADD_FAILURE();
  } catch (const InputError& e) {
    EXPECT_STREQ(e.what(), "--readers: each count must be from 1 to 64 (got 0)");
  }
  o.instances = 1;
  o.volsize = 1 << 20;
  try {
    ReplayFiles(o);
    ADD_FAILURE();
  } catch (const InputError& e) {
    EXPECT_STREQ(e.what(), "--volsize: applies to a block trace (a file-level trace replays on files)");
  }
}

}  // namespace
}  // namespace ziosim
