#include "models/catalog/catalog.h"

#include <unistd.h>

#include <cmath>
#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "models/catalog/hdd_from_datasheet.h"
#include "models/device/hdd.h"
#include "sim/core/simulation.h"
#include "sim/core/status.h"

namespace ziosim {
namespace {

std::vector<DriveSpec> Hdds() {
  std::vector<DriveSpec> out;
  for (DriveSpec& d : CatalogDrives()) {
    if (d.kind == DriveSpec::Kind::kHdd) out.push_back(std::move(d));
  }
  return out;
}

TEST(CatalogTest, ListsTheExpectedDrivesSortedByName) {
  std::vector<std::string> names;
  for (const DriveSpec& d : CatalogDrives()) names.push_back(d.name);
  const std::vector<std::string> expected = {"generic-7200-hdd", "generic-ssd",          "hgst-7k6000-6tb",
                                             "hgst-he8-8tb",     "hgst-nas-4tb",         "patriot-hellfire-480g",
                                             "wd-re4-1tb"};
  EXPECT_EQ(names, expected);
}

TEST(CatalogTest, EveryFigureHasProvenance) {
  for (const DriveSpec& d : CatalogDrives()) {
    EXPECT_FALSE(d.description.empty()) << d.name;
    EXPECT_FALSE(d.values.empty()) << d.name;
    for (const CatalogValue& v : d.values) EXPECT_FALSE(v.provenance.empty()) << d.name << " " << v.key;
  }
}

TEST(CatalogTest, CapacitiesAndRpmAreTheReferenceFigures) {
  // shared/reference/drives.md (smartctl).
  EXPECT_EQ(ResolveDrive("wd-re4-1tb").Find("capacity_bytes")->value, 1000204886016.0);
  EXPECT_EQ(ResolveDrive("hgst-nas-4tb").Find("capacity_bytes")->value, 4000787030016.0);
  EXPECT_EQ(ResolveDrive("hgst-7k6000-6tb").Find("capacity_bytes")->value, 6001175126016.0);
  EXPECT_EQ(ResolveDrive("hgst-he8-8tb").Find("capacity_bytes")->value, 8001563222016.0);
  for (const DriveSpec& d : Hdds()) {
    EXPECT_EQ(d.hdd.mechanics.rpm, 7200) << d.name;
    EXPECT_EQ(d.hdd.queue_depth, 32) << d.name;
  }
}

TEST(CatalogTest, DerivedHddCapacityIsTheStatedOne) {
  for (const DriveSpec& d : Hdds()) {
    const int64_t stated_blocks = static_cast<int64_t>(d.Find("capacity_bytes")->value) / 512;
    const HddLayout& layout = d.hdd.layout;
    // Cylinders come in whole numbers; the surplus of the last one (less than a
    // cylinder) is reserved, so the usable capacity is exact, not merely within a track.
    EXPECT_EQ(LayoutBlocks(layout), stated_blocks) << d.name;
    const int64_t one_cylinder = int64_t{layout.surfaces} * layout.zones.front().sectors_per_track;
    EXPECT_LT(layout.zones.back().empty_front_sectors, one_cylinder) << d.name;
    // The HDD model's own geometry agrees.
    Simulation sim;
    HddDevice dev(&sim, "d", d.hdd);
    EXPECT_EQ(dev.capacity_bytes() / 512, stated_blocks) << d.name;
  }
}

TEST(CatalogTest, ZoneRatesMatchTheStatedOuterAndInnerRates) {
  for (const DriveSpec& d : Hdds()) {
    const HddLayout& layout = d.hdd.layout;
    const double rev_ns = RevolutionNs(d.hdd.mechanics.rpm);
    const double outer = d.Find("outer_mb_s")->value;
    const double inner = d.Find("inner_mb_s")->value;
    EXPECT_NEAR(ZoneSustainedMbS(layout.zones.front(), layout.surfaces, rev_ns), outer, 0.02 * outer) << d.name;
    EXPECT_NEAR(ZoneSustainedMbS(layout.zones.back(), layout.surfaces, rev_ns), inner, 0.02 * inner) << d.name;
    EXPECT_EQ(static_cast<double>(layout.zones.size()), d.Find("zones")->value) << d.name;
    // Sectors per track fall from the outer zone to the inner one.
    for (size_t k = 1; k < layout.zones.size(); ++k) {
      EXPECT_LE(layout.zones[k].sectors_per_track, layout.zones[k - 1].sectors_per_track) << d.name;
      EXPECT_EQ(layout.zones[k].first_cylinder, layout.zones[k - 1].last_cylinder + 1) << d.name;
    }
    EXPECT_EQ(layout.zones.back().last_cylinder, layout.cylinders - 1) << d.name;
  }
}

TEST(CatalogTest, SkewsCoverTheSwitchWithinOneSector) {
  for (const DriveSpec& d : Hdds()) {
    const double rev_ns = RevolutionNs(d.hdd.mechanics.rpm);
    const double switch_ns = static_cast<double>(d.hdd.mechanics.head_switch_ns);
    const double step_ns = std::max(switch_ns, static_cast<double>(d.hdd.mechanics.seek.single_cylinder_ns));
    for (const HddZone& z : d.hdd.layout.zones) {
      const double sector_ns = rev_ns / z.sectors_per_track;
      EXPECT_GE(z.track_skew_sectors * sector_ns, switch_ns) << d.name;
      EXPECT_LT(z.track_skew_sectors * sector_ns, switch_ns + 1.01 * sector_ns) << d.name;
      EXPECT_GE(z.cylinder_skew_sectors * sector_ns, step_ns) << d.name;
    }
  }
}

// A long read on a fresh drive streams track after track: its media time must
// give the zone's stated sustained rate, so skews lose no revolution in the model.
double StreamingMbS(const DriveSpec& d, int64_t offset_bytes, int64_t size_bytes) {
  Simulation sim;
  HddDevice dev(&sim, "d", d.hdd);
  dev.Submit(DeviceRequest{0, offset_bytes, size_bytes, IoOp::kRead});
  sim.Run();
  return static_cast<double>(size_bytes) / static_cast<double>(dev.last_breakdown().transfer_ns) * 1e3;
}

TEST(CatalogTest, HddModelStreamsAtTheStatedZoneRates) {
  constexpr int64_t kSize = int64_t{64} << 20;
  for (const DriveSpec& d : Hdds()) {
    const double outer = d.Find("outer_mb_s")->value;
    const double inner = d.Find("inner_mb_s")->value;
    const int64_t capacity = static_cast<int64_t>(d.Find("capacity_bytes")->value);
    EXPECT_NEAR(StreamingMbS(d, 0, kSize), outer, 0.02 * outer) << d.name;
    EXPECT_NEAR(StreamingMbS(d, capacity - kSize, kSize), inner, 0.02 * inner) << d.name;
  }
}

TEST(CatalogTest, SataBusAndSeekFigures) {
  const DriveSpec re4 = ResolveDrive("wd-re4-1tb");  // 3 Gb/s: 512 B x 10 line bits / 3 Gb/s
  EXPECT_EQ(re4.hdd.interface.bus_read_block_ns, 1707);
  const DriveSpec nas = ResolveDrive("hgst-nas-4tb");  // 6 Gb/s
  EXPECT_EQ(nas.hdd.interface.bus_read_block_ns, 853);
  EXPECT_EQ(nas.hdd.mechanics.seek.kind, HddSeekModel::Kind::kThreePoint);
  EXPECT_EQ(nas.hdd.mechanics.seek.average_ns, MsToNs(nas.Find("seek_average_ms")->value));
  EXPECT_EQ(nas.hdd.cache.segment_blocks * nas.hdd.cache.segments * int64_t{512},
            static_cast<int64_t>(nas.Find("cache_bytes")->value));
}

TEST(CatalogTest, SsdEntriesFillSsdParams) {
  const DriveSpec sata = ResolveDrive("generic-ssd");
  ASSERT_EQ(sata.kind, DriveSpec::Kind::kSsd);
  EXPECT_EQ(sata.ssd.queue_depth, 32);
  EXPECT_NEAR(SsdPeakReadMbS(sata.ssd), 570, 1);  // the SATA link limits
  const DriveSpec nvme = ResolveDrive("patriot-hellfire-480g");
  EXPECT_GT(SsdPeakReadMbS(nvme.ssd), 2000);  // ~2500 MB/s measured at QD8 (drives.md)
  EXPECT_LT(SsdPeakReadMbS(nvme.ssd), 3500);
  EXPECT_EQ(nvme.ssd.capacity_bytes, 480103981056);
}

TEST(CatalogTest, MakeDeviceBuildsTheRightKind) {
  Simulation sim;
  auto ssd = MakeDevice(&sim, "ssd0", ResolveDrive("generic-ssd"), QueuePolicy::kFifo);
  EXPECT_FALSE(ssd->is_rotational());
  EXPECT_EQ(ssd->capacity_bytes(), 500107862016);
  auto hdd = MakeDevice(&sim, "hdd0", ResolveDrive("wd-re4-1tb"), QueuePolicy::kSptf);
  EXPECT_TRUE(hdd->is_rotational());
  EXPECT_EQ(hdd->capacity_bytes(), 1000204886016);
  EXPECT_EQ(hdd->queue_depth(), 32);
}

// A drive's spindle angle at time 0 is drawn from the run seed and its name:
// the same pair always gives the same angle, in [0, 1), and another drive or
// another seed an independent one.
TEST(CatalogTest, SpindlePhaseIsDrawnFromTheSeedAndTheDriveName) {
  EXPECT_EQ(SpindlePhase(1, "d0"), SpindlePhase(1, "d0"));
  EXPECT_NE(SpindlePhase(1, "d0"), SpindlePhase(1, "d1"));
  EXPECT_NE(SpindlePhase(1, "d0"), SpindlePhase(2, "d0"));
  double sum = 0;
  for (int i = 0; i < 1000; ++i) {
    const double phase = SpindlePhase(7, "d" + std::to_string(i));
    ASSERT_GE(phase, 0.0);
    ASSERT_LT(phase, 1.0);
    sum += phase;
  }
  EXPECT_NEAR(sum / 1000, 0.5, 0.05);  // uniform: the mean of 1,000 is within 5 standard errors
}

TEST(CatalogTest, UnknownNameListsTheKnownOnes) {
  try {
    ResolveDrive("seagate-nope");
    FAIL() << "accepted an unknown drive";
  } catch (const InputError& e) {
    const std::string msg = e.what();
    EXPECT_NE(msg.find("unknown drive \"seagate-nope\""), std::string::npos) << msg;
    EXPECT_NE(msg.find("hgst-nas-4tb"), std::string::npos) << msg;
    EXPECT_NE(msg.find("patriot-hellfire-480g"), std::string::npos) << msg;
  }
}

// --- drive files with mistakes -------------------------------------------------

std::string ReadText(const std::string& path) {
  std::ifstream in(path);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

// 1-based line of the first line starting with `prefix`.
int LineStartingWith(const std::string& text, const std::string& prefix) {
  std::istringstream in(text);
  std::string line;
  for (int n = 1; std::getline(in, line); ++n) {
    if (line.rfind(prefix, 0) == 0) return n;
  }
  return -1;
}

// Replaces the whole line starting with `prefix`.
std::string ReplaceLine(const std::string& text, const std::string& prefix, const std::string& replacement) {
  const size_t start = text.find("\n" + prefix) + 1;
  const size_t end = text.find('\n', start);
  return text.substr(0, start) + replacement + text.substr(end);
}

class BadDriveFileTest : public ::testing::Test {
 protected:
  void SetUp() override {
    base_ = ReadText(CatalogDir() + "/generic-7200-hdd.toml");
    ASSERT_FALSE(base_.empty());
    path_ = ::testing::TempDir() + "ziosim_catalog_" + std::to_string(::getpid()) + "_" +
            ::testing::UnitTest::GetInstance()->current_test_info()->name() + ".toml";
  }
  void TearDown() override { std::remove(path_.c_str()); }

  // Writes `text`, loads it, and returns the error message (or "" if it loaded).
  std::string LoadError(const std::string& text) {
    std::ofstream(path_) << text;
    try {
      LoadDriveFile(path_);
    } catch (const InputError& e) {
      return e.what();
    }
    return "";
  }
  std::string At(int line) const { return path_ + ":" + std::to_string(line) + ": "; }

  std::string base_;
  std::string path_;
};

TEST_F(BadDriveFileTest, TheUnchangedFileLoadsByPath) {
  EXPECT_EQ(LoadError(base_), "");
  std::ofstream(path_) << base_;
  EXPECT_EQ(ResolveDrive(path_).name, "generic-7200-hdd");
}

TEST_F(BadDriveFileTest, AValueWithoutProvenanceFailsWithFileAndLine) {
  const std::string text = ReplaceLine(base_, "rpm =", "rpm = { value = 7200 }");
  EXPECT_EQ(LoadError(text).rfind(At(LineStartingWith(text, "rpm =")) + "hdd.rpm: no provenance", 0), 0u)
      << LoadError(text);
}

TEST_F(BadDriveFileTest, ABareNumberIsRefused) {
  const std::string text = ReplaceLine(base_, "surfaces =", "surfaces = 4");
  EXPECT_EQ(LoadError(text).rfind(At(LineStartingWith(text, "surfaces =")) + "hdd.surfaces: expected { value", 0),
            0u)
      << LoadError(text);
}

TEST_F(BadDriveFileTest, AMissingKeyNamesTheTable) {
  const std::string text = ReplaceLine(base_, "zones =", "");
  EXPECT_EQ(LoadError(text).rfind(At(LineStartingWith(text, "[hdd]")) + "hdd.zones: missing", 0), 0u)
      << LoadError(text);
}

TEST_F(BadDriveFileTest, NonNumericNegativeZeroAndFractionalValues) {
  struct Case {
    const char* key;
    const char* line;
    const char* what;
  };
  const Case cases[] = {
      {"rpm =", "rpm = { value = \"fast\", source = \"x\" }", "hdd.rpm: expected a number, got a string"},
      {"rpm =", "rpm = { value = -7200, source = \"x\" }", "hdd.rpm: must not be negative (got -7200)"},
      {"rpm =", "rpm = { value = nan, source = \"x\" }", "hdd.rpm: not a finite number"},
      {"surfaces =", "surfaces = { value = 0, estimated = \"x\" }", "hdd.surfaces: must be positive (got 0)"},
      {"surfaces =", "surfaces = { value = 4.5, estimated = \"x\" }", "hdd.surfaces: expected an integer, got a float"},
      {"rpm =", "rpm = { value = 7200, source = \"x\", estimated = \"y\" }", "hdd.rpm: give either source or"},
      {"rpm =", "rpm = { value = 7200, source = \"\" }", "hdd.rpm: source must be a non-empty string"},
      {"rpm =", "rpm = { value = 7200, sauce = \"x\" }", "hdd.rpm: unknown field \"sauce\""},
      {"rpm =", "rpmm = { value = 7200, source = \"x\" }", "hdd.rpmm: unknown key"},
      {"inner_mb_s =", "inner_mb_s = { value = 300, estimated = \"x\" }", "hdd.inner_mb_s: 300 exceeds outer_mb_s"},
      {"sata_gbit_s =", "sata_gbit_s = { value = 5, source = \"x\" }", "hdd.sata_gbit_s: must be 1.5, 3 or 6"},
      {"capacity_bytes =", "capacity_bytes = { value = 1000, source = \"x\" }",
       "hdd.capacity_bytes: must be a multiple of 512"},
  };
  for (const Case& c : cases) {
    const std::string text = ReplaceLine(base_, c.key, c.line);
    const std::string expected = At(LineStartingWith(text, c.line)) + c.what;
    EXPECT_EQ(LoadError(text).rfind(expected, 0), 0u) << "got: " << LoadError(text) << "\nwanted: " << expected;
  }
}

TEST_F(BadDriveFileTest, MalformedTomlReportsTheLine) {
  const std::string text = ReplaceLine(base_, "rpm =", "rpm = { value = 7200, source = \"x\"");
  const std::string msg = LoadError(text);
  EXPECT_EQ(msg.rfind(At(LineStartingWith(text, "rpm =")), 0), 0u) << msg;
}

TEST_F(BadDriveFileTest, WrongKindOrMissingFile) {
  EXPECT_NE(LoadError(ReplaceLine(base_, "kind =", "kind = \"tape\"")).find("kind: must be \"hdd\" or \"ssd\""),
            std::string::npos);
  // An SSD entry with HDD figures: the [hdd] table is an unknown key, [ssd] is missing.
  EXPECT_NE(LoadError(ReplaceLine(base_, "kind =", "kind = \"ssd\"")).find("hdd: unknown key for a ssd drive"),
            std::string::npos);
  EXPECT_THROW(LoadDriveFile(path_ + ".absent.toml"), InputError);
}

}  // namespace
}  // namespace ziosim
