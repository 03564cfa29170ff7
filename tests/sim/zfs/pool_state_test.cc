// --pool-state cap=PCT,frag=PCT (sim/zfs/pool_state.h, the metaslab model's
// pool-state mode): grammar, OpenZFS's FRAG computed back from the laid-out
// free space, the empty pool at cap=0, where new files land.
#include "sim/zfs/pool_state.h"

#include <memory>
#include <string>
#include <tuple>
#include <vector>

#include <gtest/gtest.h>

#include "sim/core/bytes.h"
#include "sim/core/simulation.h"
#include "sim/core/status.h"
#include "sim/zfs/allocator.h"
#include "sim/zfs/metaslab_allocator.h"
#include "sim/zfs/pool.h"
#include "sim/zfs/pool_spec.h"

namespace ziosim {
namespace pool_state_test {

// Small rotational disks: 128 MiB metaslabs (highbit(asize / 200) = 27), about 120 per vdev, so
// every metaslab can be laid out and its free segments counted.
constexpr char kSmallMirror[] = "mirror 2xfixed:latency=4ms,bandwidth=150MB/s,capacity=16G,rotational=yes";
constexpr char kSmallRaidz2[] = "raidz2 5xfixed:latency=4ms,bandwidth=150MB/s,capacity=4G,rotational=yes";
constexpr char kTwoSmallMirrors[] =
    "mirror 2xfixed:latency=4ms,bandwidth=150MB/s,capacity=8G,rotational=yes "
    "mirror 2xfixed:latency=4ms,bandwidth=150MB/s,capacity=8G,rotational=yes";

struct TestPool {
  Simulation sim;
  std::unique_ptr<Pool> pool;
};

std::unique_ptr<TestPool> MakePool(const std::string& spec, const std::string& profile = "openzfs-2.1") {
  auto p = std::make_unique<TestPool>();
  p->pool = std::make_unique<Pool>(&p->sim, ParsePoolSpec(spec), ProfileTunables(profile), /*seed=*/1);
  return p;
}

PoolState State(const std::string& text) { return ParsePoolState(text, "--pool-state"); }

std::string ErrorOf(const std::string& text) {
  try {
    ParsePoolState(text, "--pool-state");
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

TEST(PoolStateTest, Grammar) {
  EXPECT_FALSE(State("").set);
  const PoolState a = State("cap=30,frag=10");
  EXPECT_TRUE(a.set);
  EXPECT_EQ(a.cap_pct, 30);
  EXPECT_EQ(a.frag_pct, 10);
  EXPECT_EQ(a.text, "cap=30,frag=10");
  EXPECT_EQ(State("frag=10,cap=30").text, "cap=30,frag=10");
  EXPECT_EQ(State("cap=80%").text, "cap=80,frag=0");
  EXPECT_EQ(State("cap=0").text, "cap=0,frag=0");
  EXPECT_TRUE(State("cap=0").set);
}

TEST(PoolStateTest, BadInputNamesTheOption) {
  for (const std::string bad : {"cap", "cap=x", "cap=96", "cap=-1", "frag=101", "cap=30,cap=40", "size=3",
                                "cap=30,,frag=1", "cap=30,frag=10,", "frag=10", "cap=0,frag=5"}) {
    const std::string e = ErrorOf(bad);
    EXPECT_EQ(e.rfind("--pool-state: '" + bad + "'", 0), 0u) << bad << ": " << e;
    EXPECT_NE(e.find("cap=PCT[,frag=PCT]"), std::string::npos) << e;
    EXPECT_EQ(e.find('\n'), std::string::npos) << e;
  }
  EXPECT_NE(ErrorOf("cap=0,frag=5").find("an empty metaslab's FRAG is 0"), std::string::npos);
  try {
    ParsePoolState("cap=1,frag=x", "pool_state");
    FAIL();
  } catch (const InputError& e) {
    EXPECT_EQ(std::string(e.what()).rfind("pool_state: ", 0), 0u) << e.what();
  }
}

// metaslab_set_fragmentation by hand: 3 segments of 4 KiB (95) and 1 of 1 MiB (20):
// (3 x 4096 x 95 + 1048576 x 20) / (3 x 4096 + 1048576) = 20.87 -> 20.
TEST(PoolStateTest, MetaslabFragmentationIsOpenZfsFormula) {
  SegmentHistogram h{};
  h[12] = 3;
  h[20] = 1;
  EXPECT_EQ(MetaslabFragmentation(h, false), 20);
  EXPECT_EQ(MetaslabFragmentation(h, true), 0);  // never allocated (ms_sm == NULL)
  EXPECT_EQ(MetaslabFragmentation(SegmentHistogram{}, false), 0);  // full
  SegmentHistogram big{};
  big[30] = 2;  // >= 16 MiB: the table's last entry, 0
  EXPECT_EQ(MetaslabFragmentation(big, false), 0);
  SegmentHistogram small{};
  small[9] = 1;  // 512 B: 100
  EXPECT_EQ(MetaslabFragmentation(small, false), 100);
  EXPECT_EQ(GroupFragmentation({0, 0, 50, 51}), 25);  // plain mean, integer division
  EXPECT_EQ(ClassFragmentation({10, 40}, {3 * kGiB, 1 * kGiB}), 17);  // (30 + 40) / 4
}

// FRAG computed back from the free segments themselves (every metaslab laid out, counted,
// through OpenZFS's three functions) equals the ask within 1 point (integer divisions; in
// practice exactly), and CAP within 1 point.
class FragBackTest : public ::testing::TestWithParam<std::tuple<std::string, int, int>> {};

TEST_P(FragBackTest, FragFromSegmentsEqualsAsk) {
  const auto& [spec, cap, frag] = GetParam();
  auto p = MakePool(spec);
  const PoolState state = State("cap=" + std::to_string(cap) + ",frag=" + std::to_string(frag));
  BlockAllocator a(*p->pool, state, 7);
  std::vector<int64_t> groups, space;
  for (int t = 0; t < p->pool->top_count(); ++t) {
    const std::vector<int64_t> from_plan = a.MetaslabFragmentations(t);
    std::vector<int64_t> from_segments;
    for (int64_t m = 0; m < static_cast<int64_t>(from_plan.size()); ++m) {
      const SegmentHistogram h = a.MetaslabHistogram(t, m);
      from_segments.push_back(MetaslabFragmentation(h, false));
      EXPECT_EQ(from_segments.back(), from_plan[static_cast<size_t>(m)]) << "top " << t << " ms " << m;
    }
    groups.push_back(GroupFragmentation(from_segments));
    space.push_back(static_cast<int64_t>(from_plan.size()));  // equal metaslab sizes per vdev here
  }
  const int64_t got = ClassFragmentation(groups, space);
  EXPECT_NEAR(got, frag, 1) << spec;
  EXPECT_EQ(a.FragmentationPercent(), got);
  EXPECT_NEAR(a.CapacityPercent(), cap, 1);
}

INSTANTIATE_TEST_SUITE_P(Asks, FragBackTest,
                         ::testing::Values(std::make_tuple(kSmallMirror, 10, 5), std::make_tuple(kSmallMirror, 30, 10),
                                           std::make_tuple(kSmallMirror, 50, 30), std::make_tuple(kSmallMirror, 80, 50),
                                           std::make_tuple(kSmallMirror, 90, 90), std::make_tuple(kSmallMirror, 60, 0),
                                           std::make_tuple(kSmallRaidz2, 30, 10), std::make_tuple(kSmallRaidz2, 80, 50),
                                           std::make_tuple(kSmallRaidz2, 70, 85),
                                           std::make_tuple(kTwoSmallMirrors, 45, 25)));

TEST(PoolStateTest, OutOfReachIsRefusedNamingTheOption) {
  auto p = MakePool(kSmallRaidz2);
  // RAID-Z2's quantum is 3 sectors (12 KiB): its class (8 KiB) weighs 90; frag 95 is out of reach.
  try {
    BlockAllocator a(*p->pool, State("cap=50,frag=95"), 1, "pool_state");
    FAIL();
  } catch (const InputError& e) {
    EXPECT_EQ(std::string(e.what()).rfind("pool_state: frag=95 at cap=50 is out of reach", 0), 0u) << e.what();
  }
}

FileSpec File(int64_t size) {
  FileSpec f;
  f.size_bytes = size;
  f.recordsize = 128 * kKiB;
  return f;
}

TEST(PoolStateTest, CapZeroIsTheEmptyPool) {
  for (const char* spec : {kSmallMirror, kSmallRaidz2, kTwoSmallMirrors}) {
    auto p = MakePool(spec);
    const std::vector<FileSpec> files = {File(300 * kMiB), File(200 * kMiB + 5)};
    const auto empty = AllocateFiles(*p->pool, files, ParseLayoutPreset("writers:2"), 3);
    PoolFigures before{-1, -1};
    const auto zero = AllocateFiles(*p->pool, files, ParseLayoutPreset("writers:2"), 3, State("cap=0"), &before);
    EXPECT_EQ(before.cap_pct, 0);
    EXPECT_EQ(before.frag_pct, 0);
    ASSERT_EQ(empty.size(), zero.size());
    for (size_t f = 0; f < empty.size(); ++f) {
      for (int level = 0; level < 2; ++level) {
        const auto& x = empty[f].extents(level);
        const auto& y = zero[f].extents(level);
        ASSERT_EQ(x.size(), y.size()) << spec;
        for (size_t i = 0; i < x.size(); ++i) {
          EXPECT_EQ(std::tie(x[i].first, x[i].count, x[i].top, x[i].offset, x[i].stride, x[i].top2, x[i].offset2),
                    std::tie(y[i].first, y[i].count, y[i].top, y[i].offset, y[i].stride, y[i].top2, y[i].offset2));
        }
      }
    }
  }
}

Placement Landed(const std::string& spec, const std::string& state, const std::string& profile = "openzfs-2.1",
                 int64_t size = 256 * kMiB, uint64_t seed = 5) {
  auto p = MakePool(spec, profile);
  const auto layouts = AllocateFiles(*p->pool, {File(size)}, ParseLayoutPreset("sequential"), seed, State(state));
  return PlacementOf(*p->pool, layouts);
}

// Segment weighting (2.1) and space weighting with the LBA bias (ZoL 0.6.5) alike: the fuller the
// pool, the further in the new file starts.
TEST(PoolStateTest, FilesLandHigherAsCapGrows) {
  for (const char* profile : {"openzfs-2.1", "zol-0.6.5"}) {
    for (const char* spec : {kSmallMirror, kSmallRaidz2}) {
      const Placement empty = Landed(spec, "", profile);
      const Placement c30 = Landed(spec, "cap=30,frag=10", profile);
      const Placement c60 = Landed(spec, "cap=60,frag=10", profile);
      EXPECT_LT(empty.median_pct, 1.0) << profile << " " << spec;
      EXPECT_GT(c30.median_pct, empty.median_pct + 20) << profile << " " << spec;
      EXPECT_GT(c60.median_pct, c30.median_pct + 20) << profile << " " << spec;
      // With no fragmentation the new data starts right after the old.
      const Placement c40 = Landed(spec, "cap=40", profile);
      EXPECT_NEAR(c40.first_pct, 40.0, 1.0) << profile << " " << spec;
    }
  }
}

// On a pool whose every metaslab holds old data, a higher FRAG leaves the file in more pieces.
TEST(PoolStateTest, HigherFragSplitsFilesIntoMoreExtents) {
  for (const char* profile : {"openzfs-2.1", "zol-0.6.5"}) {
    for (const char* spec : {kSmallMirror, kSmallRaidz2}) {
      const int64_t low = Landed(spec, "cap=80,frag=20", profile).extents;
      const int64_t mid = Landed(spec, "cap=80,frag=40", profile).extents;
      const int64_t high = Landed(spec, "cap=80,frag=60", profile).extents;
      EXPECT_LT(low, mid) << profile << " " << spec;
      EXPECT_LT(mid, high) << profile << " " << spec;
      EXPECT_GT(high, 500) << profile << " " << spec;  // 2048 blocks in small holes
    }
  }
}

TEST(PoolStateTest, SameSeedSameLayoutOtherSeedAnother) {
  const Placement a = Landed(kSmallMirror, "cap=80,frag=50", "openzfs-2.1", 64 * kMiB, 9);
  const Placement b = Landed(kSmallMirror, "cap=80,frag=50", "openzfs-2.1", 64 * kMiB, 9);
  const Placement c = Landed(kSmallMirror, "cap=80,frag=50", "openzfs-2.1", 64 * kMiB, 10);
  EXPECT_EQ(std::tie(a.extents, a.first_pct, a.median_pct, a.last_pct),
            std::tie(b.extents, b.first_pct, b.median_pct, b.last_pct));
  EXPECT_NE(std::tie(a.extents, a.first_pct, a.median_pct, a.last_pct),
            std::tie(c.extents, c.first_pct, c.median_pct, c.last_pct));
}

TEST(PoolStateTest, RefusedWithTheFragmentedPreset) {
  auto p = MakePool(kSmallMirror);
  try {
    AllocateFiles(*p->pool, {File(kMiB)}, ParseLayoutPreset("fragmented:30"), 1, State("cap=30"));
    FAIL();
  } catch (const InputError& e) {
    const std::string m = e.what();
    EXPECT_NE(m.find("--pool-state cap=30,frag=0 and --layout fragmented:30"), std::string::npos) << m;
  }
}

// A block freed and allocated again: the histogram the weights use follows the segments.
TEST(PoolStateTest, HistogramFollowsAllocAndFree) {
  auto p = MakePool(kSmallMirror);
  BlockAllocator a(*p->pool, State("cap=50,frag=40"), 3);
  std::vector<Dva> blocks;
  for (int i = 0; i < 3000; ++i) blocks.push_back(a.Alloc(128 * kKiB));
  for (size_t i = 0; i < blocks.size(); i += 2) a.Free(blocks[i]);
  for (int t = 0; t < p->pool->top_count(); ++t) {
    const std::vector<int64_t> kept = a.MetaslabFragmentations(t);
    for (int64_t m = 0; m < static_cast<int64_t>(kept.size()); ++m) {
      EXPECT_EQ(MetaslabFragmentation(a.MetaslabHistogram(t, m), false), kept[static_cast<size_t>(m)]) << m;
    }
  }
}

}  // namespace pool_state_test
}  // namespace ziosim

namespace ziosim {
namespace pool_state_test {

// The old data as the scan sees it: the allocated runs tile the used space, in
// offset order, never overlapping, and add up to what the allocator counts as
// allocated (CAP); on dRAID every run starts and ends on a stripe row.
TEST(UsedRunsTest, OldDataRunsAreTheAllocatedSpace) {
  for (const char* spec : {kSmallMirror, "draid2:5d:1s 9xfixed:latency=4ms,bandwidth=150MB/s,capacity=4G"}) {
    auto p = MakePool(spec);
    BlockAllocator a(*p->pool, State("cap=30,frag=40"), 3);
    const std::vector<Dva> runs = a.UsedRuns(0);
    ASSERT_FALSE(runs.empty());
    const int64_t align = p->pool->top(0)->block_alignment_bytes();
    int64_t used = 0, end = -1;
    for (const Dva& r : runs) {
      EXPECT_GT(r.offset, end);
      EXPECT_EQ(r.offset % align, 0);
      EXPECT_EQ(r.asize % align, 0);
      end = r.offset + r.asize;
      used += r.asize;
    }
    const double cap = 100.0 * static_cast<double>(used) / static_cast<double>(a.VdevBytes(0));
    EXPECT_NEAR(cap, a.CapacityPercent(), 2) << spec;
    EXPECT_TRUE(BlockAllocator(*p->pool).UsedRuns(0).empty());  // an empty pool has no old data
  }
}

}  // namespace pool_state_test
}  // namespace ziosim
