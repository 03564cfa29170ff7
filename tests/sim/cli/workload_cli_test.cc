// Runs the built `ziosim workload` as a user would.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "tests/sim/cli/cli_runner.h"

namespace workload_cli_test {

using ziosim::testing::CliRun;
using ziosim::testing::RunCli;

TEST(WorkloadCliTest, JsonReport) {
  SKIP_WITHOUT_CLI();
  const CliRun run = RunCli(
      "workload workstation --pool 'mirror 2xwd-re4-1tb log generic-ssd' --profile freebsd-9.0 --duration 1s "
      "--threads 2 --nfs latency=300us --json");
  ASSERT_EQ(run.status, 0) << run.err;
  const nlohmann::json j = nlohmann::json::parse(run.out);
  EXPECT_EQ(j["personality"], "workstation");
  EXPECT_EQ(j["pool"], "mirror 2xwd-re4-1tb log generic-ssd");
  const nlohmann::json& r = j["runs"][0];  // the one run (docs/options.md: identity, then runs)
  EXPECT_TRUE(r["nfs"].get<bool>());
  EXPECT_EQ(r["threads"], 2);
  EXPECT_GT(r["ops_per_s"].get<double>(), 0);
  EXPECT_EQ(r["disks"].size(), 3u);
}

TEST(WorkloadCliTest, BadInputExitsWithStatus2) {
  SKIP_WITHOUT_CLI();
  const CliRun unknown = RunCli("workload dtabase --pool wd-re4-1tb --duration 1s");
  EXPECT_EQ(unknown.status, 2);
  EXPECT_NE(unknown.err.find("unknown personality \"dtabase\""), std::string::npos) << unknown.err;
  const CliRun bad_log = RunCli("workload database --pool 'wd-re4-1tb log' --duration 1s");
  EXPECT_EQ(bad_log.status, 2);
  EXPECT_NE(bad_log.err.find("\"log\": needs at least one device after it"), std::string::npos) << bad_log.err;
  const CliRun bad_sync = RunCli("workload database --pool wd-re4-1tb --sync sometimes --duration 1s");
  EXPECT_EQ(bad_sync.status, 2);
  EXPECT_NE(bad_sync.err.find("--sync: \"sometimes\" is not standard, always or disabled"), std::string::npos);
}

}  // namespace workload_cli_test
