// Runs the built `ziosim profiles` and `ziosim tunables` as a user would.
#include <gtest/gtest.h>

#include <cstdio>
#include <set>
#include <string>

#include <nlohmann/json.hpp>

#include "tests/sim/cli/cli_runner.h"

namespace profiles_cli_test {

using ziosim::testing::CliRun;

CliRun RunCli(const std::string& args) { return ziosim::testing::RunCli(args, /*merge_stderr=*/true); }

const std::set<std::string> kProfiles = {"freebsd-8.2", "freebsd-9.0", "solaris-11-express", "freebsd-9",  "freebsd-10", "freebsd-11", "freebsd-12",
                                         "zol-0.6.1",  "zol-0.6.2",  "zol-0.6.5",  "zol-0.7",
                                         "zol-0.8",    "openzfs-2.1", "openzfs-2.2", "onnv-134", "zol-0.7.6", "openzfs-2.1.0"};

TEST(ProfilesCliTest, JsonListsEveryProfileWithEveryTunable) {
  SKIP_WITHOUT_CLI();
  const CliRun run = RunCli("profiles --json");
  ASSERT_EQ(run.status, 0) << run.out;
  const nlohmann::json j = nlohmann::json::parse(run.out);
  ASSERT_TRUE(j.contains("profiles"));
  std::set<std::string> names;
  size_t tunables = 0;
  for (const nlohmann::json& p : j["profiles"]) {
    names.insert(p["name"].get<std::string>());
    EXPECT_FALSE(p["description"].get<std::string>().empty());
    if (tunables == 0) tunables = p["tunables"].size();
    EXPECT_EQ(p["tunables"].size(), tunables) << p["name"];
    for (const auto& [name, value] : p["tunables"].items()) EXPECT_TRUE(value.is_string()) << name;
  }
  EXPECT_EQ(names, kProfiles);
  EXPECT_GT(tunables, 30u);
  for (const nlohmann::json& p : j["profiles"]) {
    if (p["name"] == "freebsd-9") {
      EXPECT_EQ(p["tunables"]["ziosim_vdev_scheduler"], "deadline");
      EXPECT_EQ(p["tunables"]["mirror_policy"], "rotor");
      EXPECT_EQ(p["tunables"]["zfs_vdev_aggregation_limit"], "128K");
    }
  }
}

TEST(ProfilesCliTest, JsonDiffHasOnlyChangedTunables) {
  SKIP_WITHOUT_CLI();
  const CliRun run = RunCli("profiles --json --diff");
  ASSERT_EQ(run.status, 0) << run.out;
  const nlohmann::json j = nlohmann::json::parse(run.out);
  for (const nlohmann::json& p : j["profiles"]) {
    if (p["name"] == "openzfs-2.2") {
      EXPECT_TRUE(p["tunables"].empty());
    }
    if (p["name"] == "zol-0.8") {
      EXPECT_EQ(p["tunables"]["zfs_vdev_scrub_max_active"], "2");
      EXPECT_EQ(p["tunables"]["ziosim_vdev_lba_last"], "end");
      EXPECT_EQ(p["tunables"]["ziosim_zfetch_era"], "2015");
      EXPECT_FALSE(p["tunables"].contains("mirror_policy"));  // unchanged: not in the diff
    }
  }
}

TEST(ProfilesCliTest, TextTableAndDiff) {
  SKIP_WITHOUT_CLI();
  const CliRun table = RunCli("profiles");
  ASSERT_EQ(table.status, 0) << table.out;
  for (const std::string& name : kProfiles) EXPECT_NE(table.out.find(name), std::string::npos) << name;
  EXPECT_NE(table.out.find("ziosim_vdev_scheduler"), std::string::npos) << table.out;
  const CliRun diff = RunCli("profiles --diff");
  ASSERT_EQ(diff.status, 0) << diff.out;
  EXPECT_NE(diff.out.find("freebsd-9: mirror_policy=rotor ziosim_vdev_scheduler=deadline"), std::string::npos) << diff.out;
  EXPECT_NE(diff.out.find("openzfs-2.2:\n"), std::string::npos) << diff.out;
  // Profiles come in era order: numbers in names compare as numbers.
  EXPECT_EQ(diff.out.rfind("freebsd-8.2:", 0), 0u) << diff.out;
  EXPECT_LT(diff.out.find("freebsd-9:"), diff.out.find("freebsd-10:")) << diff.out;
}

TEST(ProfilesCliTest, TunablesJson) {
  SKIP_WITHOUT_CLI();
  const CliRun run = RunCli("tunables --json");
  ASSERT_EQ(run.status, 0) << run.out;
  const nlohmann::json j = nlohmann::json::parse(run.out);
  ASSERT_TRUE(j.is_array());
  bool found = false;
  for (const nlohmann::json& t : j) {
    for (const char* key : {"name", "kind", "unit", "fallback", "values", "doc"}) EXPECT_TRUE(t.contains(key)) << key;
    if (t["name"] == "zfs_vdev_aggregation_limit") {
      found = true;
      EXPECT_EQ(t["kind"], "bytes");
      EXPECT_EQ(t["fallback"], "1M");
    }
  }
  EXPECT_TRUE(found);
  const CliRun text = RunCli("tunables");
  ASSERT_EQ(text.status, 0);
  EXPECT_NE(text.out.find("zfs_vdev_async_read_max_active"), std::string::npos);
}

}  // namespace profiles_cli_test
