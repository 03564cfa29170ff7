#include "models/device/hdd_params.h"

#include <gtest/gtest.h>

#include <cmath>
#include <functional>
#include <string>

#include "sim/core/status.h"

namespace ziosim {
namespace {

HddParams Valid() {
  HddParams p;
  p.name = "disk";
  p.source = "drives/disk.toml";
  p.layout.surfaces = 2;
  p.layout.cylinders = 10;
  HddZone zone;
  zone.first_cylinder = 0;
  zone.last_cylinder = 9;
  zone.sectors_per_track = 10;
  p.layout.zones = {zone};
  p.mechanics.seek.kind = HddSeekModel::Kind::kTable;
  p.mechanics.seek.table = {{1, 1000000}, {9, 3000000}};
  return p;
}

// The message Validate() throws after `change` is applied to a valid set.
std::string ErrorAfter(const std::function<void(HddParams&)>& change) {
  HddParams p = Valid();
  change(p);
  try {
    p.Validate();
  } catch (const InputError& e) {
    return e.what();
  }
  return "no error";
}

TEST(HddParamsTest, AcceptsAConsistentSet) { EXPECT_NO_THROW(Valid().Validate()); }

TEST(HddParamsTest, RejectsBadLayouts) {
  EXPECT_EQ(ErrorAfter([](HddParams& p) { p.layout.zones.clear(); }), "drives/disk.toml: HDD layout: no zones");
  EXPECT_EQ(ErrorAfter([](HddParams& p) { p.layout.surfaces = 0; }),
            "drives/disk.toml: HDD layout: surfaces must be positive");
  EXPECT_EQ(ErrorAfter([](HddParams& p) { p.layout.zones[0].sectors_per_track = 0; }),
            "drives/disk.toml: HDD layout: zone 0: sectors per track must be positive");
  EXPECT_EQ(ErrorAfter([](HddParams& p) { p.layout.zones[0].last_cylinder = 10; }),
            "drives/disk.toml: HDD layout: zone 0: cylinders 0..10 are not a range within 0..9");
  EXPECT_EQ(ErrorAfter([](HddParams& p) {
              p.layout.zones[0].last_cylinder = 5;
              p.layout.zones.push_back(p.layout.zones[0]);
              p.layout.zones[1].first_cylinder = 3;
              p.layout.zones[1].last_cylinder = 9;
            }),
            "drives/disk.toml: HDD layout: zone 1 starts at cylinder 3, not after the previous zone's last cylinder");
}

TEST(HddParamsTest, RejectsBadMechanics) {
  EXPECT_EQ(ErrorAfter([](HddParams& p) { p.mechanics.rpm = 0; }), "drives/disk.toml: rpm must be a positive number");
  EXPECT_EQ(ErrorAfter([](HddParams& p) { p.mechanics.rpm = std::nan(""); }),
            "drives/disk.toml: rpm must be a positive number");
  EXPECT_EQ(ErrorAfter([](HddParams& p) { p.mechanics.seek.table.clear(); }), "drives/disk.toml: seek table is empty");
  EXPECT_EQ(ErrorAfter([](HddParams& p) { p.mechanics.seek.table = {{5, 1}, {5, 2}}; }),
            "drives/disk.toml: seek table distances must start at 1 or more and increase (entry 1)");
}

TEST(HddParamsTest, RejectsBadInterfaceCacheAndQueue) {
  EXPECT_EQ(ErrorAfter([](HddParams& p) { p.interface.bus_write_block_ns = -1; }),
            "drives/disk.toml: bus block time is negative");
  EXPECT_EQ(ErrorAfter([](HddParams& p) { p.cache.segments = 0; }),
            "drives/disk.toml: cache enabled with fewer than 1 segment");
  EXPECT_EQ(ErrorAfter([](HddParams& p) {
              p.cache.segments = 0;
              p.cache.enabled = false;
            }),
            "no error");
  EXPECT_EQ(ErrorAfter([](HddParams& p) { p.cache.preseek_level = 3; }),
            "drives/disk.toml: preseeking level must be 0, 1 or 2");
  EXPECT_EQ(ErrorAfter([](HddParams& p) { p.queue_depth = 0; }), "drives/disk.toml: queue depth must be at least 1");
}

TEST(HddParamsTest, NamesTheDriveWithoutASource) {
  EXPECT_EQ(ErrorAfter([](HddParams& p) {
              p.source.clear();
              p.queue_depth = 0;
            }),
            "disk: queue depth must be at least 1");
}

}  // namespace
}  // namespace ziosim
