// Runs the built `ziosim validate-disksim` as a user would.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>

#include <nlohmann/json.hpp>

#include "tests/sim/cli/cli_runner.h"
#include "tests/test_util.h"

namespace validate_disksim_cli_test {

using ziosim::testing::CliRun;
using ziosim::testing::ReadText;
using ziosim::testing::RunCli;
using ziosim::testing::TempPath;

// The data path comes from the build; a build without it skips these tests.
const std::string kDataDir = ziosim::test::SharedDataDir() + "/disksim-valid/";

TEST(ValidateDisksimCliTest, MalformedTraceLineExitsTwoWithFileAndLine) {
  SKIP_WITHOUT_CLI();
  const std::string parv = kDataDir + "atlas_III.parv";
  if (!std::filesystem::exists(parv)) GTEST_SKIP() << "DiskSim validation data absent: " << parv;
  const TempPath trace("bad.trace");
  std::ofstream(trace.str()) << "R Hit 100 8 1234.5 10.25\nR Hit 100 8 abc 10.25\n";
  // The trace streams through the replay: line 1 replays on the drive, line 2 stops it.
  const CliRun run = RunCli("validate-disksim '" + parv + "' '" + trace.str() + "'");
  EXPECT_EQ(run.status, 2);
  const std::string want = trace.str() + ":2: field measured_service_us: expected a finite number";
  EXPECT_NE(run.err.find(want), std::string::npos) << run.err;
  // Reported alone: the drive's ignored keys come only after a trace read to its end.
  EXPECT_EQ(run.err.find("spec keys ignored"), std::string::npos) << run.err;
}

TEST(ValidateDisksimCliTest, EmptyTraceExitsTwo) {
  SKIP_WITHOUT_CLI();
  const std::string parv = kDataDir + "atlas_III.parv";
  if (!std::filesystem::exists(parv)) GTEST_SKIP() << "DiskSim validation data absent: " << parv;
  const TempPath trace("empty.trace");
  std::ofstream(trace.str()) << "\n  \n";
  const CliRun run = RunCli("validate-disksim '" + parv + "' '" + trace.str() + "'");
  EXPECT_EQ(run.status, 2);
  EXPECT_NE(run.err.find(trace.str() + ": the trace holds no requests"), std::string::npos) << run.err;
}

TEST(ValidateDisksimCliTest, MissingTraceExitsTwoNamingIt) {
  SKIP_WITHOUT_CLI();
  const TempPath trace("missing.trace");
  const CliRun run = RunCli("validate-disksim x.parv '" + trace.str() + "'");
  EXPECT_EQ(run.status, 2);
  EXPECT_NE(run.err.find(trace.str() + ": cannot open"), std::string::npos) << run.err;
}

// A spec key out of DiskSim's range stops the run before any request, naming the spec's line.
TEST(ValidateDisksimCliTest, OutOfRangeSpecKeyExitsTwoWithFileAndLine) {
  SKIP_WITHOUT_CLI();
  const std::string parv = kDataDir + "atlas_III.parv";
  if (!std::filesystem::exists(parv)) GTEST_SKIP() << "DiskSim validation data absent: " << parv;
  const std::filesystem::path dir = ::testing::TempDir() + "ziosim-preseek-spec";
  std::filesystem::create_directories(dir);
  for (const char* name : {"atlas_III.parv", "atlas_III.model", "atlas_III.seek"}) {
    std::filesystem::copy_file(kDataDir + name, dir / name, std::filesystem::copy_options::overwrite_existing);
  }
  std::string specs = ReadText(kDataDir + "atlas_III.diskspecs");
  const size_t at = specs.find("Preseeking level = 0");
  ASSERT_NE(at, std::string::npos);
  specs.replace(at, 20, "Preseeking level = 3");
  std::ofstream(dir / "atlas_III.diskspecs") << specs;
  const std::string line = std::to_string(1 + std::count(specs.begin(), specs.begin() + at, '\n'));
  const CliRun run = RunCli("validate-disksim '" + (dir / "atlas_III.parv").string() + "' '" + kDataDir +
                            "atlas_III.trace'");
  std::filesystem::remove_all(dir);
  EXPECT_EQ(run.status, 2);
  const std::string want = (dir / "atlas_III.diskspecs").string() + ":" + line + ": 'Preseeking level' = 3 is outside 0..2";
  EXPECT_NE(run.err.find(want), std::string::npos) << run.err;
}

TEST(ValidateDisksimCliTest, RealDriveJsonHasTheFigures) {
  SKIP_WITHOUT_CLI();
  const std::string parv = kDataDir + "hp_c2490a.parv";
  if (!std::filesystem::exists(parv)) GTEST_SKIP() << "DiskSim validation data absent: " << parv;
  const TempPath csv("per_request.csv");
  const CliRun run = RunCli("validate-disksim --json --per-request '" + csv.str() + "' '" + parv + "' '" +
                            kDataDir + "hp_c2490a.trace'");
  ASSERT_EQ(run.status, 0) << run.err;
  const nlohmann::json j = nlohmann::json::parse(run.out);
  for (const char* key : {"requests", "measured_mean_ms", "sim_mean_ms", "mean_error_pct", "demerit_ms",
                          "demerit_pct", "measured_p50_ms", "measured_p90_ms", "measured_p99_ms", "sim_p50_ms",
                          "sim_p90_ms", "sim_p99_ms", "requests_per_sec"}) {
    EXPECT_TRUE(j.contains(key)) << key;
  }
  EXPECT_EQ(j["requests"], 9984);
  EXPECT_NEAR(j["measured_mean_ms"].get<double>(), 12.5497, 1e-4);  // DiskSim's printed trace mean

  std::ifstream in(csv.str());
  std::string line;
  int lines = 0;
  std::getline(in, line);
  EXPECT_EQ(line, "i,op,lbn,blocks,measured_ms,sim_ms,cache,seek_cyls,seek_ms,latency_ms,xfer_ms,cyl,head,sector");
  while (std::getline(in, line)) ++lines;
  EXPECT_EQ(lines, 9984);
}

TEST(ValidateDisksimCliTest, UnwritableCsvExitsTwoAndLeavesNothing) {
  SKIP_WITHOUT_CLI();
  const std::string parv = kDataDir + "hp_c2490a.parv";
  if (!std::filesystem::exists(parv)) GTEST_SKIP() << "DiskSim validation data absent: " << parv;
  const std::string csv = ::testing::TempDir() + "ziosim-no-such-dir/out.csv";
  const CliRun run =
      RunCli("validate-disksim --per-request '" + csv + "' '" + parv + "' '" + kDataDir + "hp_c2490a.trace'");
  EXPECT_EQ(run.status, 2);
  EXPECT_NE(run.err.find(csv + ": cannot write"), std::string::npos) << run.err;
  EXPECT_FALSE(std::filesystem::exists(csv));
}

}  // namespace validate_disksim_cli_test
