#include "models/device/hdd_geometry.h"

#include <gtest/gtest.h>
#include <zlib.h>

#include <cmath>
#include <cstdio>
#include <filesystem>
#include <sstream>
#include <string>
#include <vector>

#include "models/disksim/disksim_import.h"
#include "sim/core/status.h"
#include "tests/test_util.h"

namespace ziosim {
namespace {

HddZone Zone(int first, int last, int spt, int track_skew = 0, int cylinder_skew = 0) {
  HddZone z;
  z.first_cylinder = first;
  z.last_cylinder = last;
  z.sectors_per_track = spt;
  z.track_skew_sectors = track_skew;
  z.cylinder_skew_sectors = cylinder_skew;
  return z;
}

HddLayout Layout(int surfaces, int cylinders, SparingScheme sparing, std::vector<HddZone> zones) {
  HddLayout layout;
  layout.surfaces = surfaces;
  layout.cylinders = cylinders;
  layout.sparing = sparing;
  layout.zones = std::move(zones);
  return layout;
}

PhysicalAddress At(int cylinder, int head, int sector) { return {cylinder, head, sector}; }

// Two surfaces; zone 0: cylinders 0-3, 10 sectors, skews 2/3; zone 1: cylinders 4-9,
// 8 sectors, skews 1/2, sector 0 of its first track half a sector past the index.
HddLayout TwoZonesNoSpares() {
  HddZone inner = Zone(4, 9, 8, 1, 2);
  inner.first_block_offset_sectors = 0.5;
  return Layout(2, 10, SparingScheme::kNone, {Zone(0, 3, 10, 2, 3), inner});
}

TEST(HddGeometryTest, TwoZonesWithoutSparesByHand) {
  const HddGeometry g(TwoZonesNoSpares());
  EXPECT_EQ(g.total_blocks(), 4 * 2 * 10 + 6 * 2 * 8);  // 80 + 96
  EXPECT_EQ(g.surfaces(), 2);
  EXPECT_EQ(g.cylinders(), 10);
  // Zone 0: LBN = (cylinder * 2 + head) * 10 + sector.
  EXPECT_EQ(g.Map(0), At(0, 0, 0));
  EXPECT_EQ(g.Map(25), At(1, 0, 5));
  EXPECT_EQ(g.Map(79), At(3, 1, 9));
  // Zone 1 starts at LBN 80: LBN = 80 + ((cylinder - 4) * 2 + head) * 8 + sector.
  EXPECT_EQ(g.Map(80), At(4, 0, 0));
  EXPECT_EQ(g.Map(80 + 8 + 3), At(4, 1, 3));
  EXPECT_EQ(g.Map(175), At(9, 1, 7));
  EXPECT_EQ(g.SectorsPerTrack(3), 10);
  EXPECT_EQ(g.SectorsPerTrack(4), 8);
  EXPECT_EQ(g.SectorsPerTrack(9), 8);
}

TEST(HddGeometryTest, SkewedAnglesByHand) {
  const HddGeometry g(TwoZonesNoSpares());
  EXPECT_DOUBLE_EQ(g.StartAngle(At(0, 0, 0)), 0.0);
  // (head + (S-1)*c) * track skew + c * cylinder skew + sector = (1 + 3) * 2 + 3 * 3 + 9 = 26 = 6 (mod 10).
  EXPECT_DOUBLE_EQ(g.StartAngle(At(3, 1, 9)), 0.6);
  EXPECT_EQ(g.AngleSlot(At(3, 1, 9)), 6);
  // Zone 1, c = 0: only the half-sector offset.
  EXPECT_DOUBLE_EQ(g.StartAngle(At(4, 0, 0)), 0.5 / 8);
  EXPECT_EQ(g.AngleSlot(At(4, 0, 0)), 0);
  // c = 5: (1 + 5) * 1 + 5 * 2 + 7 = 23 = 7 (mod 8), plus 0.5.
  EXPECT_DOUBLE_EQ(g.StartAngle(At(9, 1, 7)), 7.5 / 8);
  EXPECT_EQ(g.AngleSlot(At(9, 1, 7)), 7);
}

TEST(HddGeometryTest, RunsWithoutSparesEndAtTrackZoneAndLimit) {
  const HddGeometry g(TwoZonesNoSpares());
  TrackRun run = g.RunOnTrack(25, 100);  // sector 5 of a 10-sector track
  EXPECT_EQ(run.start, At(1, 0, 5));
  EXPECT_EQ(run.blocks, 5);
  EXPECT_EQ(run.physical_span, 5);
  run = g.RunOnTrack(25, 3);
  EXPECT_EQ(run.blocks, 3);
  EXPECT_EQ(run.physical_span, 3);
  EXPECT_EQ(g.RunOnTrack(79, 100).blocks, 1);   // last LBN of zone 0
  EXPECT_EQ(g.RunOnTrack(80, 100).blocks, 8);   // a whole track of zone 1
  EXPECT_EQ(g.RunOnTrack(175, 100).blocks, 1);  // last LBN of the disk
  EXPECT_EQ(g.RunOnTrack(25, 0).blocks, 0);
  EXPECT_EQ(g.RunOnTrack(176, 100).blocks, 0);  // past the end
}

// DiskSim's own check (glossary 4.2): Atlas III zone 0, sparing scheme 7, LBN 1,222,928
// sits on (527, 7, 17) and starts 181/256 of a revolution past the index.
TEST(HddGeometryTest, AtlasZoneZeroByHand) {
  HddZone zone = Zone(0, 615, 256, 75, 86);
  zone.empty_front_sectors = 128000;
  zone.slips = {272037, 1464716, 1467276, 1508869};
  const HddGeometry g(Layout(10, 8057, SparingScheme::kDiskEnd, {zone}));
  EXPECT_EQ(g.total_blocks(), 616 * 10 * 256 - 128000 - 4);
  EXPECT_EQ(g.Map(0), At(50, 0, 0));  // the front space fills cylinders 0-49
  const PhysicalAddress a = g.Map(1222928);
  EXPECT_EQ(a, At(527, 7, 17));
  EXPECT_DOUBLE_EQ(g.StartAngle(a), 181.0 / 256);
  EXPECT_EQ(g.AngleSlot(a), 181);
}

// One surface, two 10-sector cylinders, spares at the zone's end (scheme 9), sectors 3
// and 4 slipped and sector 6 remapped to spare 19.
HddLayout SlippedTrack() {
  HddZone zone = Zone(0, 1, 10);
  zone.spares = 3;
  zone.slips = {4, 3};  // any order
  zone.defects = {{6, 19}, {12, 12}};  // a pair of equal numbers means nothing
  return Layout(1, 2, SparingScheme::kZoneEnd, {zone});
}

TEST(HddGeometryTest, SlipsPushLbnsAndDefectsMoveThem) {
  const HddGeometry g(SlippedTrack());
  EXPECT_EQ(g.total_blocks(), 17);
  EXPECT_EQ(g.Map(2), At(0, 0, 2));
  EXPECT_EQ(g.Map(3), At(0, 0, 5));   // over slips 3 and 4
  EXPECT_EQ(g.Map(4), At(1, 0, 9));   // sector 6 is defective: its spare
  EXPECT_EQ(g.Map(5), At(0, 0, 7));
  EXPECT_EQ(g.Map(7), At(0, 0, 9));
  EXPECT_EQ(g.Map(8), At(1, 0, 0));
  EXPECT_EQ(g.Map(16), At(1, 0, 8));  // the last LBN; sector 9 is the used spare
}

TEST(HddGeometryTest, RunOnTrackAcrossASlip) {
  const HddGeometry g(SlippedTrack());
  // LBNs 1, 2, 3 on sectors 1, 2, 5: the head passes slipped sectors 3 and 4; LBN 4
  // (sector 6) is remapped, so the run stops before it.
  TrackRun run = g.RunOnTrack(1, 100);
  EXPECT_EQ(run.start, At(0, 0, 1));
  EXPECT_EQ(run.blocks, 3);
  EXPECT_EQ(run.physical_span, 5);
  run = g.RunOnTrack(0, 2);  // stops before the slips: they are not passed
  EXPECT_EQ(run.blocks, 2);
  EXPECT_EQ(run.physical_span, 2);
  run = g.RunOnTrack(4, 100);  // a remapped LBN is a run of its own, on its spare
  EXPECT_EQ(run.start, At(1, 0, 9));
  EXPECT_EQ(run.blocks, 1);
  EXPECT_EQ(run.physical_span, 1);
  run = g.RunOnTrack(5, 100);  // sectors 7-9
  EXPECT_EQ(run.blocks, 3);
  EXPECT_EQ(run.physical_span, 3);
  run = g.RunOnTrack(8, 100);  // cylinder 1: sectors 0-8 before the used spare
  EXPECT_EQ(run.blocks, 9);
  EXPECT_EQ(run.physical_span, 9);
}

TEST(HddGeometryTest, RangeSparingKeepsSlipsInTheirRange) {
  // One surface, 5 sectors, ranges of 2 cylinders with 1 spare each; sector 12 (range 1) slipped.
  HddZone zone = Zone(0, 3, 5);
  zone.spares = 1;
  zone.slips = {12};
  HddLayout layout = Layout(1, 4, SparingScheme::kPerRange, {zone});
  layout.range_size_cylinders = 2;
  const HddGeometry g(layout);
  EXPECT_EQ(g.total_blocks(), 20 - 2);
  EXPECT_EQ(g.Map(8), At(1, 0, 3));   // last LBN of range 0; sector 9 is its spare
  EXPECT_EQ(g.Map(9), At(2, 0, 0));   // range 1 starts on cylinder 2
  EXPECT_EQ(g.Map(11), At(2, 0, 3));  // over slip 12
  EXPECT_EQ(g.Map(17), At(3, 0, 4));  // the slip used range 1's spare
  EXPECT_EQ(g.RunOnTrack(8, 10).blocks, 1);  // the spare ends range 0's last track
  const TrackRun run = g.RunOnTrack(9, 10);
  EXPECT_EQ(run.blocks, 4);
  EXPECT_EQ(run.physical_span, 5);
}

TEST(HddGeometryTest, TrackSparingSkipsWholeTracks) {
  // Two surfaces, 4 sectors, 2 spare tracks; track 1 slipped, track 3 remapped to track 5.
  HddZone zone = Zone(0, 2, 4);
  zone.spares = 2;
  zone.slips = {1};
  zone.defects = {{3, 5}};
  const HddGeometry g(Layout(2, 3, SparingScheme::kTracksPerZone, {zone}));
  EXPECT_EQ(g.total_blocks(), 3 * 2 * 4 - 2 * 4);
  EXPECT_EQ(g.Map(3), At(0, 0, 3));
  EXPECT_EQ(g.Map(4), At(1, 0, 0));  // logical track 1 -> physical track 2
  EXPECT_EQ(g.Map(9), At(2, 1, 1));  // logical track 2 -> track 3, remapped to 5
  const TrackRun run = g.RunOnTrack(5, 100);
  EXPECT_EQ(run.start, At(1, 0, 1));
  EXPECT_EQ(run.blocks, 3);
  EXPECT_EQ(run.physical_span, 3);
}

// Map, RunOnTrack and AngleSlotOnTrack of one geometry that has answered other
// look-ups before (its memos of recent runs and track rotations warm) against a
// fresh geometry's for each look-up.
void ExpectSameAsFresh(const HddLayout& layout, const std::vector<int64_t>& lbns) {
  const HddGeometry warm(layout);
  for (const int64_t lbn : lbns) {
    for (const int64_t max_blocks : {int64_t{1}, int64_t{2}, int64_t{5}, int64_t{64}, INT64_MAX}) {
      const TrackRun got = warm.RunOnTrack(lbn, max_blocks);
      const TrackRun want = HddGeometry(layout).RunOnTrack(lbn, max_blocks);
      ASSERT_EQ(got.start, want.start) << "LBN " << lbn << ", at most " << max_blocks;
      ASSERT_EQ(got.blocks, want.blocks) << "LBN " << lbn << ", at most " << max_blocks;
      ASSERT_EQ(got.physical_span, want.physical_span) << "LBN " << lbn << ", at most " << max_blocks;
      ASSERT_EQ(got.sectors_per_track, want.sectors_per_track) << "LBN " << lbn << ", at most " << max_blocks;
      ASSERT_EQ(got.sectors_per_track, warm.SectorsPerTrack(got.start.cylinder)) << "LBN " << lbn;
      const HddMap::SectorSlot slot = warm.AngleSlotOnTrack(got.start);
      ASSERT_EQ(slot.slot, HddGeometry(layout).AngleSlot(got.start)) << "LBN " << lbn;
      ASSERT_EQ(slot.sectors_per_track, got.sectors_per_track) << "LBN " << lbn;
    }
    ASSERT_EQ(warm.Map(lbn), HddGeometry(layout).Map(lbn)) << "LBN " << lbn;
  }
}

TEST(HddGeometryTest, RememberedRunsGiveWhatAFreshGeometryComputes) {
  HddZone ranged = Zone(0, 3, 5);
  ranged.spares = 1;
  ranged.slips = {12};
  HddLayout range_layout = Layout(1, 4, SparingScheme::kPerRange, {ranged});
  range_layout.range_size_cylinders = 2;
  HddZone tracks = Zone(0, 2, 4);
  tracks.spares = 2;
  tracks.slips = {1};
  tracks.defects = {{3, 5}};
  for (const HddLayout& layout : {SlippedTrack(), TwoZonesNoSpares(), range_layout,
                                  Layout(2, 3, SparingScheme::kTracksPerZone, {tracks})}) {
    // Every LBN upwards, downwards, and each after every other.
    const int64_t n = HddGeometry(layout).total_blocks();
    std::vector<int64_t> lbns;
    for (int64_t lbn = 0; lbn < n; ++lbn) lbns.push_back(lbn);
    for (int64_t lbn = n - 1; lbn >= 0; --lbn) lbns.push_back(lbn);
    for (int64_t a = 0; a < n; ++a) {
      for (int64_t b = 0; b < n; ++b) lbns.insert(lbns.end(), {a, b});
    }
    ExpectSameAsFresh(layout, lbns);
  }
}

// Skews given in revolutions leave every sector a fraction of a sector off the
// whole slots. A sector's slot is then floor((whole + offset + fraction) mod spt),
// DiskSim's position rounded down, where whole = (track rotation + sector) mod spt
// and fraction = (tracks stepped * track skew + cylinders stepped * cylinder skew)
// mod spt, the skews' fractional parts. AngleSlot of a geometry that has seen
// other tracks (its memo of the last track) gives that for every sector, in any
// order of tracks, and one that has not gives the same.
TEST(HddGeometryTest, FractionalSkewsPlaceSectorsAsTheFormulaDoes) {
  HddZone zone = Zone(0, 5, 7, 2, 3);
  zone.track_skew_fraction_sectors = 0.37;
  zone.cylinder_skew_fraction_sectors = 0.81;
  zone.first_block_offset_sectors = 0.625;
  const HddLayout layout = Layout(3, 6, SparingScheme::kNone, {zone});
  const HddGeometry warm(layout);
  for (const int cylinder : {0, 5, 2, 2, 4, 1, 3, 0}) {
    for (const int head : {2, 0, 1}) {
      for (int sector = 0; sector < 7; ++sector) {
        const int64_t c = cylinder, track = head;  // conventional order: the head is the track
        const int64_t rotation = ((track + 2 * c) * 2 + c * 3) % 7;
        const double fraction = std::fmod(static_cast<double>(track + 2 * c) * 0.37 + static_cast<double>(c) * 0.81, 7.0);
        const double position = std::fmod(static_cast<double>((rotation + sector) % 7) + 0.625 + fraction, 7.0);
        const int want = std::min(static_cast<int>(position), 6);
        const PhysicalAddress a = At(cylinder, head, sector);
        ASSERT_EQ(warm.AngleSlot(a), want) << "cylinder " << cylinder << " head " << head << " sector " << sector;
        ASSERT_EQ(HddGeometry(layout).AngleSlot(a), want) << "cylinder " << cylinder << " head " << head;
        ASSERT_DOUBLE_EQ(warm.StartAngle(a), position / 7) << "cylinder " << cylinder << " head " << head;
      }
    }
  }
}

std::string ErrorOf(const HddLayout& layout) {
  try {
    HddGeometry g(layout);
  } catch (const InputError& e) {
    return e.what();
  }
  return "no error";
}

TEST(HddGeometryTest, RejectsInconsistentLayouts) {
  EXPECT_EQ(ErrorOf(Layout(2, 10, static_cast<SparingScheme>(11), {Zone(0, 9, 10)})),
            "HDD layout: sparing scheme 11 does not exist (0..10)");
  HddLayout reversed = Layout(2, 10, SparingScheme::kNone, {Zone(0, 9, 10)});
  reversed.track_order = static_cast<TrackOrder>(3);
  EXPECT_EQ(ErrorOf(reversed), "HDD layout: LBN-to-PBN mapping scheme 3 does not exist (0..2)");
  EXPECT_EQ(ErrorOf(Layout(2, 10, SparingScheme::kNone, {})), "HDD layout: no zones");
  EXPECT_EQ(ErrorOf(Layout(0, 10, SparingScheme::kNone, {Zone(0, 9, 10)})), "HDD layout: surfaces must be positive");
  EXPECT_EQ(ErrorOf(Layout(2, 10, SparingScheme::kNone, {Zone(0, 5, 10), Zone(5, 9, 8)})),
            "HDD layout: zone 1 starts at cylinder 5, not after the previous zone's last cylinder");
  EXPECT_EQ(ErrorOf(Layout(2, 10, SparingScheme::kNone, {Zone(0, 10, 10)})),
            "HDD layout: zone 0: cylinders 0..10 are not a range within 0..9");
  EXPECT_EQ(ErrorOf(Layout(2, 10, SparingScheme::kNone, {Zone(0, 9, 0)})),
            "HDD layout: zone 0: sectors per track must be positive");
  HddZone slipped = Zone(0, 9, 10);
  slipped.slips = {5, 5};
  slipped.spares = 4;
  EXPECT_EQ(ErrorOf(Layout(2, 10, SparingScheme::kZoneEnd, {slipped})), "HDD layout: zone 0: slip 5 listed twice");
  slipped.slips = {200};
  EXPECT_EQ(ErrorOf(Layout(2, 10, SparingScheme::kZoneEnd, {slipped})),
            "HDD layout: zone 0: slipped sector 200 is outside the zone (0..199)");
  EXPECT_EQ(ErrorOf(Layout(2, 10, SparingScheme::kNone, {slipped})),
            "HDD layout: zone 0: slips, defects and spares need a sparing scheme");
}

// ---------------------------------------------------------------------------------------
// DiskSim's own LBN -> (cylinder, head, sector) and start angle for every request of its
// six validation traces.

struct OracleTally {
  int rows = 0;
  int address_mismatches = 0;
  int angle_mismatches = 0;
  int spt_mismatches = 0;
};

OracleTally CheckOracle(const std::string& drive) {
  const DisksimImport import = ImportDisksimDrive(test::DisksimValidDir() + drive + ".parv");
  const HddGeometry g(import.params.layout);
  const std::string path = test::DisksimValidDir() + "oracle/" + drive + ".csv.gz";
  gzFile file = gzopen(path.c_str(), "rb");
  EXPECT_NE(file, nullptr) << path;
  OracleTally tally;
  if (file == nullptr) return tally;
  char line[4096];
  gzgets(file, line, sizeof(line));  // header: ..., cyl, head, sector, sector_angle, spt, ... (columns 13-17)
  while (gzgets(file, line, sizeof(line)) != nullptr) {
    std::vector<std::string> cols;
    std::stringstream row(line);
    for (std::string col; std::getline(row, col, ',');) cols.push_back(col);
    const int64_t lbn = std::stoll(cols[3]);
    const PhysicalAddress want{std::stoi(cols[13]), std::stoi(cols[14]), std::stoi(cols[15])};
    const double want_angle = std::stod(cols[16]);
    ++tally.rows;
    const PhysicalAddress got = g.Map(lbn);
    if (!(got == want)) {
      if (++tally.address_mismatches <= 5) {
        ADD_FAILURE() << drive << " LBN " << lbn << ": got (" << got.cylinder << ", " << got.head << ", "
                      << got.sector << "), DiskSim (" << want.cylinder << ", " << want.head << ", " << want.sector
                      << ")";
      }
    }
    // DiskSim's angles are 32-bit fixed point; compare on the circle.
    const double diff = std::fabs(g.StartAngle(want) - want_angle);
    if (std::min(diff, 1 - diff) > 1e-6) ++tally.angle_mismatches;
    if (g.SectorsPerTrack(want.cylinder) != std::stoi(cols[17])) ++tally.spt_mismatches;
  }
  gzclose(file);
  return tally;
}

class OracleTest : public testing::TestWithParam<const char*> {};

TEST_P(OracleTest, MapsEveryTraceLbnAsDiskSimDoes) {
  if (!std::filesystem::exists(test::DisksimValidDir()))
    GTEST_SKIP() << "../shared/data absent: " << test::DisksimValidDir();
  const OracleTally t = CheckOracle(GetParam());
  EXPECT_GE(t.rows, 9984);
  EXPECT_EQ(t.address_mismatches, 0) << "of " << t.rows;
  EXPECT_EQ(t.angle_mismatches, 0) << "of " << t.rows;
  EXPECT_EQ(t.spt_mismatches, 0) << "of " << t.rows;
}

INSTANTIATE_TEST_SUITE_P(SixDrives, OracleTest,
                         testing::Values("atlas_III", "barracuda", "cheetah4LP", "cheetah9LP", "hp_c2247a",
                                         "hp_c2490a"));

// Every LBN of a real drive: each track run holds consecutive LBNs on one track in
// rising sector order, spans exactly to its last sector, and the next LBN is elsewhere.
TEST(HddGeometryTest, RunsAgreeWithMapOnEveryLbnOfCheetah9LP) {
  if (!std::filesystem::exists(test::DisksimValidDir()))
    GTEST_SKIP() << "../shared/data absent: " << test::DisksimValidDir();
  const HddGeometry g(ImportDisksimDrive(test::DisksimValidDir() + "cheetah9LP.parv").params.layout);
  int bad = 0;
  for (int64_t lbn = 0; lbn < g.total_blocks() && bad < 5;) {
    const TrackRun run = g.RunOnTrack(lbn, INT64_MAX);
    ASSERT_GE(run.blocks, 1);
    const PhysicalAddress last = g.Map(lbn + run.blocks - 1);
    bool ok = run.start == g.Map(lbn) && last.sector - run.start.sector + 1 == run.physical_span;
    int previous_sector = run.start.sector;
    for (int64_t k = 1; k < run.blocks && ok; ++k) {
      const PhysicalAddress a = g.Map(lbn + k);
      ok = a.cylinder == run.start.cylinder && a.head == run.start.head && a.sector > previous_sector;
      previous_sector = a.sector;
    }
    if (lbn + run.blocks < g.total_blocks()) {
      const PhysicalAddress next = g.Map(lbn + run.blocks);
      ok = ok && !(next.cylinder == last.cylinder && next.head == last.head && next.sector > last.sector);
    }
    if (!ok) ADD_FAILURE() << "inconsistent run at LBN " << lbn << " (" << ++bad << ")";
    lbn += run.blocks;
  }
}

TEST(HddGeometryTest, RememberedRunsOfAtlasIIIGiveWhatAFreshGeometryComputes) {
  if (!std::filesystem::exists(test::DisksimValidDir()))
    GTEST_SKIP() << "../shared/data absent: " << test::DisksimValidDir();
  const HddLayout layout = ImportDisksimDrive(test::DisksimValidDir() + "atlas_III.parv").params.layout;
  const int64_t n = HddGeometry(layout).total_blocks();
  // Commands' neighbourhoods: a random LBN, the blocks around it, and then a jump.
  std::vector<int64_t> lbns;
  uint64_t x = 14;
  for (int i = 0; i < 300; ++i) {
    x = x * 6364136223846793005u + 1442695040888963407u;
    const int64_t lbn = static_cast<int64_t>((x >> 11) % static_cast<uint64_t>(n - 600));
    for (const int64_t d : {0, 1, 7, 63, 64, 200, 3, 599}) lbns.push_back(lbn + d);
  }
  ExpectSameAsFresh(layout, lbns);
}

}  // namespace
}  // namespace ziosim
