#include "sim/zfs/tunables.h"

#include <set>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "sim/core/status.h"
#include "tests/test_util.h"

namespace ziosim {
namespace {

using test::ErrorOf;
using test::TempFile;

TEST(TunableTableTest, NamesAreUniqueAndEveryFallbackIsValid) {
  std::set<std::string_view> names;
  for (const TunableDef& def : TunableTable()) {
    EXPECT_TRUE(names.insert(def.name).second) << def.name;
    EXPECT_FALSE(def.doc.empty()) << def.name;
    EXPECT_EQ(FindTunable(def.name), &def);
    Tunables t;
    EXPECT_NO_THROW(t.Set(def.name, def.fallback, "test")) << def.name;
    EXPECT_EQ(t.Text(def.name), def.fallback) << def.name << ": fallbacks are written canonically";
  }
  EXPECT_EQ(FindTunable("no_such_tunable"), nullptr);
}

TEST(TunableTableTest, FallbacksAreTheOpenZfs22Defaults) {
  const Tunables t;
  EXPECT_EQ(t.Choice("mirror_policy"), "load_locality");
  EXPECT_EQ(t.Choice("mirror_last_offset"), "issue");
  EXPECT_EQ(t.Int("vdev_mirror_shift"), 21);
  EXPECT_EQ(t.Int("zfs_vdev_mirror_switch_us"), 10000);
  EXPECT_EQ(t.Int("zfs_vdev_mirror_rotating_inc"), 0);
  EXPECT_EQ(t.Int("zfs_vdev_mirror_rotating_seek_inc"), 5);
  EXPECT_EQ(t.Int("zfs_vdev_mirror_rotating_seek_offset"), 1 << 20);
  EXPECT_EQ(t.Int("zfs_vdev_mirror_non_rotating_inc"), 0);
  EXPECT_EQ(t.Int("zfs_vdev_mirror_non_rotating_seek_inc"), 1);
  EXPECT_EQ(t.Choice("ziosim_vdev_scheduler"), "class");
  EXPECT_EQ(t.Int("zfs_vdev_max_pending"), 10);
  EXPECT_EQ(t.Int("zfs_vdev_min_pending"), 4);
  EXPECT_EQ(t.Int("zfs_vdev_ramp_rate"), 2);
  EXPECT_EQ(t.Int("zfs_vdev_time_shift"), 29);
  EXPECT_EQ(t.Int("ziosim_vdev_time_unit_ns"), 1);
  EXPECT_EQ(t.Int("zfs_vdev_max_active"), 1000);
  EXPECT_EQ(t.Int("zfs_vdev_sync_read_min_active"), 10);
  EXPECT_EQ(t.Int("zfs_vdev_sync_read_max_active"), 10);
  EXPECT_EQ(t.Int("zfs_vdev_sync_write_min_active"), 10);
  EXPECT_EQ(t.Int("zfs_vdev_sync_write_max_active"), 10);
  EXPECT_EQ(t.Int("zfs_vdev_async_read_min_active"), 1);
  EXPECT_EQ(t.Int("zfs_vdev_async_read_max_active"), 3);
  EXPECT_EQ(t.Int("zfs_vdev_async_write_min_active"), 2);
  EXPECT_EQ(t.Int("zfs_vdev_async_write_max_active"), 10);
  EXPECT_EQ(t.Int("zfs_vdev_scrub_min_active"), 1);
  EXPECT_EQ(t.Int("zfs_vdev_scrub_max_active"), 3);
  EXPECT_EQ(t.Int("zfs_vdev_aggregation_limit"), 1 << 20);
  EXPECT_EQ(t.Int("zfs_vdev_aggregation_limit_non_rotating"), 128 << 10);
  EXPECT_EQ(t.Int("zfs_vdev_read_gap_limit"), 32 << 10);
  EXPECT_EQ(t.Int("zfs_vdev_write_gap_limit"), 4 << 10);
  EXPECT_TRUE(t.Bool("ziosim_vdev_aggregate_sync_reads"));
  EXPECT_TRUE(t.Bool("ziosim_vdev_aggregate_cross_class"));
  EXPECT_EQ(t.Choice("ziosim_vdev_lba_last"), "bucket");
  EXPECT_EQ(t.Int("ziosim_max_device_io"), 1280 << 10);
}

TEST(TunablesTest, SetsAndReadsEachKind) {
  Tunables t;
  t.Set("zfs_vdev_max_active", "7", "--set");
  EXPECT_EQ(t.Int("zfs_vdev_max_active"), 7);
  EXPECT_EQ(t.Text("zfs_vdev_max_active"), "7");
  t.Set("zfs_vdev_max_active", "+8", "--set");
  EXPECT_EQ(t.Int("zfs_vdev_max_active"), 8);

  t.Set("zfs_vdev_aggregation_limit", "128K", "--set");
  EXPECT_EQ(t.Int("zfs_vdev_aggregation_limit"), 131072);
  EXPECT_EQ(t.Text("zfs_vdev_aggregation_limit"), "128K");
  t.Set("zfs_vdev_aggregation_limit", "1048576", "--set");
  EXPECT_EQ(t.Text("zfs_vdev_aggregation_limit"), "1M");
  t.Set("zfs_vdev_read_gap_limit", "1000", "--set");
  EXPECT_EQ(t.Text("zfs_vdev_read_gap_limit"), "1000");
  t.Set("zfs_vdev_read_gap_limit", "0", "--set");
  EXPECT_EQ(t.Text("zfs_vdev_read_gap_limit"), "0");
  t.Set("ziosim_max_device_io", "1.25M", "--set");
  EXPECT_EQ(t.Text("ziosim_max_device_io"), "1280K");

  for (const char* yes : {"true", "1", "yes", "on", "TRUE", "On"}) {
    t.Set("ziosim_vdev_aggregate_sync_reads", "false", "--set");
    t.Set("ziosim_vdev_aggregate_sync_reads", yes, "--set");
    EXPECT_TRUE(t.Bool("ziosim_vdev_aggregate_sync_reads")) << yes;
    EXPECT_EQ(t.Int("ziosim_vdev_aggregate_sync_reads"), 1);
    EXPECT_EQ(t.Text("ziosim_vdev_aggregate_sync_reads"), "true");
  }
  for (const char* no : {"false", "0", "no", "off", "No"}) {
    t.Set("ziosim_vdev_aggregate_sync_reads", "true", "--set");
    t.Set("ziosim_vdev_aggregate_sync_reads", no, "--set");
    EXPECT_FALSE(t.Bool("ziosim_vdev_aggregate_sync_reads")) << no;
    EXPECT_EQ(t.Text("ziosim_vdev_aggregate_sync_reads"), "false");
  }

  t.Set("ziosim_vdev_scheduler", "deadline", "--set");
  EXPECT_EQ(t.Choice("ziosim_vdev_scheduler"), "deadline");
  t.Set("ziosim_vdev_scheduler", "Class", "--set");
  EXPECT_EQ(t.Choice("ziosim_vdev_scheduler"), "class");
  EXPECT_EQ(t.Text("ziosim_vdev_scheduler"), "class");

  // mirror_policy takes any name; the policy registry checks it when the pool is built.
  t.Set("mirror_policy", "my_patch", "--set");
  EXPECT_EQ(t.Choice("mirror_policy"), "my_patch");
}

TEST(TunablesTest, ValueErrorsNameOriginTunableAndProblem) {
  Tunables t;
  auto set = [&](const char* name, const char* value) { return ErrorOf([&] { t.Set(name, value, "--set"); }); };
  EXPECT_EQ(set("zfs_vdev_max_active", "ten"), "--set: zfs_vdev_max_active: \"ten\" is not an integer");
  EXPECT_EQ(set("zfs_vdev_max_active", "10K"), "--set: zfs_vdev_max_active: \"10K\" is not an integer");
  EXPECT_EQ(set("zfs_vdev_max_active", ""), "--set: zfs_vdev_max_active: empty value");
  EXPECT_EQ(set("zfs_vdev_max_active", "0"), "--set: zfs_vdev_max_active: must be between 1 and 2147483647 (got 0)");
  EXPECT_EQ(set("zfs_vdev_max_active", "-3"),
            "--set: zfs_vdev_max_active: must be between 1 and 2147483647 (got -3)");
  EXPECT_EQ(set("zfs_vdev_max_active", "99999999999999999999"),
            "--set: zfs_vdev_max_active: \"99999999999999999999\" is too large");
  EXPECT_EQ(set("vdev_mirror_shift", "63"), "--set: vdev_mirror_shift: must be between 0 and 62 (got 63)");
  EXPECT_EQ(set("zfs_vdev_aggregation_limit", "32M"),
            "--set: zfs_vdev_aggregation_limit: must be between 0 and 16M (got 32M)");
  EXPECT_EQ(set("zfs_vdev_aggregation_limit", "12Q"),
            "--set: zfs_vdev_aggregation_limit: \"12Q\" is not a size: expected a number and an optional unit: K, M, G, T or KiB ... "
            "TiB (2^10 steps), KB ... TB (10^3 steps)");
  EXPECT_EQ(set("zfs_vdev_aggregation_limit", "-1"), "--set: zfs_vdev_aggregation_limit: \"-1\" is negative");
  EXPECT_EQ(set("zfs_vdev_mirror_rotating_seek_offset", "-1"),
            "--set: zfs_vdev_mirror_rotating_seek_offset: \"-1\" is negative");
  EXPECT_EQ(set("ziosim_vdev_aggregate_sync_reads", "maybe"),
            "--set: ziosim_vdev_aggregate_sync_reads: \"maybe\" is not a boolean (true/false, 1/0, yes/no, "
            "on/off)");
  EXPECT_EQ(set("ziosim_vdev_scheduler", "fifo"), "--set: ziosim_vdev_scheduler: \"fifo\" is not one of deadline or class");
  EXPECT_EQ(set("ziosim_vdev_lba_last", "middle"),
            "--set: ziosim_vdev_lba_last: \"middle\" is not one of start, end or bucket");
  EXPECT_EQ(set("mirror_policy", " "), "--set: mirror_policy: empty value: give a name");
  // A failed Set leaves the old value.
  EXPECT_EQ(t.Int("zfs_vdev_max_active"), 1000);
}

TEST(TunablesTest, UnknownNameSuggestsTheClosest) {
  Tunables t;
  EXPECT_EQ(ErrorOf([&] { t.Set("mirror_polcy", "rotor", "--set"); }),
            "--set: mirror_polcy: unknown tunable; did you mean mirror_policy? (`ziosim tunables` lists them all)");
  EXPECT_EQ(ErrorOf([&] { t.Set("zfs_vdev_max_activ", "1", "--set"); }),
            "--set: zfs_vdev_max_activ: unknown tunable; did you mean zfs_vdev_max_active? (`ziosim tunables` "
            "lists them all)");
  EXPECT_EQ(ErrorOf([&] { t.Set("xyzzy", "1", "--set"); }),
            "--set: xyzzy: unknown tunable (`ziosim tunables` lists them all)");
  // Another case, a FreeBSD sysctl name, a fragment.
  EXPECT_EQ(SuggestTunables("ZFS_VDEV_READ_GAP_LIMIT"), std::vector<std::string>{"zfs_vdev_read_gap_limit"});
  EXPECT_EQ(SuggestTunables("vfs.zfs.vdev.aggregation_limit").front(), "zfs_vdev_aggregation_limit");
  EXPECT_EQ(SuggestTunables("vfs.zfs.vdev.mirror.rotating_inc").front(), "zfs_vdev_mirror_rotating_inc");
  const std::vector<std::string> sync = SuggestTunables("sync_read_max_active");
  ASSERT_FALSE(sync.empty());
  EXPECT_EQ(sync.front(), "zfs_vdev_sync_read_max_active");
}

TEST(TunablesTest, WrongAccessorIsAProgrammingError) {
  const Tunables t;
  EXPECT_THROW(t.Int("mirror_policy"), std::logic_error);
  EXPECT_THROW(t.Choice("zfs_vdev_max_active"), std::logic_error);
  EXPECT_THROW(t.Int("no_such_tunable"), std::logic_error);
}

TEST(TunablesTest, ValuesDescribeTheRange) {
  EXPECT_EQ(TunableValues(*FindTunable("zfs_vdev_aggregation_limit")), "0..16M");
  EXPECT_EQ(TunableValues(*FindTunable("zfs_vdev_mirror_rotating_seek_offset")), ">= 0");
  EXPECT_EQ(TunableValues(*FindTunable("ziosim_vdev_scheduler")), "deadline|class");
  EXPECT_EQ(TunableValues(*FindTunable("ziosim_vdev_aggregate_sync_reads")), "true|false");
  EXPECT_EQ(TunableValues(*FindTunable("mirror_policy")), "any registered name");
}

// ---- Era profiles ----

// Numbers in names compare as numbers.
const std::vector<std::string> kProfiles = {"freebsd-8.2", "freebsd-9",   "freebsd-9.0",        "freebsd-10",
                                            "freebsd-11",  "freebsd-12",  "onnv-134",           "openzfs-2.1",  "openzfs-2.1.0",        "openzfs-2.2",
                                            "solaris-11-express", "zol-0.6.1", "zol-0.6.2", "zol-0.6.5",
                                            "zol-0.7",     "zol-0.7.6",   "zol-0.8"};

TEST(EraProfilesTest, AllProfilesLoadSortedWithDescriptions) {
  const std::vector<EraProfile> profiles = EraProfiles();
  std::vector<std::string> names;
  for (const EraProfile& p : profiles) {
    names.push_back(p.name);
    EXPECT_FALSE(p.description.empty()) << p.name;
    const Tunables fallback;
    for (const auto& [name, value] : p.settings) {
      // Profiles set only what differs from the fallbacks, written canonically.
      EXPECT_NE(value, fallback.Text(name)) << p.name << ": " << name << " repeats the fallback";
    }
  }
  EXPECT_EQ(names, kProfiles);
  EXPECT_EQ(ProfileNames(), kProfiles);
  EXPECT_NO_THROW(ProfileTunables(kDefaultProfile));
}

TEST(EraProfilesTest, DefaultProfileIsTheFallbacks) {
  const Tunables fallback;
  const Tunables t = ProfileTunables("openzfs-2.2");
  for (const TunableDef& def : TunableTable()) EXPECT_EQ(t.Text(def.name), fallback.Text(def.name)) << def.name;
}

TEST(EraProfilesTest, DeadlineErasUseTheirClocksAndPolicies) {
  const Tunables fb9 = ProfileTunables("freebsd-9");
  EXPECT_EQ(fb9.Choice("ziosim_vdev_scheduler"), "deadline");
  EXPECT_EQ(fb9.Choice("mirror_policy"), "rotor");
  EXPECT_EQ(fb9.Int("zfs_vdev_time_shift"), 6);
  EXPECT_EQ(fb9.Int("ziosim_vdev_time_unit_ns"), 1000000);
  EXPECT_EQ(fb9.Int("zfs_vdev_max_pending"), 10);
  EXPECT_EQ(fb9.Int("zfs_vdev_min_pending"), 4);
  EXPECT_EQ(fb9.Int("zfs_vdev_ramp_rate"), 2);
  EXPECT_EQ(fb9.Int("zfs_vdev_aggregation_limit"), 128 << 10);
  EXPECT_EQ(fb9.Int("zfs_vdev_read_gap_limit"), 32 << 10);
  EXPECT_EQ(fb9.Int("ziosim_max_device_io"), 128 << 10);

  const Tunables zol061 = ProfileTunables("zol-0.6.1");
  EXPECT_EQ(zol061.Choice("ziosim_vdev_scheduler"), "deadline");
  EXPECT_EQ(zol061.Choice("mirror_policy"), "rotor");
  EXPECT_EQ(zol061.Int("zfs_vdev_time_shift"), 6);
  EXPECT_EQ(zol061.Int("ziosim_vdev_time_unit_ns"), 4000000);
  EXPECT_EQ(zol061.Int("zfs_vdev_aggregation_limit"), 128 << 10);
  EXPECT_EQ(zol061.Int("ziosim_max_device_io"), 512 << 10);

  const Tunables zol062 = ProfileTunables("zol-0.6.2");
  EXPECT_EQ(zol062.Choice("ziosim_vdev_scheduler"), "deadline");
  EXPECT_EQ(zol062.Choice("mirror_policy"), "least_pending");
  EXPECT_EQ(zol062.Int("zfs_vdev_time_shift"), 29);
  EXPECT_EQ(zol062.Int("ziosim_vdev_time_unit_ns"), 1);
  EXPECT_EQ(zol062.Int("zfs_vdev_mirror_switch_us"), 10000);
}

TEST(EraProfilesTest, ClassSchedulerErasFollowTheReference) {
  const Tunables fb10 = ProfileTunables("freebsd-10");
  EXPECT_EQ(fb10.Choice("ziosim_vdev_scheduler"), "class");
  EXPECT_EQ(fb10.Choice("mirror_policy"), "load_locality");
  EXPECT_EQ(fb10.Choice("mirror_last_offset"), "selection");
  EXPECT_FALSE(fb10.Bool("ziosim_vdev_aggregate_sync_reads"));
  EXPECT_FALSE(fb10.Bool("ziosim_vdev_aggregate_cross_class"));
  EXPECT_EQ(fb10.Choice("ziosim_vdev_lba_last"), "start");
  EXPECT_EQ(fb10.Int("zfs_vdev_aggregation_limit"), 128 << 10);
  EXPECT_EQ(fb10.Int("zfs_vdev_async_write_min_active"), 1);
  EXPECT_EQ(fb10.Int("zfs_vdev_scrub_max_active"), 2);
  EXPECT_EQ(fb10.Int("ziosim_max_device_io"), 128 << 10);

  const Tunables fb11 = ProfileTunables("freebsd-11");
  EXPECT_TRUE(fb11.Bool("ziosim_vdev_aggregate_sync_reads"));
  EXPECT_TRUE(fb11.Bool("ziosim_vdev_aggregate_cross_class"));
  EXPECT_EQ(fb11.Int("zfs_vdev_aggregation_limit"), 128 << 10);
  EXPECT_EQ(fb11.Choice("mirror_last_offset"), "selection");

  const Tunables fb12 = ProfileTunables("freebsd-12");
  EXPECT_EQ(fb12.Int("zfs_vdev_aggregation_limit"), 1 << 20);
  EXPECT_EQ(fb12.Choice("mirror_last_offset"), "selection");
  EXPECT_EQ(fb12.Choice("ziosim_vdev_lba_last"), "start");
  EXPECT_EQ(fb12.Int("ziosim_max_device_io"), 128 << 10);

  const Tunables zol065 = ProfileTunables("zol-0.6.5");
  EXPECT_EQ(zol065.Choice("ziosim_vdev_scheduler"), "class");
  EXPECT_EQ(zol065.Choice("mirror_policy"), "least_pending");
  EXPECT_TRUE(zol065.Bool("ziosim_vdev_aggregate_sync_reads"));
  EXPECT_TRUE(zol065.Bool("ziosim_vdev_aggregate_cross_class"));
  EXPECT_EQ(zol065.Choice("ziosim_vdev_lba_last"), "start");
  EXPECT_EQ(zol065.Int("zfs_vdev_async_write_min_active"), 1);

  const Tunables zol07 = ProfileTunables("zol-0.7");
  EXPECT_EQ(zol07.Choice("mirror_policy"), "load_locality");
  EXPECT_EQ(zol07.Choice("mirror_last_offset"), "selection");
  EXPECT_EQ(zol07.Int("zfs_vdev_async_write_min_active"), 2);
  EXPECT_EQ(zol07.Choice("ziosim_vdev_lba_last"), "start");
  EXPECT_EQ(zol07.Int("zfs_vdev_aggregation_limit"), 128 << 10);

  const Tunables zol08 = ProfileTunables("zol-0.8");
  EXPECT_EQ(zol08.Choice("mirror_last_offset"), "issue");
  EXPECT_EQ(zol08.Int("zfs_vdev_aggregation_limit"), 1 << 20);
  EXPECT_EQ(zol08.Int("zfs_vdev_aggregation_limit_non_rotating"), 128 << 10);
  EXPECT_EQ(zol08.Choice("ziosim_vdev_lba_last"), "end");
  EXPECT_EQ(zol08.Int("zfs_vdev_scrub_max_active"), 2);

  const Tunables ozfs21 = ProfileTunables("openzfs-2.1");
  EXPECT_EQ(ozfs21.Int("zfs_vdev_scrub_max_active"), 3);
  EXPECT_EQ(ozfs21.Choice("ziosim_vdev_lba_last"), "end");
  // 2.1.6 backported the 2022 prefetcher and aliquot (884364ea85, 6e1e90d64c); 2.1.0-2.1.5 had the 2015 ones.
  EXPECT_EQ(ozfs21.Choice("ziosim_zfetch_era"), "2022");
  EXPECT_EQ(ozfs21.Int("zfetch_max_distance"), 64 << 20);
  const Tunables ozfs210 = ProfileTunables("openzfs-2.1.0");
  EXPECT_EQ(ozfs210.Choice("ziosim_zfetch_era"), "2015");
  EXPECT_EQ(ozfs210.Int("zfetch_max_distance"), 8 << 20);
  EXPECT_EQ(ozfs210.Text("metaslab_aliquot"), "512K");

  EXPECT_EQ(ProfileTunables("openzfs-2.2").Choice("ziosim_vdev_lba_last"), "bucket");
}

TEST(EraProfilesTest, SettingsKeepFileOrder) {
  for (const EraProfile& p : EraProfiles()) {
    if (p.name != "freebsd-9") continue;
    ASSERT_GE(p.settings.size(), 6u);
    EXPECT_EQ(p.settings[0].first, "ziosim_vdev_scheduler");
    EXPECT_EQ(p.settings[3], (std::pair<std::string, std::string>{"zfs_vdev_aggregation_limit", "128K"}));
    EXPECT_EQ(p.settings[5].first, "ziosim_max_device_io");
  }
}

TEST(EraProfilesTest, UnknownProfileListsTheKnownOnes) {
  const std::string err = ErrorOf([] { ProfileTunables("freebsd-13"); });
  EXPECT_EQ(err.rfind("unknown profile \"freebsd-13\"; did you mean freebsd-10, freebsd-11 or freebsd-12?; known "
                      "profiles: freebsd-8.2, freebsd-9, freebsd-9.0, freebsd-10, freebsd-11, freebsd-12, onnv-134",
                      0),
            0u)
      << err;
  EXPECT_NE(err.find("(or a path to a .toml profile file)"), std::string::npos) << err;
}

TEST(EraProfilesTest, ProfileFileByPath) {
  const TempFile f("mine.toml",
                   "description = \"my tuning\"\n"
                   "[tunables]\n"
                   "zfs_vdev_async_read_max_active = 8\n"
                   "ziosim_vdev_aggregate_sync_reads = false\n"
                   "zfs_vdev_aggregation_limit = 262144\n");
  const Tunables t = ProfileTunables(f.path());
  EXPECT_EQ(t.Int("zfs_vdev_async_read_max_active"), 8);
  EXPECT_FALSE(t.Bool("ziosim_vdev_aggregate_sync_reads"));
  EXPECT_EQ(t.Text("zfs_vdev_aggregation_limit"), "256K");
  const EraProfile p = LoadProfileFile(f.path());
  EXPECT_EQ(p.description, "my tuning");
  ASSERT_EQ(p.settings.size(), 3u);
  EXPECT_EQ(p.settings[2].second, "256K");
}

TEST(EraProfilesTest, MalformedProfileFilesNameFileAndLine) {
  struct Bad {
    const char* text;
    std::string want;  // after "PATH:"
  };
  const Bad cases[] = {
      {"description = \"x\"\n[tunables]\nzfs_vdev_max_active = 0\n",
       "3: zfs_vdev_max_active: must be between 1 and 2147483647 (got 0)"},
      {"description = \"x\"\n[tunables]\n\nmirror_polcy = \"rotor\"\n",
       "4: mirror_polcy: unknown tunable; did you mean mirror_policy? (`ziosim tunables` lists them all)"},
      {"description = \"x\"\n[tunables]\nzfs_vdev_aggregation_limit = 1.5\n",
       "3: zfs_vdev_aggregation_limit: expected a string, an integer or a boolean, got a float"},
      {"description = \"x\"\n[tunables]\nziosim_vdev_scheduler = \"elevator\"\n",
       "3: ziosim_vdev_scheduler: \"elevator\" is not one of deadline or class"},
      {"[tunables]\n", "1: description: missing"},
      {"description = 3\n", "1: description: expected a non-empty string"},
      {"description = \"x\"\nbased_on = \"zol-0.8\"\n",
       "2: based_on: unknown key (a profile has description and [tunables])"},
      {"description = \"x\"\ntunables = 5\n", "2: tunables: expected a [tunables] table, got an integer"},
  };
  int n = 0;
  for (const Bad& c : cases) {
    const TempFile f("bad" + std::to_string(n++) + ".toml", c.text);
    EXPECT_EQ(ErrorOf([&] { LoadProfileFile(f.path()); }), f.path() + ":" + c.want) << c.text;
  }
  const TempFile syntax("syntax.toml", "description = \"x\"\n[tunables\n");
  const std::string err = ErrorOf([&] { LoadProfileFile(syntax.path()); });
  EXPECT_EQ(err.rfind(syntax.path() + ":2: ", 0), 0u) << err;
  EXPECT_EQ(ErrorOf([] { LoadProfileFile("/nonexistent/p.toml"); }), "/nonexistent/p.toml: cannot open profile file");
}

}  // namespace
}  // namespace ziosim

namespace ziosim {
namespace {

// ZoL 0.7.6 got d6c6590c5d backported (06acbbc429): the issue-time last offset
// for the mirror policy and the LBA order. Nothing else differs from 0.7.0-0.7.5.
TEST(EraProfilesTest, Zol076DiffersFromZol07OnlyInTheLastOffset) {
  const Tunables old = ProfileTunables("zol-0.7");
  const Tunables backport = ProfileTunables("zol-0.7.6");
  EXPECT_EQ(old.Choice("mirror_last_offset"), "selection");
  EXPECT_EQ(backport.Choice("mirror_last_offset"), "issue");
  EXPECT_EQ(old.Choice("ziosim_vdev_lba_last"), "start");
  EXPECT_EQ(backport.Choice("ziosim_vdev_lba_last"), "end");
  for (const TunableDef& def : TunableTable()) {
    const std::string name(def.name);
    if (name == "mirror_last_offset" || name == "ziosim_vdev_lba_last") continue;
    EXPECT_EQ(old.Text(name), backport.Text(name)) << name;
  }
}

}  // namespace
}  // namespace ziosim
