// HddExtentMap on hand-made extents: look-ups, runs across a slipped sector, the
// first LBN of a track's stretch, sectors per track of unmapped cylinders, angles
// as DiskSim's 32-bit fractions, and the checks on the list.
#include "models/device/hdd_extent_map.h"

#include <gtest/gtest.h>

#include <memory>

#include "sim/core/status.h"

namespace ziosim {
namespace {

constexpr uint32_t kQuarter = uint32_t{1} << 30;

HddExtent Extent(int64_t lbn, int64_t blocks, int cylinder, int head, int sector, int spt, uint32_t angle) {
  return {lbn, blocks, cylinder, head, sector, spt, angle, static_cast<uint32_t>((int64_t{1} << 32) / spt)};
}

// 2 surfaces, 4 cylinders of 8 sectors per track. Track (0, 0): LBNs 0-3 on sectors
// 0-3, sector 4 slipped, LBNs 4-6 on 5-7. Track (0, 1): LBNs 7-14 from a quarter turn
// on. LBN 15 on cylinder 2 (cylinder 1 has no LBN), a remap whose angle is 0.
HddLayout Layout() {
  HddLayout layout;
  layout.surfaces = 2;
  layout.cylinders = 4;
  layout.extents = {Extent(0, 4, 0, 0, 0, 8, 0), Extent(4, 3, 0, 0, 5, 8, 5 * (uint32_t{1} << 29)),
                    Extent(7, 8, 0, 1, 0, 8, kQuarter), Extent(15, 1, 2, 0, 7, 8, 0)};
  layout.extents[3].sector_angle = 0;
  return layout;
}

TEST(HddExtentMapTest, MapsAndRunsOverSlips) {
  const HddExtentMap m(Layout());
  EXPECT_EQ(m.total_blocks(), 16);
  EXPECT_EQ(m.Map(3), (PhysicalAddress{0, 0, 3}));
  EXPECT_EQ(m.Map(4), (PhysicalAddress{0, 0, 5}));
  EXPECT_EQ(m.Map(15), (PhysicalAddress{2, 0, 7}));
  // The run from LBN 2 passes the slipped sector: 5 LBNs over 6 sectors.
  const TrackRun run = m.RunOnTrack(2, 100);
  EXPECT_EQ(run.start, (PhysicalAddress{0, 0, 2}));
  EXPECT_EQ(run.blocks, 5);
  EXPECT_EQ(run.physical_span, 6);
  EXPECT_EQ(run.sectors_per_track, 8);
  EXPECT_EQ(m.RunOnTrack(2, 3).physical_span, 4);  // stops after LBN 4, sector 5
  EXPECT_EQ(m.RunOnTrack(2, 2).physical_span, 2);
  EXPECT_EQ(m.RunOnTrack(7, 100).blocks, 8);
  EXPECT_EQ(m.RunOnTrack(16, 5).blocks, 0);
  EXPECT_EQ(m.FirstLbnOnTrack(6), 0);
  EXPECT_EQ(m.FirstLbnOnTrack(14), 7);
}

// Layout() with track (0, 1) in two extents back to back (LBNs 7-10 on sectors
// 0-3, 11-14 on 4-7): a run, and a remembered one, goes on from one to the next.
HddLayout ChainedLayout() {
  HddLayout layout = Layout();
  layout.extents[2] = Extent(7, 4, 0, 1, 0, 8, kQuarter);
  layout.extents.insert(layout.extents.begin() + 3, Extent(11, 4, 0, 1, 4, 8, kQuarter + 4 * (uint32_t{1} << 29)));
  return layout;
}

TEST(HddExtentMapTest, RunsGoOnAcrossExtentsBackToBack) {
  const HddExtentMap m(ChainedLayout());
  const TrackRun run = m.RunOnTrack(8, 100);
  EXPECT_EQ(run.start, (PhysicalAddress{0, 1, 1}));
  EXPECT_EQ(run.blocks, 7);
  EXPECT_EQ(run.physical_span, 7);
  EXPECT_EQ(m.Map(12), (PhysicalAddress{0, 1, 5}));  // asked after the run: from the memo
  EXPECT_EQ(m.RunOnTrack(9, 3).physical_span, 3);
  EXPECT_EQ(m.FirstLbnOnTrack(13), 7);
}

// Look-ups of a map whose memo of recent runs is warm (every LBN after every
// other) give what a fresh map computes, on tracks with slips and with extents
// back to back.
TEST(HddExtentMapTest, RememberedRunsGiveWhatAFreshMapComputes) {
  for (const HddLayout& layout : {Layout(), ChainedLayout()}) {
    const HddExtentMap warm(layout);
    for (int64_t a = 0; a < 16; ++a) {
      for (int64_t b = 0; b < 16; ++b) {
        for (const int64_t lbn : {a, b}) {
          for (const int64_t max_blocks : {int64_t{1}, int64_t{2}, int64_t{3}, int64_t{5}, INT64_MAX}) {
            const TrackRun got = warm.RunOnTrack(lbn, max_blocks);
            const TrackRun want = HddExtentMap(layout).RunOnTrack(lbn, max_blocks);
            ASSERT_EQ(got.start, want.start) << "LBN " << lbn << ", at most " << max_blocks;
            ASSERT_EQ(got.blocks, want.blocks) << "LBN " << lbn << ", at most " << max_blocks;
            ASSERT_EQ(got.physical_span, want.physical_span) << "LBN " << lbn << ", at most " << max_blocks;
            ASSERT_EQ(got.sectors_per_track, want.sectors_per_track) << "LBN " << lbn;
          }
          ASSERT_EQ(warm.Map(lbn), HddExtentMap(layout).Map(lbn)) << "LBN " << lbn;
        }
      }
    }
  }
}

TEST(HddExtentMapTest, AnglesAndSectorsPerTrack) {
  const HddExtentMap m(Layout());
  EXPECT_DOUBLE_EQ(m.StartAngle({0, 0, 2}), 0.25);         // 2 of 8 sectors
  EXPECT_DOUBLE_EQ(m.StartAngle({0, 0, 6}), 0.75);         // by its own extent: 5/8 + 1/8
  EXPECT_DOUBLE_EQ(m.StartAngle({0, 1, 7}), 0.25 + 7 / 8.0 - 1);  // wraps
  EXPECT_EQ(m.AngleSlot({0, 1, 7}), 1);
  // Whole-sector angles built of 2^32/spt rounded down fall short of the slot's start.
  HddLayout hundred;
  hundred.surfaces = 1;
  hundred.cylinders = 1;
  hundred.extents = {Extent(0, 100, 0, 0, 0, 100, 0)};
  const HddExtentMap h(hundred);
  EXPECT_LT(h.StartAngle({0, 0, 40}), 0.4);
  EXPECT_EQ(h.AngleSlot({0, 0, 40}), 40);
  EXPECT_EQ(h.AngleSlot({0, 0, 99}), 99);
  EXPECT_DOUBLE_EQ(m.StartAngle({2, 0, 7}), 0);
  EXPECT_DOUBLE_EQ(m.StartAngle({3, 1, 0}), 0);            // no LBN there
  EXPECT_EQ(m.SectorsPerTrack(1), 8);                     // unmapped: the cylinder before
}

TEST(HddExtentMapTest, RefusesGapsAndExtentsOffTheDisk) {
  HddLayout gap = Layout();
  gap.extents[1].first_lbn = 5;
  EXPECT_THROW(HddExtentMap{gap}, InputError);
  HddLayout off = Layout();
  off.extents[3].cylinder = 4;
  EXPECT_THROW(HddExtentMap{off}, InputError);
  HddLayout wide = Layout();
  wide.extents[2].first_sector = 1;  // sectors 1..8 of 8
  EXPECT_THROW(HddExtentMap{wide}, InputError);
  EXPECT_NE(MakeHddMap(Layout())->total_blocks(), 0);
}

}  // namespace
}  // namespace ziosim
