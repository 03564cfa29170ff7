// Runs the built `ziosim writers` as a user would.
#include <gtest/gtest.h>

#include <string>

#include <nlohmann/json.hpp>

#include "tests/sim/cli/cli_runner.h"

namespace {

using ziosim::testing::CliRun;

TEST(WritersCliTest, SweepAsJson) {
  SKIP_WITHOUT_CLI();
  const CliRun run = ziosim::testing::RunCli(
      "writers --pool 'mirror 2xwd-re4-1tb' --writers 1,2 --file-size 32M --read-back --json");
  ASSERT_EQ(run.status, 0) << run.err;
  const nlohmann::json j = nlohmann::json::parse(run.out);
  ASSERT_EQ(j["runs"].size(), 2u);
  for (int i = 0; i < 2; ++i) {
    const nlohmann::json& r = j["runs"][i];
    EXPECT_EQ(r["writers"], i + 1);
    EXPECT_EQ(r["app_bytes_written"], (i + 1) * (32 << 20));
    EXPECT_GT(r["throughput_mb_s"].get<double>(), 0);
    EXPECT_GT(r["read_back_mb_s"].get<double>(), 0);
    EXPECT_GE(r["txgs"].get<int>(), 1);
    // A mirror writes everything twice.
    EXPECT_GT(r["disk_bytes_written"].get<int64_t>(), 2 * r["app_bytes_written"].get<int64_t>());
    EXPECT_EQ(r["disks"].size(), 2u);
  }
}

TEST(WritersCliTest, TableAndBadInput) {
  SKIP_WITHOUT_CLI();
  const CliRun table = ziosim::testing::RunCli("writers --pool 'raidz2 5xwd-re4-1tb' --writers 1 --file-size 16M");
  ASSERT_EQ(table.status, 0) << table.err;
  EXPECT_NE(table.out.find("throttle %"), std::string::npos);
  const CliRun bad = ziosim::testing::RunCli("writers --pool 'mirror 2xwd-re4-1tb' --writers 0");
  EXPECT_EQ(bad.status, 2);
  EXPECT_NE(bad.err.find("--writers"), std::string::npos) << bad.err;
  const CliRun unknown = ziosim::testing::RunCli("writers --pool 'mirror 2xwd-re4-1tb' --set zfs_dirty_data=1");
  EXPECT_EQ(unknown.status, 2);
}

}  // namespace
