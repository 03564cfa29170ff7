// Block reads through the vdev tree: the worked examples of the read-path
// reference (section 1.4 mirrors, 3.5/3.6 RAID-Z), degraded vdevs, and
// determinism. These run the whole stack: pool spec, mirror policy, RAID-Z
// map, per-leaf queue, device models.
#include "sim/workload/block_read.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>

#include "sim/core/status.h"

namespace ziosim {
namespace {

BlockReadOptions Seq(const std::string& pool, const std::string& profile, int depth, int64_t count,
                     int64_t block = 128 << 10) {
  BlockReadOptions o;
  o.pool = pool;
  o.profile = profile;
  o.depth = depth;
  o.count = count;
  o.block_bytes = block;
  return o;
}

uint64_t Zios(const BlockReadResult& r, size_t disk) { return r.disks[disk].zios; }

// 1.4, FreeBSD 10-12 / ZoL 0.7 (selection-time last offset): the next block
// starts exactly where the last one given to A ended, so A costs active(A) + 0
// against B's 0 + 5; with at most 4 reads in flight every block goes to A.
TEST(BlockReadTest, LoadLocalitySelectionTimeKeepsASingleStreamOnOneDisk) {
  const BlockReadResult r = RunBlockRead(Seq("mirror 2xwd-re4-1tb", "freebsd-10", 4, 400));
  EXPECT_EQ(Zios(r, 0) + Zios(r, 1), 400u);
  EXPECT_EQ(std::min(Zios(r, 0), Zios(r, 1)), 0u);
}

// The same stream with more reads in flight than the +5 penalty: the other child
// wins whenever A is 5 I/Os ahead, so both disks work.
TEST(BlockReadTest, LoadLocalitySwitchesWhenTheLoadGapReachesTheSeekPenalty) {
  const BlockReadResult r = RunBlockRead(Seq("mirror 2xwd-re4-1tb", "freebsd-10", 16, 800));
  EXPECT_GT(Zios(r, 0), 0u);
  EXPECT_GT(Zios(r, 1), 0u);
}

// 1.4 with prefetch reads (async: at most 3 in a leaf's device at once): under
// the issue-time last offset (OpenZFS 2.x) queued prefetches do not move
// last(A), so part of the burst goes to B; the selection-time variant keeps
// every block on A.
TEST(BlockReadTest, LoadLocalityIssueTimeSplitsAPrefetchBurst) {
  BlockReadOptions o = Seq("mirror 2xwd-re4-1tb", "openzfs-2.2", 8, 400);
  o.priority = ZioPriority::kAsyncRead;
  const BlockReadResult issue = RunBlockRead(o);
  EXPECT_GT(std::min(Zios(issue, 0), Zios(issue, 1)), 50u);
  o.settings = {{"mirror_last_offset", "selection"}};
  const BlockReadResult selection = RunBlockRead(o);
  EXPECT_EQ(std::min(Zios(selection, 0), Zios(selection, 1)), 0u);
}

// 1.2: the rotor reads 2 MiB stripe k from child k mod n: a sequential pass over
// 8 MiB gives each child of a 2-way mirror exactly half of the blocks.
TEST(BlockReadTest, RotorStripesTwoMiBRegions) {
  const BlockReadResult r = RunBlockRead(Seq("mirror 2xwd-re4-1tb", "freebsd-9", 1, 64));  // 64 x 128K = 8 MiB
  EXPECT_EQ(Zios(r, 0), 32u);
  EXPECT_EQ(Zios(r, 1), 32u);
}

TEST(BlockReadTest, RotorOnFourWayMirrorUsesEveryChild) {
  const BlockReadResult r = RunBlockRead(Seq("mirror 4xwd-re4-1tb", "freebsd-9", 1, 128));  // 16 MiB
  for (size_t d = 0; d < 4; ++d) EXPECT_EQ(Zios(r, d), 32u) << d;
}

// 3.5/3.6: a 6-wide RAID-Z2 with 128K records keeps parity on the same two
// disks; the four data disks each read one 32 KiB column per block.
TEST(BlockReadTest, SixWideRaidz2PinsParityAndReadsDataColumnsOnly) {
  const BlockReadResult r = RunBlockRead(Seq("raidz2 6xhgst-nas-4tb", "openzfs-2.2", 1, 100));
  int idle = 0;
  for (const DiskReport& d : r.disks) {
    if (d.zios == 0) {
      ++idle;
    } else {
      EXPECT_EQ(d.zios, 100u);
      EXPECT_EQ(d.read_bytes - d.gap_bytes, 100 * (32 << 10));
    }
  }
  EXPECT_EQ(idle, 2);
}

// 3.6: on a 5-wide RAID-Z2, parity drifts: every disk serves both data and parity columns.
TEST(BlockReadTest, FiveWideRaidz2SpreadsParity) {
  const BlockReadResult r = RunBlockRead(Seq("raidz2 5xhgst-nas-4tb", "openzfs-2.2", 1, 100));
  for (const DiskReport& d : r.disks) {
    EXPECT_GT(d.zios, 0u) << d.name;
    EXPECT_LT(d.zios, 100u) << d.name;
  }
}

TEST(BlockReadTest, DegradedMirrorStillReturnsEveryBlock) {
  BlockReadOptions o = Seq("mirror 2xwd-re4-1tb", "openzfs-2.2", 8, 300);
  o.faulted = {"d0"};
  const BlockReadResult r = RunBlockRead(o);
  EXPECT_EQ(r.blocks, 300);
  EXPECT_EQ(Zios(r, 0), 0u);
  EXPECT_EQ(Zios(r, 1), 300u);
}

// A RAID-Z2 missing a data disk reads the other columns, parity included, to reconstruct.
TEST(BlockReadTest, DegradedRaidzReadsParityToReconstruct) {
  BlockReadOptions o = Seq("raidz2 6xhgst-nas-4tb", "openzfs-2.2", 4, 100);
  o.faulted = {"d3"};  // a data disk of the pinned layout
  const BlockReadResult r = RunBlockRead(o);
  EXPECT_EQ(r.blocks, 100);
  EXPECT_EQ(r.disks[3].zios, 0u);
  EXPECT_EQ(r.disks[0].zios, 100u);  // parity P
  EXPECT_EQ(r.disks[1].zios, 100u);  // parity Q
}

TEST(BlockReadTest, TooManyFaultsIsAnInputError) {
  BlockReadOptions o = Seq("mirror 2xwd-re4-1tb", "openzfs-2.2", 1, 10);
  o.faulted = {"d0", "d1"};
  EXPECT_THROW(RunBlockRead(o), InputError);
  o.faulted = {"d7"};
  EXPECT_THROW(RunBlockRead(o), InputError);
}

// 2.3: OpenZFS 2.x aggregates adjacent queued reads up to 1 MiB; the 2013
// class scheduler (FreeBSD 10.0) never aggregated sync reads.
TEST(BlockReadTest, AggregationFollowsTheEra) {
  const BlockReadResult modern = RunBlockRead(Seq("mirror 2xwd-re4-1tb", "openzfs-2.2", 32, 2000));
  const BlockReadResult fbsd10 = RunBlockRead(Seq("mirror 2xwd-re4-1tb", "freebsd-10", 32, 2000));
  EXPECT_GT(modern.disks[0].aggregated + modern.disks[1].aggregated, 0u);
  EXPECT_EQ(fbsd10.disks[0].aggregated + fbsd10.disks[1].aggregated, 0u);
}

// FreeBSD <= 12 splits device commands above MAXPHYS (128 KiB).
TEST(BlockReadTest, FreeBsdSplitsLargeIos) {
  const BlockReadResult r = RunBlockRead(Seq("mirror 2xwd-re4-1tb", "freebsd-10", 1, 20, 1 << 20));
  EXPECT_EQ(r.disks[0].split + r.disks[1].split, 20u);
  EXPECT_EQ(r.disks[0].reads + r.disks[1].reads, 160u);
}

TEST(BlockReadTest, SameSeedSameResult) {
  BlockReadOptions o = Seq("mirror 2xwd-re4-1tb mirror 2xwd-re4-1tb", "openzfs-2.2", 8, 500);
  o.pattern = BenchPattern::kRandom;
  const BlockReadResult a = RunBlockRead(o), b = RunBlockRead(o);
  EXPECT_EQ(a.elapsed_ns, b.elapsed_ns);
  EXPECT_EQ(DisksToJson(a.disks).dump(), DisksToJson(b.disks).dump());
  o.seed = 2;
  EXPECT_NE(RunBlockRead(o).elapsed_ns, a.elapsed_ns);
}

// Two top-level mirrors: the rotor of the allocator puts 1 MiB (512 KiB x 2
// children) on each before moving on, so a sequential pass uses both equally.
TEST(BlockReadTest, StripesOverTopLevelVdevs) {
  const BlockReadResult r = RunBlockRead(Seq("mirror 2xwd-re4-1tb mirror 2xwd-re4-1tb", "openzfs-2.2", 4, 160));
  EXPECT_EQ(Zios(r, 0) + Zios(r, 1), 80u);
  EXPECT_EQ(Zios(r, 2) + Zios(r, 3), 80u);
}

TEST(BlockReadTest, IoLogHasOneLinePerLeafZio) {
  BlockReadOptions o = Seq("mirror 2xwd-re4-1tb", "freebsd-9", 2, 50);
  o.io_log_path = ::testing::TempDir() + "/block_read_io_log_" + std::to_string(::getpid()) + ".csv";
  RunBlockRead(o);
  std::ifstream f(o.io_log_path);
  std::string line;
  int lines = 0;
  std::getline(f, line);
  EXPECT_NE(line.find("mirror_child"), std::string::npos);
  while (std::getline(f, line)) {
    ++lines;
    EXPECT_NE(line.find(",policy"), std::string::npos) << line;
  }
  EXPECT_EQ(lines, 50);
  std::remove(o.io_log_path.c_str());
}

}  // namespace
}  // namespace ziosim
