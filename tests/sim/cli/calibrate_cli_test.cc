// `ziosim calibrate` as a user runs it: the trace fit on a real DiskSim drive,
// the written file used as a drive by another command, and bad input.
#include <gtest/gtest.h>

#include <fstream>
#include <string>

#include <nlohmann/json.hpp>

#include "tests/sim/cli/cli_runner.h"
#include "tests/test_util.h"

namespace ziosim::testing {
namespace {

const std::string kDataDir = test::SharedDataDir() + "/disksim-valid/";

TEST(CalibrateCliTest, FitsATraceAndTheFileIsADrive) {
  SKIP_WITHOUT_CLI();
  const std::string parv = kDataDir + "barracuda.parv";
  if (!std::ifstream(parv)) GTEST_SKIP() << "shared data not found: " << parv;
  const TempPath out("barracuda-fit.toml");
  const CliRun run = RunCli("calibrate --kind hdd --trace '" + kDataDir + "barracuda.trace' --spec '" + parv +
                            "' -o '" + out.str() + "' --json");
  ASSERT_EQ(run.status, 0) << run.err;
  const nlohmann::json j = nlohmann::json::parse(run.out);
  EXPECT_EQ(j["fitted_requests"], 5000);
  EXPECT_EQ(j["held_out"]["requests"], 5000);
  EXPECT_TRUE(j["held_out"].contains("spec"));
  EXPECT_GT(j["held_out"]["fitted"]["demerit_ms"].get<double>(), 0);
  EXPECT_NE(ReadText(out.str()).find("source = \"calibrated: barracuda.trace requests 1..5000"), std::string::npos);

  const CliRun bench = RunCli("disk-bench --drive '" + out.str() + "' --pattern rand --count 200");
  EXPECT_EQ(bench.status, 0) << bench.err;
}

TEST(CalibrateCliTest, TraceWithoutCapacityIsBadInput) {
  SKIP_WITHOUT_CLI();
  const TempPath trace("t.trace", "R Hit 0 8 1000.0 100.0\n");
  const TempPath out("never.toml");
  const CliRun run = RunCli("calibrate --kind hdd --trace '" + trace.str() + "' --rpm 7200 -o '" + out.str() + "'");
  EXPECT_EQ(run.status, 2);
  EXPECT_EQ(run.err,
            "ziosim: calibrate: --trace needs the drive's capacity and rpm: --capacity and --rpm, or --spec\n");
  EXPECT_FALSE(std::ifstream(out.str()).good());
}

TEST(CalibrateCliTest, RequestPastTheCapacityWritesNothing) {
  SKIP_WITHOUT_CLI();
  const TempPath trace("big.trace", "R Hit 0 8 1000.0 100.0\nR Hit 4096 8 1000.0 100.0\n");
  const TempPath out("never2.toml");
  const CliRun run =
      RunCli("calibrate --kind hdd --trace '" + trace.str() + "' --capacity 1M --rpm 7200 -o '" + out.str() + "'");
  EXPECT_EQ(run.status, 2);
  EXPECT_EQ(run.err, "ziosim: " + trace.str() +
                         ":2: field blkno: block 4096 + 8 runs past the given capacity (2048 blocks)\n");
  EXPECT_FALSE(std::ifstream(out.str()).good());
}

TEST(CalibrateCliTest, OneSourceAtATime) {
  SKIP_WITHOUT_CLI();
  const CliRun run = RunCli("calibrate --kind hdd -o x.toml");
  EXPECT_EQ(run.status, 2);
  EXPECT_EQ(run.err, "ziosim: calibrate: give one of --trace TRACE, fio JSON files, or --pool SPEC (got 0)\n");
}

TEST(CalibrateCliTest, BadMeasuredCsvNamesTheLine) {
  SKIP_WITHOUT_CLI();
  const TempPath csv("m.csv", "readers,mb_s\n1,abc\n");
  const CliRun run = RunCli("calibrate --pool 'mirror 2xwd-re4-1tb' --measured '" + csv.str() + "' -o x.toml");
  EXPECT_EQ(run.status, 2);
  EXPECT_EQ(run.err, "ziosim: " + csv.str() + ":2: field mb_s: expected a number, got \"abc\"\n");
}

// --kind host measures this machine (about two seconds) and writes a host
// profile that a run takes with --host; what it measured is not checked here.
TEST(CalibrateCliTest, HostProfileIsWrittenAndLoadsBack) {
  SKIP_WITHOUT_CLI();
  const TempPath out("host.toml");
  const CliRun run = RunCli("calibrate --kind host -o '" + out.str() + "' --json");
  ASSERT_EQ(run.status, 0) << run.err;
  const nlohmann::json j = nlohmann::json::parse(run.out);
  EXPECT_EQ(j["sizes"].size(), 8u);
  EXPECT_GE(j["cores"].get<int>(), 1);
  const std::string text = ReadText(out.str());
  for (const auto& [name, figure] : j["figures"].items()) {
    const bool set = text.find("\n" + name + " = ") != std::string::npos;
    EXPECT_EQ(set, figure.contains("source")) << name;
  }
  const CliRun readers = RunCli("readers --pool wd-re4-1tb --readers 1 --sparse --bs 4K --file-size 1M --host '" +
                                out.str() + "'");
  EXPECT_EQ(readers.status, 0) << readers.err;
}

TEST(CalibrateCliTest, BadHostFileIsBadInputWithFileAndLine) {
  SKIP_WITHOUT_CLI();
  const TempPath host("bad-host.toml", "description = \"x\"\n[tunables]\nziosim_cpu_cores = 0\n");
  const CliRun run = RunCli("readers --pool wd-re4-1tb --readers 1 --host '" + host.str() + "'");
  EXPECT_EQ(run.status, 2);
  EXPECT_EQ(run.err, "ziosim: " + host.str() + ":3: ziosim_cpu_cores: must be between 1 and 1024 (got 0)\n");
  const CliRun mixed = RunCli("calibrate --kind host --pool wd-re4-1tb -o '" + host.str() + "'");
  EXPECT_EQ(mixed.status, 2);
  EXPECT_EQ(mixed.err, "ziosim: calibrate: --kind host measures this machine and takes no --trace, fio JSON or --pool\n");
}

}  // namespace
}  // namespace ziosim::testing
