#include "models/disksim/disksim_import.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <random>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "models/catalog/catalog.h"
#include "models/device/hdd_geometry.h"
#include "sim/core/status.h"
#include "tests/test_util.h"

namespace ziosim {
namespace disksim_import_test {

// ---------------------------------------------------------------------------------------
// The six drives of DiskSim's validation suite.

struct DriveFacts {
  const char* drive;
  const char* name;
  double rpm;
  int segments;
  int segment_blocks;
  SimTime bus_read_ns;  // max(disk bulk time, bus1 time)
  SimTime bus_write_ns;
  SimTime read_hit_after_read_ns;
  SimTime head_switch_ns;
  SimTime write_settle_ns;
  int fast_write_level;
  int read_ahead_scheme;
  SparingScheme sparing;
  size_t zones;
  int64_t total_blocks;  // the "used" capacity of glossary 4.1
  int seek_distance;     // a point of the measured seek curve (0: HPL drive)
  SimTime seek_ns;
};

const DriveFacts kDrives[] = {
    {"atlas_III", "QUANTUM_QM39100TD-SW", 7200, 6, 64, 106000, 106000, 374000, 999000, 0, 2, 4,
     SparingScheme::kDiskEnd, 9, 17797944, 7998, 15360000},
    {"barracuda", "SEAGATE_ST32171W", 7200, 3, 281, 134000, 134000, 82000, 100000, 0, 1, 3, SparingScheme::kPerRange,
     11, 4217670, 1, 1943000},
    {"cheetah4LP", "SEAGATE_ST34501N_validate", 10033, 3, 282, 106000, 106000, 68000, 195000, 0, 1, 3,
     SparingScheme::kPerRange, 7, 8887940, 1, 636000},
    {"cheetah9LP", "SEAGATE_ST39102LW_validate", 10045, 3, 561, 105000, 105000, 66000, 30000, 461000, 2, 4,
     SparingScheme::kZoneEnd, 11, 17918387, 600, 3399000},
    {"hp_c2247a", "HP_C2247A_validate", 5400, 2, 256, 170100, 186860, 953430, 890000, 650000, 0, 3,
     SparingScheme::kTracksPerZone, 8, 2054864, 0, 0},
    {"hp_c2490a", "HP_C2490A_validate", 6398, 1, 256, 148410, 148410, 1419000, 992000, -642000, 0, 3,
     SparingScheme::kTracksPerZone, 11, 4165272, 1, 1264422},
};

class SixDrivesTest : public testing::TestWithParam<DriveFacts> {
 protected:
  void SetUp() override {
    if (!std::filesystem::exists(test::DisksimValidDir()))
      GTEST_SKIP() << "../shared/data absent: " << test::DisksimValidDir();
  }
};

TEST_P(SixDrivesTest, ImportsHandCheckedValues) {
  const DriveFacts& want = GetParam();
  const std::string parv = test::DisksimValidDir() + want.drive + ".parv";
  const DisksimImport import = ImportDisksimDrive(parv);
  const HddParams& p = import.params;
  EXPECT_EQ(p.name, want.name);
  EXPECT_EQ(p.source, parv);
  EXPECT_EQ(p.queue_depth, 1);
  EXPECT_DOUBLE_EQ(p.mechanics.rpm, want.rpm);
  EXPECT_EQ(p.cache.segments, want.segments);
  EXPECT_EQ(p.cache.segment_blocks, want.segment_blocks);
  EXPECT_TRUE(p.cache.enabled);
  EXPECT_EQ(p.interface.bus_read_block_ns, want.bus_read_ns);
  EXPECT_EQ(p.interface.bus_write_block_ns, want.bus_write_ns);
  EXPECT_EQ(p.interface.read_hit_ns[0], want.read_hit_after_read_ns);
  EXPECT_EQ(p.mechanics.head_switch_ns, want.head_switch_ns);
  EXPECT_EQ(p.mechanics.write_settle_ns, want.write_settle_ns);
  EXPECT_EQ(p.cache.fast_write_level, want.fast_write_level);
  EXPECT_EQ(p.cache.read_ahead_scheme, want.read_ahead_scheme);
  EXPECT_EQ(p.layout.sparing, want.sparing);
  EXPECT_EQ(p.layout.zones.size(), want.zones);
  EXPECT_EQ(HddGeometry(p.layout).total_blocks(), want.total_blocks);
  if (want.seek_distance > 0) {
    ASSERT_EQ(p.mechanics.seek.kind, HddSeekModel::Kind::kTable);
    const auto& table = p.mechanics.seek.table;
    const auto point = std::find_if(table.begin(), table.end(), [&](auto e) { return e.first == want.seek_distance; });
    ASSERT_NE(point, table.end());
    EXPECT_EQ(point->second, want.seek_ns);
    EXPECT_EQ(table.front().first, 1);
  }
}

TEST_P(SixDrivesTest, ListsIgnoredKeysOnce) {
  const DisksimImport import = ImportDisksimDrive(test::DisksimValidDir() + GetParam().drive + ".parv");
  ASSERT_FALSE(import.ignored.empty());
  std::set<std::string> keys;
  for (const std::string& entry : import.ignored) {
    const size_t colon = entry.find(": ");
    ASSERT_NE(colon, std::string::npos) << entry;
    EXPECT_TRUE(keys.insert(entry.substr(colon + 2)).second) << "listed twice: " << entry;
  }
  for (const char* key : {"Calc sector by sector", "Block count", "Percent error in rpms", "Access time type",
                          "Cylinder mapping strategy", "Print stats", "Avg sectors per cylinder"}) {
    EXPECT_EQ(keys.count(key), 1u) << key;
  }
  // Used keys are not listed; the six drives' disk schedulers are FCFS.
  EXPECT_EQ(import.queue_order, QueuePolicy::kFifo);
  for (const char* key : {"Rotation speed (in rpms)", "Bulk sector transfer time", "Zones", "Blocks per track",
                          "Scheduling policy"}) {
    EXPECT_EQ(keys.count(key), 0u) << key;
  }
  const std::string calc = *std::find_if(import.ignored.begin(), import.ignored.end(), [](const std::string& e) {
    return e.find("Calc sector by sector") != std::string::npos;
  });
  EXPECT_EQ(calc, test::DisksimValidDir() + GetParam().drive + ".diskspecs:41: Calc sector by sector");
}

INSTANTIATE_TEST_SUITE_P(DisksimValid, SixDrivesTest, testing::ValuesIn(kDrives),
                         [](const testing::TestParamInfo<DriveFacts>& param) { return std::string(param.param.drive); });

TEST(DisksimImportTest, HpC2247aSpecifics) {
  if (!std::filesystem::exists(test::DisksimValidDir()))
    GTEST_SKIP() << "../shared/data absent: " << test::DisksimValidDir();
  const HddParams p = ImportDisksimDrive(test::DisksimValidDir() + "hp_c2247a.parv").params;
  const HddSeekModel& seek = p.mechanics.seek;
  ASSERT_EQ(seek.kind, HddSeekModel::Kind::kHpl);
  const double hpl[6] = {300, 3.81, 0.33, 7.75, 0.0059, -1};
  for (int i = 0; i < 6; ++i) EXPECT_DOUBLE_EQ(seek.hpl[i], hpl[i]) << i;
  ASSERT_EQ(seek.first_ten.size(), 10u);
  EXPECT_EQ(seek.first_ten[0], 2890000);
  EXPECT_EQ(seek.first_ten[9], 4990000);
  EXPECT_TRUE(p.interface.hold_bus_read);
  EXPECT_DOUBLE_EQ(p.interface.read_watermark, 0.75);
  EXPECT_TRUE(p.interface.watermark_by_request_size);
  EXPECT_TRUE(p.interface.extra_write_disconnect);
  EXPECT_EQ(p.interface.min_seek_delay_ns, 600000);
  EXPECT_EQ(p.interface.first_reselect_ns, 162490);
  EXPECT_EQ(p.interface.other_reselect_ns, 128830);
  EXPECT_EQ(p.interface.read_disconnect_ns[1], 45510);
  EXPECT_EQ(p.interface.write_miss_ns[0], 823910);
  EXPECT_EQ(p.interface.data_prep_ns, 25190);
  EXPECT_TRUE(p.cache.separate_write_segment);
  EXPECT_TRUE(p.cache.stop_prefetch_in_sector);
  EXPECT_TRUE(p.cache.prefetch_stops_at_its_sector);  // DiskSim's event model, every spec
  EXPECT_TRUE(p.cache.read_ahead_on_idle_hit);
  EXPECT_EQ(p.cache.max_read_ahead_blocks, 128);
  EXPECT_EQ(p.layout.zones[1].first_block_offset_sectors, 14);
  EXPECT_EQ(p.layout.zones[0].spares, 325);
  EXPECT_EQ(p.layout.zones[0].slips.size(), 12u);
}

TEST(DisksimImportTest, HpC2490aLastZoneWidensTheCylinderCount) {
  if (!std::filesystem::exists(test::DisksimValidDir()))
    GTEST_SKIP() << "../shared/data absent: " << test::DisksimValidDir();
  // The spec says 2629 cylinders (0-2628), but its last zone, spare tracks included,
  // ends on cylinder 2629. DiskSim never checks; the zones describe the disk.
  const HddParams p = ImportDisksimDrive(test::DisksimValidDir() + "hp_c2490a.parv").params;
  EXPECT_EQ(p.layout.zones.back().last_cylinder, 2629);
  EXPECT_EQ(p.layout.cylinders, 2630);
  EXPECT_TRUE(p.cache.enabled);  // "Enable caching in buffer = 2" acts as 1
  const HddGeometry g(p.layout);
  EXPECT_EQ(g.SectorsPerTrack(2629), p.layout.zones.back().sectors_per_track);
}

TEST(DisksimImportTest, Cheetah4lpDefectPairOfEqualNumbersIsKept) {
  if (!std::filesystem::exists(test::DisksimValidDir()))
    GTEST_SKIP() << "../shared/data absent: " << test::DisksimValidDir();
  const HddParams p = ImportDisksimDrive(test::DisksimValidDir() + "cheetah4LP.parv").params;
  EXPECT_EQ(p.layout.range_size_cylinders, 12);
  ASSERT_EQ(p.layout.zones[1].defects.size(), 1u);
  EXPECT_EQ(p.layout.zones[1].defects[0], std::make_pair(int64_t{233375}, int64_t{233375}));
}

// ---------------------------------------------------------------------------------------
// A small synthetic drive, written to a temporary folder and altered per test.

constexpr std::string_view kParv = R"(disksim_iodriver DRIVER0 {
   type = 1,
   Constant access time = 0.0,
   Use queueing in subsystem = 1
}
disksim_bus BUS0 { type = 1, Read block transfer time = 0.5, Write block transfer time = 0.5 }
disksim_bus BUS1 {
   type = 1,
   Arbitration time = 0.0,
   Read block transfer time = 0.05,
   Write block transfer time = 0.15,
   Print stats = 1
}
disksim_ctlr CTLR0 { type = 1, Scale for delays = 0.0 }
source t.diskspecs
instantiate [ bus0 ] as BUS0
instantiate [ bus1 ] as BUS1
instantiate [ disk0 ] as D
instantiate [ driver0 ] as DRIVER0
instantiate [ ctlr0 ] as CTLR0
topology disksim_iodriver driver0 [
   disksim_bus bus0 [
      disksim_ctlr ctlr0 [
         disksim_bus bus1 [
            disksim_disk disk0 []
         ]
      ]
   ]
]
)";

constexpr std::string_view kDiskspecs = R"(disksim_disk D {
   Model = source t.model,
   Per-request overhead time = 0.01,
   Time scale for overheads = 1.0,
   Bulk sector transfer time = 0.1,
   Hold bus entire read xfer = 0,
   Hold bus entire write xfer = 0,
   Allow almost read hits = 0,
   Allow read hits on write data = 1,
   Never disconnect = 0,
   Print stats = 1,
   Max queue length = 4,
   Scheduler = disksim_ioqueue { Scheduling policy = 1, Timeout time/weight = 6 },
   Number of buffer segments = 2,
   Maximum number of write segments = 1,
   Segment size (in blks) = 100,
   Use separate write segment = 0,
   Low (write) water mark = 0.25,
   High (read) water mark = 0.5,
   Set watermark by reqsize = 1,
   Calc sector by sector = 1,
   Enable caching in buffer = 1,
   Buffer continuous read = 3,
   Minimum read-ahead (blks) = 8,
   Maximum read-ahead (blks) = 4,
   Read-ahead over requested = 0,
   Read-ahead on idle hit = 1,
   Fast write level = 1,
   Combine seq writes = 1,
   Stop prefetch in sector = 0,
   Write hit stop prefetch = 1,
   Read directly to buffer = 1,
   Immed transfer partial hit = 1,
   Read any free blocks = 0,
   Immediate buffer read = 0,
   Immediate buffer write = 2,
   Read hit over. after read = 0.2,
   Read hit over. after write = 0.3,
   Read miss over. after read = 0.4,
   Read miss over. after write = 0.5,
   Write hit over. after read = 0.6,
   Write hit over. after write = 0.7,
   Write miss over. after read = 0.8,
   Write miss over. after write = 0.9,
   Read completion overhead = 0.11,
   Write completion overhead = 0.12,
   Data preparation overhead = 0.13,
   First reselect overhead = 0.14,
   Other reselect overhead = 0.15,
   Read disconnect afterread = 0.16,
   Read disconnect afterwrite = 0.17,
   Write disconnect overhead = 0.18,
   Extra write disconnect = 0,
   Extradisc seek delta = 0.25,
   Minimum seek delay = 0.6
}
)";

constexpr std::string_view kModel = R"(dm_disk M {
   Number of data surfaces = 2,
   Number of cylinders = 100,
   Block count = 1,
   Layout Model = dm_layout_g1 {
      LBN-to-PBN mapping scheme = 0,
      Sparing scheme used = 0,
      Rangesize for sparing = 1,
      Zones = [
         dm_layout_g1_zone {
            First cylinder number = 0, Last cylinder number = 49, Blocks per track = 20,
            Offset of first block = 1.7, Empty space at zone front = 0,
            Skew for track switch = 3.9, Skew for cylinder switch = 5.0,
            Number of spares = 0, slips = [], defects = []
         },
         dm_layout_g1_zone {
            First cylinder number = 50, Last cylinder number = 99, Blocks per track = 16,
            Offset of first block = 0, Empty space at zone front = 0,
            Number of spares = 0, slips = [], defects = []
         }
      ]
   },
   Mechanical Model = dm_mech_g1 {
      Access time type = trackSwitchPlusRotation,
      Seek type = extracted,
      Full seek curve = t.seek,
      Single cylinder seek time = 1.0,
      Add. write settling delay = 0.5,
      Head switch time = 0.8,
      Rotation speed (in rpms) = 7200,
      Percent error in rpms = 0.0
   }
}
)";

constexpr std::string_view kSeek = "Seek distances measured: 3\n1, 1.0\n10,\t2.0, 0.1\n99, 5.5\n";

// The synthetic drive in a fresh folder; Replace() alters one file before Import().
class SyntheticDrive {
 public:
  SyntheticDrive() {
    dir_ = std::filesystem::temp_directory_path() /
           ("ziosim_import_" + std::to_string(std::random_device{}()) + "_" + std::to_string(counter_++));
    std::filesystem::create_directories(dir_);
    files_ = {{"t.parv", std::string(kParv)},
              {"t.diskspecs", std::string(kDiskspecs)},
              {"t.model", std::string(kModel)},
              {"t.seek", std::string(kSeek)}};
  }
  ~SyntheticDrive() { std::filesystem::remove_all(dir_); }

  void Replace(const std::string& file, const std::string& from, const std::string& to) {
    std::string& text = files_.at(file);
    const size_t at = text.find(from);
    ASSERT_NE(at, std::string::npos) << from;
    text.replace(at, from.size(), to);
  }

  // "DIR/FILE:LINE" of the first line of `file` containing `needle`.
  std::string Where(const std::string& file, const std::string& needle) const {
    const std::string& text = files_.at(file);
    const size_t at = text.find(needle);
    EXPECT_NE(at, std::string::npos) << needle;
    return Path(file) + ":" + std::to_string(1 + std::count(text.begin(), text.begin() + at, '\n'));
  }

  std::string Path(const std::string& file) const { return (dir_ / file).string(); }

  // Caching off, and the read-ahead and fast writes DiskSim refuses without it.
  void TurnCachingOff() {
    Replace("t.diskspecs", "Enable caching in buffer = 1", "Enable caching in buffer = 0");
    Replace("t.diskspecs", "Buffer continuous read = 3", "Buffer continuous read = 0");
    Replace("t.diskspecs", "Fast write level = 1", "Fast write level = 0");
  }

  // `disk`: "" for the spec's default disk, or "#NAME".
  DisksimImport Import(const std::string& disk = "", DisksimHost host = DisksimHost::kInTimes) {
    for (const auto& [name, text] : files_) std::ofstream(dir_ / name, std::ios::binary) << text;
    return ImportDisksimDrive(Path("t.parv") + disk, host);
  }

  std::string ErrorOfImport(const std::string& disk = "", DisksimHost host = DisksimHost::kInTimes) {
    try {
      Import(disk, host);
    } catch (const InputError& e) {
      return e.what();
    }
    return "no error";
  }

 private:
  static inline int counter_ = 0;
  std::filesystem::path dir_;
  std::map<std::string, std::string> files_;
};

TEST(DisksimImportTest, MapsSyntheticDrive) {
  SyntheticDrive drive;
  const DisksimImport import = drive.Import();
  const HddParams& p = import.params;
  EXPECT_EQ(p.name, "D");
  EXPECT_EQ(p.queue_depth, 4);
  // b = max(disk bulk time, bus1 time); bus0 is never read.
  EXPECT_EQ(p.interface.bus_read_block_ns, 100000);
  EXPECT_EQ(p.interface.bus_write_block_ns, 150000);
  EXPECT_EQ(p.interface.per_request_ns, 10000);
  EXPECT_EQ(p.interface.read_hit_ns[0], 200000);
  EXPECT_EQ(p.interface.read_hit_ns[1], 300000);
  EXPECT_EQ(p.interface.read_miss_ns[1], 500000);
  EXPECT_EQ(p.interface.write_hit_ns[0], 600000);
  EXPECT_EQ(p.interface.write_miss_ns[1], 900000);
  EXPECT_EQ(p.interface.read_completion_ns, 110000);
  EXPECT_EQ(p.interface.write_completion_ns, 120000);
  EXPECT_EQ(p.interface.data_prep_ns, 130000);
  EXPECT_EQ(p.interface.first_reselect_ns, 140000);
  EXPECT_EQ(p.interface.other_reselect_ns, 150000);
  EXPECT_EQ(p.interface.read_disconnect_ns[0], 160000);
  EXPECT_EQ(p.interface.read_disconnect_ns[1], 170000);
  EXPECT_EQ(p.interface.write_disconnect_ns, 180000);
  EXPECT_EQ(p.interface.min_seek_delay_ns, 600000);
  EXPECT_DOUBLE_EQ(p.interface.read_watermark, 0.5);
  EXPECT_EQ(p.cache.segments, 2);
  EXPECT_EQ(p.cache.segment_blocks, 100);
  EXPECT_EQ(p.cache.min_read_ahead_blocks, 8);
  EXPECT_EQ(p.cache.max_read_ahead_blocks, 8);  // raised to the minimum, as DiskSim does
  EXPECT_TRUE(p.cache.read_ahead_on_idle_hit);
  EXPECT_EQ(p.mechanics.head_switch_ns, 800000);
  EXPECT_EQ(p.mechanics.write_settle_ns, 500000);
  EXPECT_EQ(p.mechanics.seek.table,
            (std::vector<std::pair<int, SimTime>>{{1, 1000000}, {10, 2000000}, {99, 5500000}}));
  ASSERT_EQ(p.layout.zones.size(), 2u);
  EXPECT_EQ(p.layout.zones[0].first_block_offset_sectors, 1);  // integer part, as DiskSim
  EXPECT_EQ(p.layout.zones[0].track_skew_sectors, 3);
  EXPECT_EQ(p.layout.zones[0].cylinder_skew_sectors, 5);
  EXPECT_EQ(p.layout.zones[1].track_skew_sectors, 0);  // optional, default 0
  EXPECT_EQ(HddGeometry(p.layout).total_blocks(), 50 * 2 * 20 + 50 * 2 * 16);

  std::set<std::string> ignored(import.ignored.begin(), import.ignored.end());
  EXPECT_EQ(ignored.count(drive.Where("t.diskspecs", "Calc sector") + ": Calc sector by sector"), 1u);
  EXPECT_EQ(ignored.count(drive.Where("t.diskspecs", "Scheduling policy") + ": Timeout time/weight"), 1u);
  EXPECT_EQ(ignored.count(drive.Where("t.diskspecs", "Never disconnect") + ": Never disconnect"), 0u);
  EXPECT_FALSE(p.interface.never_disconnect);
  EXPECT_FALSE(p.cache.read_any_free_blocks);
  EXPECT_FALSE(p.cache.zero_latency_reads);
  EXPECT_TRUE(p.cache.zero_latency_writes);  // 2 behaves as 1 in DiskSim
  EXPECT_EQ(ignored.count(drive.Where("t.diskspecs", "Extradisc seek") + ": Extradisc seek delta"), 1u);
  // A write's data never wait for room in a segment: how they would is not modelled.
  EXPECT_EQ(ignored.count(drive.Where("t.diskspecs", "Hold bus entire write") + ": Hold bus entire write xfer"), 1u);
  EXPECT_EQ(ignored.count(drive.Where("t.diskspecs", "Low (write)") + ": Low (write) water mark"), 1u);
  EXPECT_EQ(ignored.count(drive.Where("t.model", "Single cylinder") + ": Single cylinder seek time"), 1u);
  EXPECT_EQ(ignored.count(drive.Where("t.model", "Rangesize") + ": Rangesize for sparing"), 1u);
  EXPECT_EQ(ignored.count(drive.Where("t.parv", "Arbitration time") + ": Arbitration time"), 0u);
  EXPECT_EQ(p.interface.bus_arbitration_ns, 0);
}

TEST(DisksimImportTest, ReadsTheDiskBussArbitrationTime) {
  SyntheticDrive drive;
  drive.Replace("t.parv", "Arbitration time = 0.0", "Arbitration time = 0.02");
  EXPECT_EQ(drive.Import().params.interface.bus_arbitration_ns, 20000);
  drive.Replace("t.diskspecs", "Never disconnect = 0", "Never disconnect = 1");  // a bus held, or not
  EXPECT_EQ(drive.Import().params.interface.bus_arbitration_ns, 20000);
  drive.Replace("t.parv", "Arbitration time = 0.02", "Arbitration time = -1");
  EXPECT_EQ(drive.ErrorOfImport(), drive.Where("t.parv", "Arbitration time") + ": 'Arbitration time' must be at least 0");
}

TEST(DisksimImportTest, TimeScaleAppliesToOverheadsButNotMinimumSeekDelay) {
  SyntheticDrive drive;
  drive.Replace("t.diskspecs", "Time scale for overheads = 1.0", "Time scale for overheads = 0.5");
  const HddParams p = drive.Import().params;
  EXPECT_EQ(p.interface.read_hit_ns[0], 100000);
  EXPECT_EQ(p.interface.write_disconnect_ns, 90000);
  EXPECT_EQ(p.interface.per_request_ns, 5000);
  EXPECT_EQ(p.interface.min_seek_delay_ns, 600000);
  EXPECT_EQ(p.interface.bus_read_block_ns, 100000);  // a transfer time, not an overhead
}

TEST(DisksimImportTest, ReadsHplSeeks) {
  SyntheticDrive drive;
  drive.Replace("t.model", "Seek type = extracted,",
                "Seek type = hplplus10,\n      HPL seek equation values = [ 30, 1.5, 0.25, 3.0, 0.01, -1 ],\n"
                "      First ten seek times = [ 1, 1.1, 1.2, 1.3, 1.4, 1.5, 1.6, 1.7, 1.8, 1.9 ],");
  const HddParams p = drive.Import().params;
  ASSERT_EQ(p.mechanics.seek.kind, HddSeekModel::Kind::kHpl);
  EXPECT_DOUBLE_EQ(p.mechanics.seek.hpl[0], 30);
  EXPECT_DOUBLE_EQ(p.mechanics.seek.hpl[4], 0.01);
  EXPECT_DOUBLE_EQ(p.mechanics.seek.hpl[5], -1);
  ASSERT_EQ(p.mechanics.seek.first_ten.size(), 10u);
  EXPECT_EQ(p.mechanics.seek.first_ten[9], 1900000);
}

TEST(DisksimImportTest, ReadsThreePointSeeks) {
  SyntheticDrive drive;
  drive.Replace("t.model", "Seek type = extracted,", "Seek type = curve,\n      Average seek time = 8.5,\n"
                                                      "      Full strobe seek time = 17,");
  const HddParams p = drive.Import().params;
  ASSERT_EQ(p.mechanics.seek.kind, HddSeekModel::Kind::kThreePoint);
  EXPECT_EQ(p.mechanics.seek.single_cylinder_ns, 1000000);
  EXPECT_EQ(p.mechanics.seek.average_ns, 8500000);
  EXPECT_EQ(p.mechanics.seek.full_stroke_ns, 17000000);
}

// Skew units = revolutions: the offset and skews are angles, kept whole. Zone 0 has 20
// sectors per track: offset 1.7 rev = 34 sectors (sector 14 of the turn), a track skew
// of 0.0125 rev = 0.25 sector, a cylinder skew of 5 rev = 100 sectors.
TEST(DisksimImportTest, SkewsInRevolutions) {
  SyntheticDrive drive;
  drive.Replace("t.model", "Rangesize for sparing = 1,", "Rangesize for sparing = 1,\n      Skew units = revolutions,");
  drive.Replace("t.model", "Skew for track switch = 3.9", "Skew for track switch = 0.0125");
  const HddGeometry g(drive.Import().params.layout);
  EXPECT_DOUBLE_EQ(g.StartAngle({0, 0, 0}), 14.0 / 20);
  EXPECT_DOUBLE_EQ(g.StartAngle({0, 1, 0}), 14.25 / 20);
  EXPECT_DOUBLE_EQ(g.StartAngle({1, 0, 0}), 14.25 / 20);  // one track skew, then the cylinder skew
  EXPECT_DOUBLE_EQ(g.StartAngle({1, 1, 3}), 17.5 / 20);
  SyntheticDrive wrong;
  wrong.Replace("t.model", "Rangesize for sparing = 1,", "Rangesize for sparing = 1,\n      Skew units = degrees,");
  EXPECT_EQ(wrong.ErrorOfImport(),
            wrong.Where("t.model", "Skew units") + ": 'Skew units' = 'degrees' does not exist (sectors, revolutions)");
}

TEST(DisksimImportTest, ReadsLinearAndConstantSeeks) {
  SyntheticDrive linear;
  linear.Replace("t.model", "Seek type = extracted,", "Seek type = linear,\n      Average seek time = 8.5,\n"
                                                       "      Full strobe seek time = 17,");
  const HddParams p = linear.Import().params;
  EXPECT_EQ(p.mechanics.seek.kind, HddSeekModel::Kind::kLinear);
  EXPECT_EQ(p.mechanics.seek.average_ns, 8500000);
  SyntheticDrive constant;
  constant.Replace("t.model", "Seek type = extracted,", "Seek type = constant,\n      Constant seek time = 2.5,");
  const HddParams q = constant.Import().params;
  EXPECT_EQ(q.mechanics.seek.kind, HddSeekModel::Kind::kConstant);
  EXPECT_EQ(q.mechanics.seek.constant_ns, 2500000);
  SyntheticDrive missing;
  missing.Replace("t.model", "Seek type = extracted,", "Seek type = constant,");
  EXPECT_EQ(missing.ErrorOfImport(), missing.Where("t.model", "Mechanical Model") + ": dm_mech_g1 block lacks 'Constant seek time'");
}

TEST(DisksimImportTest, MissingKeyNamesTheBlock) {
  SyntheticDrive drive;
  drive.Replace("t.diskspecs", "   Bulk sector transfer time = 0.1,\n", "");
  EXPECT_EQ(drive.ErrorOfImport(),
            drive.Path("t.diskspecs") + ":1: disksim_disk D block lacks 'Bulk sector transfer time'");
}

TEST(DisksimImportTest, MissingZoneKeyNamesTheZone) {
  SyntheticDrive drive;
  drive.Replace("t.model", "Blocks per track = 16,", "");
  EXPECT_EQ(drive.ErrorOfImport(),
            drive.Where("t.model", "dm_layout_g1_zone {\n            First cylinder number = 50") +
                ": dm_layout_g1_zone block lacks 'Blocks per track'");
}

TEST(DisksimImportTest, NonNumericValueNamesKeyAndLine) {
  SyntheticDrive drive;
  drive.Replace("t.diskspecs", "Number of buffer segments = 2", "Number of buffer segments = two");
  EXPECT_EQ(drive.ErrorOfImport(), drive.Where("t.diskspecs", "Number of buffer segments") +
                                       ": 'Number of buffer segments' must be a number, found 'two'");
}

TEST(DisksimImportTest, RefusesUnsupportedConstructs) {
  {
    SyntheticDrive drive;
    drive.Replace("t.model", "Sparing scheme used = 0", "Sparing scheme used = 11");
    EXPECT_EQ(drive.ErrorOfImport(),
              drive.Where("t.model", "Sparing scheme used") + ": 'Sparing scheme used' = 11 is outside 0..10");
  }
  {
    SyntheticDrive drive;
    drive.Replace("t.model", "LBN-to-PBN mapping scheme = 0", "LBN-to-PBN mapping scheme = 3");
    EXPECT_EQ(drive.ErrorOfImport(),
              drive.Where("t.model", "LBN-to-PBN") + ": 'LBN-to-PBN mapping scheme' = 3 is outside 0..2");
  }
  {
    SyntheticDrive drive;
    drive.Replace("t.diskspecs", "Never disconnect = 0", "Never disconnect = 2");
    EXPECT_EQ(drive.ErrorOfImport(),
              drive.Where("t.diskspecs", "Never disconnect") + ": 'Never disconnect' = 2 is outside 0..1");
  }
  {
    SyntheticDrive drive;
    drive.TurnCachingOff();
    drive.Replace("t.diskspecs", "Read any free blocks = 0", "Read any free blocks = 1");
    EXPECT_EQ(drive.ErrorOfImport(), drive.Where("t.diskspecs", "Read any free blocks") +
                                         ": caching is off, which DiskSim refuses with 'Read any free blocks'");
  }
  {
    SyntheticDrive drive;
    drive.Replace("t.parv", "Scale for delays = 0.0", "Scale for delays = 1.0");
    EXPECT_EQ(drive.ErrorOfImport(),
              drive.Where("t.parv", "Scale for delays") +
                  ": 'Scale for delays' = 1.0 is not supported: the model charges nothing for messages through the "
                  "controller: scale (0)");
  }
  {
    SyntheticDrive drive;
    drive.Replace("t.parv", "disksim_ctlr CTLR0 { type = 1", "disksim_ctlr CTLR0 { type = 3");
    EXPECT_EQ(drive.ErrorOfImport(),
              drive.Where("t.parv", "disksim_ctlr") +
                  ": 'type' = 3 is not supported: the model passes requests through the controller unchanged (types 2 "
                  "and 3 are controller models): controller type (1)");
  }
  {
    SyntheticDrive drive;
    drive.Replace("t.model", "Seek type = extracted", "Seek type = spline");
    EXPECT_EQ(drive.ErrorOfImport(),
              drive.Where("t.model", "Seek type") +
                  ": seek type 'spline' does not exist (extracted, hpl, hplplus10, linear, curve, constant)");
  }
}

// DiskSim's disk_postpass_perdisk refuses these segment counts; so does the import.
TEST(DisksimImportTest, RefusesSegmentCountsDiskSimRefuses) {
  {
    SyntheticDrive drive;
    drive.Replace("t.diskspecs", "Maximum number of write segments = 1", "Maximum number of write segments = 3");
    EXPECT_EQ(drive.ErrorOfImport(), drive.Where("t.diskspecs", "Maximum number of write") +
                                         ": 'Maximum number of write segments' = 3 is outside 1..2");
  }
  {
    SyntheticDrive drive;
    drive.Replace("t.diskspecs", "Number of buffer segments = 2", "Number of buffer segments = 1");
    drive.Replace("t.diskspecs", "Use separate write segment = 0", "Use separate write segment = 1");
    EXPECT_EQ(drive.ErrorOfImport(), drive.Where("t.diskspecs", "Use separate write") +
                                         ": 'Use separate write segment' = 1 needs 2 or more buffer segments, which "
                                         "DiskSim requires");
  }
  {
    SyntheticDrive drive;  // caching off or not
    drive.TurnCachingOff();
    drive.Replace("t.diskspecs", "Number of buffer segments = 2", "Number of buffer segments = 0");
    EXPECT_EQ(drive.ErrorOfImport(), drive.Where("t.diskspecs", "Number of buffer") +
                                         ": 'Number of buffer segments' = 0 is outside 1..2147483647");
  }
}

// DiskSim's host side (device driver, controllers) would add time to every request. A
// replay of DiskSim's own trace needs it, so a setting the model lacks is refused; a
// drive serving ziosim's host (a pool) takes none of it, so the setting is listed as
// ignored. Either way, a value DiskSim refuses is refused.
TEST(DisksimImportTest, HostSideRefusedInReplayedTimesIgnoredUnderZiosimsHost) {
  SyntheticDrive drive;
  const std::vector<std::string> before = drive.Import("", DisksimHost::kReplaced).ignored;
  std::set<std::string> plain(before.begin(), before.end());
  drive.Replace("t.parv", "Constant access time = 0.0", "Constant access time = -1.0");
  drive.Replace("t.parv", "CTLR0 { type = 1, Scale for delays = 0.0 }", "CTLR0 { type = 3, Scale for delays = 2.0 }");
  EXPECT_EQ(drive.ErrorOfImport("", DisksimHost::kInTimes),
            drive.Where("t.parv", "Constant access time") +
                ": 'Constant access time' = -1.0 is not supported: the model simulates the device instead of a "
                "constant access time (0)");
  const DisksimImport replaced = drive.Import("", DisksimHost::kReplaced);
  std::set<std::string> ignored(replaced.ignored.begin(), replaced.ignored.end());
  for (const auto& [needle, key] : {std::pair{"Constant access time", "Constant access time"},
                                    std::pair{"CTLR0", "type"}, std::pair{"CTLR0", "Scale for delays"}}) {
    EXPECT_EQ(ignored.erase(drive.Where("t.parv", needle) + ": " + key), 1u) << key;
  }
  // Nothing else moved, but that a key is listed once: the controller's type stands
  // for the disk bus's, listed before.
  EXPECT_EQ(plain.erase(drive.Where("t.parv", "type = 1,\n   Arbitration time") + ": type"), 1u);
  EXPECT_EQ(ignored, plain);
  EXPECT_EQ(replaced.params.name, "D");
  EXPECT_EQ(replaced.params.queue_depth, 4);
  // A pool takes its disksim: drives this way.
  EXPECT_EQ(ResolveDrive("disksim:" + drive.Path("t.parv")).hdd.queue_depth, 4);

  for (const DisksimHost host : {DisksimHost::kInTimes, DisksimHost::kReplaced}) {
    {
      SyntheticDrive bad;
      bad.Replace("t.parv", "CTLR0 { type = 1", "CTLR0 { type = 4");
      EXPECT_EQ(bad.ErrorOfImport("", host), bad.Where("t.parv", "CTLR0") + ": 'type' = 4 is outside 1..3");
    }
    {
      SyntheticDrive bad;
      bad.Replace("t.parv", "Scale for delays = 0.0", "Scale for delays = -1");
      EXPECT_EQ(bad.ErrorOfImport("", host), bad.Where("t.parv", "CTLR0") + ": 'Scale for delays' must be at least 0");
    }
    {
      SyntheticDrive bad;
      bad.Replace("t.parv", "Constant access time = 0.0", "Constant access time = -0.5");
      EXPECT_EQ(bad.ErrorOfImport("", host), bad.Where("t.parv", "Constant access time") +
                                                 ": 'Constant access time' = -0.5 is neither >= 0 nor -1, -2 or -3");
    }
  }
}

// The disk's own scheduler: FCFS that merges and ranks nothing serves the queue in
// arrival order, which becomes the drive's own order (a pool's, and replay's
// default); its keys are used, the other scheduler keys listed as ignored. A scheduler
// the model does not have (SATF_OPT, which DiskSim 4.0 cannot run), or one with a
// sequential stream scheme or a priority scheme, is not modelled: every key of the
// block is listed, and the caller's order applies.
TEST(DisksimImportTest, FcfsSchedulerMakesTheDriveServeItsQueueInArrivalOrder) {
  SyntheticDrive fcfs;
  const DisksimImport arrival = fcfs.Import("", DisksimHost::kReplaced);
  EXPECT_EQ(arrival.queue_order, QueuePolicy::kFifo);
  std::set<std::string> ignored(arrival.ignored.begin(), arrival.ignored.end());
  const std::string scheduler = fcfs.Where("t.diskspecs", "Scheduling policy");
  EXPECT_EQ(ignored.count(scheduler + ": Scheduling policy"), 0u);
  EXPECT_EQ(ignored.count(scheduler + ": Timeout time/weight"), 1u);
  const DriveSpec spec = ResolveDrive("disksim:" + fcfs.Path("t.parv"));
  EXPECT_EQ(spec.queue_order, QueuePolicy::kFifo);
  EXPECT_EQ(NativeQueuePolicy(spec), QueuePolicy::kFifo);  // queue of 4: a catalog drive's would be sptf

  for (const auto& [from, to] : {std::pair{"Scheduling policy = 1", "Scheduling policy = 10"},
                                 std::pair{"Timeout time/weight = 6", "Sequential stream scheme = 1"},
                                 std::pair{"Scheduling policy = 1",
                                           "Scheduling policy = 8, Scheduling priority scheme = 1"}}) {
    SyntheticDrive other;
    other.Replace("t.diskspecs", from, to);
    const DisksimImport import = other.Import("", DisksimHost::kReplaced);
    EXPECT_FALSE(import.queue_order) << to;
    std::set<std::string> listed(import.ignored.begin(), import.ignored.end());
    EXPECT_EQ(listed.count(other.Where("t.diskspecs", "Scheduling policy") + ": Scheduling policy"), 1u) << to;
    EXPECT_EQ(NativeQueuePolicy(ResolveDrive("disksim:" + other.Path("t.parv"))), QueuePolicy::kSptf) << to;
  }
}

// DiskSim's address-ordered disk schedulers become the drive's own order: ELEVATOR_LBN
// (2), CYCLE_LBN (3), SSTF_LBN (4), ELEVATOR_CYL (5), CYCLE_CYL (6), SSTF_CYL (7),
// VSCAN_LBN (17, which DiskSim runs as SSTF_LBN) and VSCAN_CYL (18). The cylinder
// mapping strategy changes nothing as DiskSim 4.0 runs (every request on cylinder 0):
// listed as ignored.
TEST(DisksimImportTest, AddressOrderedSchedulersBecomeTheDrivesOwnOrder) {
  for (const auto& [number, policy] :
       {std::pair{2, QueuePolicy::kElevatorLbn}, std::pair{3, QueuePolicy::kCycleLbn}, std::pair{4, QueuePolicy::kSstfLbn},
        std::pair{5, QueuePolicy::kElevatorCyl}, std::pair{6, QueuePolicy::kCycleCyl}, std::pair{7, QueuePolicy::kSstfCyl},
        std::pair{17, QueuePolicy::kSstfLbn}, std::pair{18, QueuePolicy::kVscanCyl}}) {
    SyntheticDrive drive;
    drive.Replace("t.diskspecs", "Scheduling policy = 1",
                  "Scheduling policy = " + std::to_string(number) + ", Cylinder mapping strategy = 1");
    const DisksimImport import = drive.Import("", DisksimHost::kReplaced);
    EXPECT_EQ(import.queue_order, policy) << number;
    std::set<std::string> listed(import.ignored.begin(), import.ignored.end());
    const std::string scheduler = drive.Where("t.diskspecs", "Scheduling policy");
    EXPECT_EQ(listed.count(scheduler + ": Scheduling policy"), 0u) << number;
    EXPECT_EQ(listed.count(scheduler + ": Cylinder mapping strategy"), 1u) << number;
    EXPECT_EQ(listed.count(scheduler + ": Timeout time/weight"), 1u) << number;
    EXPECT_EQ(NativeQueuePolicy(ResolveDrive("disksim:" + drive.Path("t.parv"))), policy) << number;
  }
}

// DiskSim's positioning-time schedulers become the drive's own order: SPTF_OPT (8),
// SPCTF_OPT (9), WPTF_OPT (11), WPCTF_OPT (12), ASPTF_OPT (14), ASPCTF_OPT (15),
// SPTF_ROT_OPT (24: SPTF_OPT, its latency weight being 0), SPTF_ROT_WEIGHT (25) and
// SPTF_SEEK_WEIGHT (26), with the initiation delays and the age weight, then used; so do SDF_APPROX
// (22) and SDF_EXACT (23), without them. Under an address-ordered scheduler, which never
// reads them either, they are listed as ignored.
TEST(DisksimImportTest, PositioningTimeSchedulersTakeTheirDelaysAndWeight) {
  for (const auto& [number, policy] :
       {std::pair{8, QueuePolicy::kSptfOpt}, std::pair{9, QueuePolicy::kSpctfOpt}, std::pair{11, QueuePolicy::kWptfOpt},
        std::pair{12, QueuePolicy::kWpctfOpt}, std::pair{14, QueuePolicy::kAsptfOpt},
        std::pair{15, QueuePolicy::kAspctfOpt}, std::pair{20, QueuePolicy::kPriAsptfOpt},
        std::pair{21, QueuePolicy::kPriAspctfOpt}, std::pair{24, QueuePolicy::kSptfOpt},
        std::pair{25, QueuePolicy::kSptfRotWeight}, std::pair{26, QueuePolicy::kSptfSeekWeight}}) {
    SyntheticDrive drive;
    drive.Replace("t.diskspecs", "Scheduling policy = 1",
                  "Scheduling policy = " + std::to_string(number) +
                      ", Read initiation delay = 0.25, Write initiation delay = 0.5");
    const DisksimImport import = drive.Import("", DisksimHost::kReplaced);
    EXPECT_EQ(import.queue_order, policy) << number;
    EXPECT_EQ(import.params.scheduler.read_initiation_delay_ns, 250'000) << number;
    EXPECT_EQ(import.params.scheduler.write_initiation_delay_ns, 500'000) << number;
    EXPECT_EQ(import.params.scheduler.age_weight, 6) << number;
    std::set<std::string> listed(import.ignored.begin(), import.ignored.end());
    const std::string scheduler = drive.Where("t.diskspecs", "Scheduling policy");
    for (const char* key : {"Scheduling policy", "Read initiation delay", "Timeout time/weight"}) {
      EXPECT_EQ(listed.count(scheduler + ": " + key), 0u) << number << " " << key;
    }
  }
  for (const auto& [number, policy] : {std::pair{22, QueuePolicy::kSdfApprox}, std::pair{23, QueuePolicy::kSdfExact}}) {
    SyntheticDrive sdf;
    sdf.Replace("t.diskspecs", "Scheduling policy = 1",
                "Scheduling policy = " + std::to_string(number) + ", Read initiation delay = 0.25");
    const DisksimImport import = sdf.Import("", DisksimHost::kReplaced);
    EXPECT_EQ(import.queue_order, policy) << number;
    EXPECT_EQ(import.params.scheduler.read_initiation_delay_ns, 0) << number;  // SDF reads no delay
  }
  // A delay too long for any command to be picked by cost stays too long, and fits.
  SyntheticDrive slow;
  slow.Replace("t.diskspecs", "Scheduling policy = 1", "Scheduling policy = 8, Read initiation delay = 100000000000000000000.0");
  EXPECT_EQ(slow.Import("", DisksimHost::kReplaced).params.scheduler.read_initiation_delay_ns, MsToNs(1e6));
  // PRI_VSCAN_LBN (19) takes the sweep and the weight of reads instead.
  SyntheticDrive pri;
  pri.Replace("t.diskspecs", "Scheduling policy = 1",
              "Scheduling policy = 19, Timeout scheduling = 2, Priority scheduling = 7, Read initiation delay = 0.25");
  const DisksimImport pri_import = pri.Import("", DisksimHost::kReplaced);
  EXPECT_EQ(pri_import.queue_order, QueuePolicy::kPriVscanLbn);
  EXPECT_EQ(pri_import.params.scheduler.timeout_scheduling, 2);
  EXPECT_EQ(pri_import.params.scheduler.priority_scheduling, 7);
  EXPECT_EQ(pri_import.params.scheduler.read_initiation_delay_ns, 0);
  SyntheticDrive sstf;
  sstf.Replace("t.diskspecs", "Scheduling policy = 1", "Scheduling policy = 4, Read initiation delay = 0.25");
  const DisksimImport import = sstf.Import("", DisksimHost::kReplaced);
  EXPECT_EQ(import.queue_order, QueuePolicy::kSstfLbn);
  EXPECT_EQ(import.params.scheduler.read_initiation_delay_ns, 0);
  std::set<std::string> listed(import.ignored.begin(), import.ignored.end());
  EXPECT_EQ(listed.count(sstf.Where("t.diskspecs", "Scheduling policy") + ": Read initiation delay"), 1u);
}

// Every scheduler key is held to DiskSim's range (ioqueue.modspec), modelled or not.
TEST(DisksimImportTest, SchedulerKeysOutsideDiskSimsRangesNameFileAndLine) {
  for (const auto& [to, message] :
       {std::pair{"Scheduling policy = 29", "'Scheduling policy' = 29 is outside 1..28"},
        std::pair{"Scheduling policy = 0", "'Scheduling policy' = 0 is outside 1..28"},
        std::pair{"Scheduling policy = 8, Read initiation delay = -1", "'Read initiation delay' = -1 is outside 0.."},
        std::pair{"Scheduling policy = 10, Timeout scheduling = 22", "'Timeout scheduling' = 22 is outside 0..21"},
        std::pair{"Scheduling policy = 1, Overlapping request scheme = 3",
                  "'Overlapping request scheme' = 3 is outside 0..2"}}) {
    SyntheticDrive bad;
    bad.Replace("t.diskspecs", "Scheduling policy = 1", to);
    const std::string key = std::string(message).substr(1, std::string(message).find('\'', 1) - 1);
    EXPECT_EQ(bad.ErrorOfImport(), bad.Where("t.diskspecs", key) + ": " + message) << to;
  }
  SyntheticDrive weight;
  weight.Replace("t.diskspecs", "Timeout time/weight = 6", "Timeout time/weight = 1.5");
  EXPECT_EQ(weight.ErrorOfImport(), weight.Where("t.diskspecs", "Timeout time/weight") +
                                        ": 'Timeout time/weight' must be an integer, found '1.5'");
}

// A spec may hold disks of several kinds (DiskSim's 3disks.parv): "#NAME" picks one,
// and DiskSim's device 0, the topology's first disk, is the default.
TEST(DisksimImportTest, NamesOneDiskOfSeveralKinds) {
  SyntheticDrive drive;
  drive.Replace("t.parv", "instantiate [ disk0 ] as D", "instantiate [ disk0 ] as D\ninstantiate [ disk1 ] as E");
  drive.Replace("t.parv", "disksim_disk disk0 []", "disksim_disk disk0 [],\n            disksim_disk disk1 []");
  std::string e(kDiskspecs);
  e.replace(e.find("disksim_disk D {"), 16, "disksim_disk E {");
  e.replace(e.find("Max queue length = "), 20, "Max queue length = 7");  // D has 4
  drive.Replace("t.diskspecs", "disksim_disk D {", e + "\ndisksim_disk D {");
  const DisksimImport first = drive.Import();
  EXPECT_EQ(first.params.name, "D");
  EXPECT_EQ(DescribeDisks(first.disks), "disk0 (D), disk1 (E)");
  EXPECT_EQ(first.disk, "disk0");
  EXPECT_EQ(drive.Import("#disk1").params.name, "E");
  EXPECT_NE(drive.Import("#disk1").params.queue_depth, first.params.queue_depth);
  EXPECT_EQ(drive.Import("#disk0").params.name, "D");
  EXPECT_EQ(drive.ErrorOfImport("#disk2"),
            drive.Path("t.parv") + ": no disk 'disk2' in its topology; its disks: disk0 (D), disk1 (E)");
  EXPECT_EQ(drive.ErrorOfImport("#"), drive.Path("t.parv") + "#: no disk name after '#'");
  SyntheticDrive mems;
  mems.Replace("t.parv", "disksim_disk disk0 []", "memsmodel_mems mems0 []");
  EXPECT_EQ(mems.ErrorOfImport(), mems.Where("t.parv", "topology") +
                                      ": the topology has no disksim_disk; MEMS devices and simple disks are not "
                                      "HDDs, the only disks ziosim models");
}

// g2 and g4 keys of a wrong type, range or combination name their file and line.
TEST(DisksimImportTest, ExplicitLayoutErrorsNameFileAndLine) {
  auto g4 = [](SyntheticDrive& drive, const std::string& tables) {
    drive.Replace("t.model", "Block count = 1,", "Block count = 60,");
    const std::string g1 = std::string(kModel).substr(std::string(kModel).find("Layout Model"));
    drive.Replace("t.model", g1.substr(0, g1.find("Mechanical Model")),
                  "Layout Model = dm_layout_g4 {\n" + tables + "},\n   ");
  };
  const std::string tp = "TP = [ 0, 19, 20 ],\n";
  const std::string idx = "IDX = [ [ 0, 0, 0.0, 20, 1, 0.0, 20, 1, TRACK, 0, 0,\n"
                          " 20, 0, 0.5, 20, 1, 0.0, 20, 1, TRACK, 0, 1 ],\n"
                          "[ 0, 0, 0.0, 40, 1, 0.25, 4000, 100, IDX, 0 ] ],\n";
  {
    SyntheticDrive drive;
    g4(drive, tp + idx + "Slips = [ 0, 0 ],\nRemaps = [ ]\n");
    const HddParams p = drive.Import().params;
    EXPECT_EQ(p.layout.extents.size(), 3u);  // tracks (0, 0), (0, 1), (1, 0)
    EXPECT_EQ(p.layout.extents[2].cylinder, 1);
  }
  {
    SyntheticDrive drive;
    g4(drive, tp + idx + "Slips = [ ],\nRemaps = [ ]\n");
    EXPECT_EQ(drive.ErrorOfImport(), drive.Where("t.model", "dm_layout_g4") +
                                         ": 'Slips' is empty; DiskSim needs one entry at least (0, 0 for none)");
  }
  {
    SyntheticDrive drive;
    g4(drive, tp + idx + "Slips = [ 0, 0, 5 ],\nRemaps = [ ]\n");
    EXPECT_EQ(drive.ErrorOfImport(), drive.Where("t.model", "Slips") + ": 'Slips' must list entries of 2 numbers");
  }
  {
    SyntheticDrive drive;
    g4(drive, "TP = [ 0, 19, 19 ],\n" + idx + "Slips = [ 0, 0 ],\nRemaps = [ ]\n");
    EXPECT_EQ(drive.ErrorOfImport(),
              drive.Where("t.model", "TP =") + ": 'TP' entry (0, 19, 19) does not fit its track: LBNs low..high lie "
                                               "on sectors 2*low..low+high of spt");
  }
  {
    SyntheticDrive drive;
    std::string bad = idx;
    bad.replace(bad.find("TRACK, 0, 1"), 11, "TRACK, 0, 2");
    g4(drive, tp + bad + "Slips = [ 0, 0 ],\nRemaps = [ ]\n");
    EXPECT_EQ(drive.ErrorOfImport(),
              drive.Where("t.model", " 20, 0, 0.5") + ": 'IDX' entry: head 2 is not one of the 2 surfaces");
  }
  {
    SyntheticDrive drive;
    std::string bad = idx;
    bad.replace(bad.find("IDX, 0 ]"), 8, "DISK, 0 ]");
    g4(drive, tp + bad + "Slips = [ 0, 0 ],\nRemaps = [ ]\n");
    EXPECT_EQ(drive.ErrorOfImport(),
              drive.Where("t.model", "DISK") + ": an 'IDX' child type must be TRACK or IDX, found 'DISK'");
  }
  {
    SyntheticDrive drive;
    g4(drive, tp + idx + "Slips = [ 0, 0 ],\nRemaps = [ 3, 1, 5, 2, 0, 20 ]\n");
    EXPECT_EQ(drive.ErrorOfImport(),
              drive.Where("t.model", "Remaps") + ": 'Remaps' entry for LBN 3: 1 sectors from cylinder 5, head 2, "
                                                 "sector 0 do not fit a track of 20 on the disk");
  }
  {
    // The tables define the cylinders, as in DiskSim, whatever "Number of cylinders"
    // says: the tree's cylinder 1 on a disk of one, a remap to cylinder 500 on 100.
    SyntheticDrive drive;
    g4(drive, tp + idx + "Slips = [ 0, 0 ],\nRemaps = [ ]\n");
    drive.Replace("t.model", "Number of cylinders = 100", "Number of cylinders = 1");
    EXPECT_EQ(drive.Import().params.layout.cylinders, 2);
    SyntheticDrive remapped;
    g4(remapped, tp + idx + "Slips = [ 0, 0 ],\nRemaps = [ 3, 1, 500, 0, 0, 20 ]\n");
    EXPECT_EQ(remapped.Import().params.layout.cylinders, 501);
  }
  {
    // 4000 LBNs in the tree, but the drive claims more: the last ones have no sector.
    SyntheticDrive drive;
    g4(drive, tp + idx + "Slips = [ 0, 0 ],\nRemaps = [ ]\n");
    drive.Replace("t.model", "Block count = 60,", "Block count = 4001,");
    EXPECT_EQ(drive.ErrorOfImport(), drive.Where("t.model", "dm_layout_g4") +
                                         ": LBN 4000 (tree position 4000) falls in no track pattern: DiskSim maps it "
                                         "nowhere (DM_NX)");
  }
  {
    SyntheticDrive drive;
    drive.Replace("t.model", "Layout Model = dm_layout_g1", "Layout Model = dm_layout_g3");
    EXPECT_EQ(drive.ErrorOfImport(), drive.Where("t.model", "Layout Model") +
                                         ": 'Layout Model' is a dm_layout_g3 block; dm_layout_g1, dm_layout_g2 and "
                                         "dm_layout_g4 are supported");
  }
}

TEST(DisksimImportTest, G2MapFileErrorsNameTheMapFile) {
  auto g2 = [](SyntheticDrive& drive, const std::string& map_file) {
    drive.Replace("t.model", "Block count = 1,", "Block count = 40,");
    const std::string g1 = std::string(kModel).substr(std::string(kModel).find("Layout Model"));
    drive.Replace("t.model", g1.substr(0, g1.find("Mechanical Model")),
                  "Layout Model = dm_layout_g2 {\n Layout Map File = " + map_file +
                      ",\n Zones = [ dm_layout_g2_zone {\n"
                  " First cylinder number = 0, Last cylinder number = 99, First LBN = 0, Last LBN = 3999,\n"
                  " Blocks per track = 20, Skew for track switch = 2 } ]\n},\n   ");
  };
  const std::string head = "DIXtrac\nlayout\n100 cylinders, 7200 rot, 2 heads\n";
  {
    SyntheticDrive drive;
    g2(drive, "t.layout");
    std::ofstream(drive.Path("t.layout")) << head << "lbn 0 --> cyl 0, head 0, sect 0, seqcnt 19\n"
                                          << "lbn 20 --> cyl 0, head 1, sect 0, count 20\n";
    const HddParams p = drive.Import().params;
    ASSERT_EQ(p.layout.extents.size(), 2u);
    EXPECT_EQ(p.layout.extents[1].first_angle, 2 * ((uint32_t{1} << 31) / 10));  // one track skew, 2 sectors
  }
  {
    SyntheticDrive drive;
    g2(drive, "t.layout");
    std::ofstream(drive.Path("t.layout")) << head << "lbn 0 --> cyl 0, head 0, sect 0, seqcnt 19\n"
                                          << "lbn 20 --> cyl 0; head 1, sect 0, count 20\n";
    EXPECT_EQ(drive.ErrorOfImport(), drive.Path("t.layout") + ":5: expected 'lbn L --> cyl C, head H, sect S, seqcnt "
                                                              "N' or 'Defect at cyl C, head H, sect S'");
  }
  {
    SyntheticDrive drive;
    g2(drive, "t.layout");
    std::ofstream(drive.Path("t.layout")) << head << "lbn 0 --> cyl 0, head 0, sect 0, seqcnt 19\n"
                                          << "lbn 20 --> cyl 0, head 1, sect 5, count 20\n";
    EXPECT_EQ(drive.ErrorOfImport(),
              drive.Path("t.layout") + ":5: sectors 5..24 do not fit the zone's 20 per track");
  }
  {
    SyntheticDrive drive;
    g2(drive, "t.layout");
    std::ofstream(drive.Path("t.layout")) << head << "lbn 0 --> cyl 0, head 0, sect 0, seqcnt 19\n";
    EXPECT_EQ(drive.ErrorOfImport(), drive.Path("t.layout") +
                                         ":4: the extents end at LBN 19, before the disk's 40 blocks ('Block count')");
  }
  {
    SyntheticDrive drive;
    g2(drive, "none.layout");
    EXPECT_EQ(drive.ErrorOfImport(), drive.Where("t.model", "Layout Map File") +
                                         ": cannot open the layout map file " + drive.Path("none.layout"));
  }
}

// Keys DiskSim requires but the synthetic drive leaves out behave as their 0.
TEST(DisksimImportTest, ReadsHitAndPreseekKeys) {
  {
    SyntheticDrive drive;
    const HddCache& c = drive.Import().params.cache;
    EXPECT_FALSE(c.allow_almost_read_hits);
    EXPECT_FALSE(c.sneaky_full_read_hits);
    EXPECT_FALSE(c.sneaky_partial_read_hits);
    EXPECT_EQ(c.preseek_level, 0);
  }
  SyntheticDrive drive;
  drive.Replace("t.diskspecs", "Max queue length = 4", "Max queue length = 1");
  drive.Replace("t.diskspecs", "Read directly to buffer = 1", "Read directly to buffer = 0");
  drive.Replace("t.diskspecs", "Allow almost read hits = 0,",
                "Allow almost read hits = 1,\n   Allow sneaky full read hits = 1,\n   Allow sneaky partial read hits = 1,"
                "\n   Allow sneaky intermediate read hits = 1,\n   Allow write prebuffering = 1,\n   Preseeking level = 2,");
  const DisksimImport import = drive.Import();
  const HddCache& c = import.params.cache;
  EXPECT_TRUE(c.allow_almost_read_hits);
  EXPECT_FALSE(c.join_read_ahead_window);  // the model's own, broader join is not DiskSim's
  EXPECT_TRUE(c.sneaky_full_read_hits);
  EXPECT_TRUE(c.sneaky_partial_read_hits);
  EXPECT_TRUE(c.sneaky_intermediate_read_hits);
  EXPECT_TRUE(c.write_prebuffering);
  EXPECT_EQ(c.preseek_level, 2);
  // With a queue of one intermediate hits cannot act: listed as ignored. Prebuffering
  // can (HddDeviceTest.PrebufferingTakesAWriteDuringADestage).
  std::set<std::string> ignored(import.ignored.begin(), import.ignored.end());
  EXPECT_EQ(ignored.count(drive.Where("t.diskspecs", "intermediate") + ": Allow sneaky intermediate read hits"), 1u);
  EXPECT_EQ(ignored.count(drive.Where("t.diskspecs", "prebuffering") + ": Allow write prebuffering"), 0u);
  // No read waits for room in the segment in the model: a sector buffer changes nothing.
  EXPECT_EQ(ignored.count(drive.Where("t.diskspecs", "Read directly") + ": Read directly to buffer"), 1u);
  EXPECT_EQ(ignored.count(drive.Where("t.diskspecs", "Preseeking") + ": Preseeking level"), 0u);
}

// Preseeking with commands queued in the drive, as DiskSim runs it: the next command may
// take the arm before the one before completes (HddDeviceTest.Preseeking*).
TEST(DisksimImportTest, PreseekingTakesAQueue) {
  for (int level : {1, 2}) {
    SyntheticDrive drive;
    drive.Replace("t.diskspecs", "Allow almost read hits = 0,",
                  "Allow almost read hits = 0,\n   Preseeking level = " + std::to_string(level) + ",");
    const DisksimImport import = drive.Import();
    EXPECT_EQ(import.params.queue_depth, 4);
    EXPECT_EQ(import.params.cache.preseek_level, level);
  }
}

// Sneaky intermediate read hits and write prebuffering act on commands waiting in a
// drive's queue (HddDeviceTest.AWaitingHitIsSentAsTheBusFrees,
// HddDeviceTest.AWaitingWriteIsPrebuffered): with a queue they are read, not ignored.
TEST(DisksimImportTest, IntermediateHitsAndPrebufferingTakeAQueue) {
  SyntheticDrive drive;
  drive.Replace("t.diskspecs", "Allow almost read hits = 0,",
                "Allow almost read hits = 0,\n   Allow sneaky intermediate read hits = 1,\n"
                "   Allow write prebuffering = 1,");
  const DisksimImport import = drive.Import();
  EXPECT_EQ(import.params.queue_depth, 4);
  EXPECT_TRUE(import.params.cache.sneaky_intermediate_read_hits);
  EXPECT_TRUE(import.params.cache.write_prebuffering);
  EXPECT_TRUE(std::none_of(import.ignored.begin(), import.ignored.end(), [](const std::string& line) {
    return line.find("intermediate") != std::string::npos || line.find("prebuffering") != std::string::npos;
  }));
}

TEST(DisksimImportTest, RefusesHitAndPreseekKeysDiskSimRefuses) {
  auto error_with = [](const std::string& key_line, const std::string& queue, const std::string& hold_bus) {
    SyntheticDrive drive;
    drive.Replace("t.diskspecs", "Max queue length = 4", "Max queue length = " + queue);
    drive.Replace("t.diskspecs", "Hold bus entire read xfer = 0", "Hold bus entire read xfer = " + hold_bus);
    drive.Replace("t.diskspecs", "Allow almost read hits = 0,", "Allow almost read hits = 0,\n   " + key_line + ",");
    const std::string key = key_line.substr(0, key_line.find(" ="));
    return std::pair{drive.ErrorOfImport(), drive.Where("t.diskspecs", key)};
  };
  {
    const auto [error, where] = error_with("Preseeking level = 3", "1", "0");
    EXPECT_EQ(error, where + ": 'Preseeking level' = 3 is outside 0..2");
  }
  {
    const auto [error, where] = error_with("Allow sneaky full read hits = 1", "1", "1");
    EXPECT_EQ(error, where + ": 'Allow sneaky full read hits' = 1 with 'Hold bus entire read xfer' = 1, which "
                             "DiskSim refuses");
  }
  {
    // Ignored with a queue of one, but DiskSim refuses it with the bus held all the same.
    const auto [error, where] = error_with("Allow sneaky intermediate read hits = 1", "1", "1");
    EXPECT_EQ(error, where + ": 'Allow sneaky intermediate read hits' = 1 with 'Hold bus entire read xfer' = 1, "
                             "which DiskSim refuses");
  }
  {
    const auto [error, where] = error_with("Allow sneaky partial read hits = 2", "1", "0");
    EXPECT_EQ(error, where + ": 'Allow sneaky partial read hits' = 2 is outside 0..1");
  }
  {
    const auto [error, where] = error_with("Allow write prebuffering = 2", "1", "0");
    EXPECT_EQ(error, where + ": 'Allow write prebuffering' = 2 is outside 0..1");
  }
  {
    SyntheticDrive drive;
    drive.Replace("t.diskspecs", "Read directly to buffer = 1", "Read directly to buffer = 2");
    EXPECT_EQ(drive.ErrorOfImport(),
              drive.Where("t.diskspecs", "Read directly") + ": 'Read directly to buffer' = 2 is outside 0..1");
  }
  {
    SyntheticDrive drive;
    drive.Replace("t.diskspecs", "Allow almost read hits = 0", "Allow almost read hits = x");
    EXPECT_EQ(drive.ErrorOfImport(),
              drive.Where("t.diskspecs", "Allow almost") + ": 'Allow almost read hits' must be a number, found 'x'");
  }
}

TEST(DisksimImportTest, LayoutErrorsPointAtTheLayout) {
  SyntheticDrive drive;
  drive.Replace("t.model", "First cylinder number = 50", "First cylinder number = 49");
  EXPECT_EQ(drive.ErrorOfImport(),
            drive.Where("t.model", "Layout Model") +
                ": HDD layout: zone 1 starts at cylinder 49, not after the previous zone's last cylinder");
}

TEST(DisksimImportTest, SeekCurveErrorsNameTheSeekFile) {
  {
    SyntheticDrive drive;
    drive.Replace("t.seek", "10,\t2.0", "10;\t2.0");
    EXPECT_EQ(drive.ErrorOfImport(),
              drive.Path("t.seek") + ":3: expected 'distance, milliseconds' with distance >= 1, found: 10;\t2.0, 0.1");
  }
  {
    // DiskSim reads a row's distance and time and ignores what follows: a standard
    // deviation, or the write seek time of a dual-seek curve.
    SyntheticDrive drive;
    drive.Replace("t.seek", "99, 5.5", "99, 5.5, 0.02, 6.1");
    const auto& table = drive.Import().params.mechanics.seek.table;
    EXPECT_EQ(table.back(), (std::pair<int, SimTime>{99, MsToNs(5.5)}));
  }
  {
    SyntheticDrive drive;
    drive.Replace("t.seek", "measured: 3", "measured: 4");
    EXPECT_EQ(drive.ErrorOfImport(), drive.Path("t.seek") + ":1: declares 4 distances but lists 3");
  }
  {
    SyntheticDrive drive;
    drive.Replace("t.seek", "99, 5.5", "9, 5.5");
    EXPECT_EQ(drive.ErrorOfImport(), drive.Path("t.seek") + ":4: seek distances must increase");
  }
  {
    SyntheticDrive drive;
    drive.Replace("t.model", "Full seek curve = t.seek", "Full seek curve = none.seek");
    EXPECT_EQ(drive.ErrorOfImport(), drive.Where("t.model", "Full seek curve") +
                                         ": cannot open seek curve 'none.seek' (looked for " + drive.Path("none.seek") +
                                         ")");
  }
}

TEST(DisksimImportTest, UninstantiatedComponentIsAnError) {
  SyntheticDrive drive;
  drive.Replace("t.parv", "instantiate [ disk0 ] as D\n", "");
  EXPECT_EQ(drive.ErrorOfImport(), drive.Where("t.parv", "disksim_disk disk0") +
                                       ": topology component 'disk0' is never instantiated");
}

// A corrupted spec imports or fails with InputError; nothing else escapes.
TEST(DisksimImportTest, SurvivesCorruptedSpecs) {
  std::mt19937 rng(11);
  const char* files[] = {"t.parv", "t.diskspecs", "t.model", "t.seek"};
  const std::string_view texts[] = {kParv, kDiskspecs, kModel, kSeek};
  for (int round = 0; round < 300; ++round) {
    SyntheticDrive drive;
    const int which = static_cast<int>(rng() % 4);
    std::string text(texts[which]);
    for (int k = 0; k < 2; ++k) text[rng() % text.size()] = static_cast<char>(rng() % 256);
    drive.Replace(files[which], std::string(texts[which]), text);
    try {
      drive.Import();
    } catch (const InputError&) {
    }
  }
}

}  // namespace disksim_import_test
}  // namespace ziosim
