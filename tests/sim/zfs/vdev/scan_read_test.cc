// A scan's read of one block through each vdev kind: a scrub reads every
// mirror child, every RAID-Z column with its parity, every dRAID column with
// its parity and padding (to verify them all); a resilver reads as a normal
// read does, but for RAID-Z's and dRAID's parity.
#include <gtest/gtest.h>

#include <set>
#include <string>
#include <tuple>

#include "sim/core/bytes.h"
#include "sim/core/simulation.h"
#include "sim/zfs/pool.h"
#include "sim/zfs/pool_spec.h"
#include "sim/zfs/vdev/draid_vdev.h"
#include "sim/zfs/vdev/leaf_vdev.h"
#include "sim/zfs/vdev/raidz_map.h"

namespace ziosim {
namespace {

struct Recorder : LeafIoObserver, ZioDoneListener {
  std::multiset<std::tuple<int, int64_t, int64_t>> ios;  // leaf, vdev-space offset, size
  int done = 0;
  void OnLeafIoDone(const LeafVdev& leaf, const Zio& zio, const Zio&, SimTime) override {
    ios.insert({std::stoi(leaf.name().substr(1)), zio.offset - kVdevLabelStartBytes, zio.size});
  }
  void OnZioDone(Zio*) override { ++done; }
};

// The leaf I/Os of one read of `size` bytes at `offset` of top-level vdev 0.
std::multiset<std::tuple<int, int64_t, int64_t>> LeafReads(const std::string& spec, int64_t offset, int64_t size,
                                                          ZioScan scan) {
  Simulation sim;
  Recorder rec;
  Pool pool(&sim, ParsePoolSpec(spec, 12), Tunables(), /*seed=*/1);
  pool.set_observer(&rec);
  if (scan == ZioScan::kNone) {
    pool.Read(0, offset, size, ZioPriority::kSyncRead, &rec, 0);
  } else {
    pool.ScanRead(0, offset, size, scan, &rec, 0);
  }
  sim.Run();
  EXPECT_EQ(rec.done, 1);
  return rec.ios;
}

TEST(ScanRead, AScrubReadsEveryMirrorChildAResilverOne) {
  const auto scrub = LeafReads("mirror 3xgeneric-ssd", 1 << 20, 128 * kKiB, ZioScan::kScrub);
  EXPECT_EQ(scrub, (std::multiset<std::tuple<int, int64_t, int64_t>>{
                       {0, 1 << 20, 128 * kKiB}, {1, 1 << 20, 128 * kKiB}, {2, 1 << 20, 128 * kKiB}}));
  EXPECT_EQ(LeafReads("mirror 3xgeneric-ssd", 1 << 20, 128 * kKiB, ZioScan::kResilver).size(), 1u);
  EXPECT_EQ(LeafReads("mirror 3xgeneric-ssd", 1 << 20, 128 * kKiB, ZioScan::kNone).size(), 1u);
}

TEST(ScanRead, AScanReadsRaidzParityAsWell) {
  const RaidzMap m = MapRaidzBlock(5, 2, 12, 0, 128 * kKiB);
  std::multiset<std::tuple<int, int64_t, int64_t>> all, data;
  for (int c = 0; c < m.columns; ++c) {
    all.insert({m.column[c].child, m.column[c].offset, m.column[c].size});
    if (c >= m.parity) data.insert({m.column[c].child, m.column[c].offset, m.column[c].size});
  }
  EXPECT_EQ(LeafReads("raidz2 5xgeneric-ssd", 0, 128 * kKiB, ZioScan::kScrub), all);
  EXPECT_EQ(LeafReads("raidz2 5xgeneric-ssd", 0, 128 * kKiB, ZioScan::kResilver), all);
  EXPECT_EQ(LeafReads("raidz2 5xgeneric-ssd", 0, 128 * kKiB, ZioScan::kNone), data);
}

TEST(ScanRead, AScanReadsTheWholeDraidStripe) {
  // draid2:4d:7c:1s, 12 KiB: 3 data sectors; the stripe is 6 columns of one sector, one of them padding.
  const auto scrub = LeafReads("draid2:4d:1s 7xgeneric-ssd", 0, 12 * kKiB, ZioScan::kScrub);
  EXPECT_EQ(scrub.size(), 6u);
  for (const auto& [leaf, offset, size] : scrub) EXPECT_EQ(size, 4 * kKiB);
  EXPECT_EQ(LeafReads("draid2:4d:1s 7xgeneric-ssd", 0, 12 * kKiB, ZioScan::kNone).size(), 3u);
}

}  // namespace
}  // namespace ziosim
