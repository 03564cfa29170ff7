// Runs the built `ziosim fio` as a user would.
#include <gtest/gtest.h>

#include <filesystem>
#include <string>

#include <nlohmann/json.hpp>

#include "tests/sim/cli/cli_runner.h"

namespace {

using ziosim::testing::CliRun;
using ziosim::testing::ReadText;
using ziosim::testing::RunCli;
using ziosim::testing::TempPath;

std::string Example(const std::string& name) {
  return (std::filesystem::path(__FILE__).parent_path().parent_path().parent_path().parent_path() / "scenarios" /
          "fio" / name)
      .string();
}

const char* kJob =
    "[global]\n"
    "rw=randread\nbs=4k\ndirect=1\nruntime=1\ntime_based\n"
    "[qd4]\nioengine=libaio\niodepth=4\n";

TEST(FioCliTest, JsonToStdoutHasFiosKeys) {
  SKIP_WITHOUT_CLI();
  const TempPath job("job.fio", kJob);
  const CliRun run = RunCli("fio '" + job.str() + "' --target generic-ssd --output-format json");
  ASSERT_EQ(run.status, 0) << run.out << run.err;
  const nlohmann::json j = nlohmann::json::parse(run.out);
  EXPECT_EQ(j["fio version"], "ziosim-fio");
  EXPECT_EQ(j["global options"]["rw"], "randread");
  const nlohmann::json& read = j["jobs"][0]["read"];
  EXPECT_EQ(j["jobs"][0]["jobname"], "qd4");
  EXPECT_EQ(j["jobs"][0]["job options"]["iodepth"], "4");
  EXPECT_GT(read["bw_bytes"].get<int64_t>(), 0);
  EXPECT_GT(read["iops"].get<double>(), 0);
  EXPECT_EQ(read["clat_ns"]["percentile"].size(), 17u);
  EXPECT_EQ(j["jobs"][0]["write"]["total_ios"], 0);
  EXPECT_EQ(j["disk_util"][0]["name"], "generic-ssd");
}

TEST(FioCliTest, NormalOutputToAFileIsTheSameRunAsJson) {
  SKIP_WITHOUT_CLI();
  const TempPath job("job.fio", kJob);
  const TempPath out("out.txt");
  const CliRun run = RunCli("fio '" + job.str() + "' --target generic-ssd --output '" + out.str() + "'");
  ASSERT_EQ(run.status, 0) << run.out << run.err;
  EXPECT_TRUE(run.out.empty()) << run.out;
  const std::string text = ReadText(out.str());
  EXPECT_NE(text.find("qd4: (groupid=0, jobs=1): rw=randread, bs=4096, ioengine=libaio, iodepth=4 (in flight: 4)"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("clat (usec): mean="), std::string::npos) << text;
  EXPECT_NE(text.find("generic-ssd: ios="), std::string::npos) << text;
}

TEST(FioCliTest, ExamplesRunOnTheirTargets) {
  SKIP_WITHOUT_CLI();
  const CliRun pool = RunCli("fio '" + Example("zfs-seqread-numjobs.fio") +
                             "' --target 'mirror 2xwd-re4-1tb' --profile zol-0.7 --output-format json");
  ASSERT_EQ(pool.status, 0) << pool.out << pool.err;
  const nlohmann::json j = nlohmann::json::parse(pool.out);
  ASSERT_EQ(j["jobs"].size(), 1u);  // group_reporting: four clones, one entry
  EXPECT_EQ(j["jobs"][0]["read"]["io_bytes"], int64_t{1} << 30);
  EXPECT_EQ(j["disk_util"].size(), 2u);
  EXPECT_TRUE(std::filesystem::exists(Example("hdd-ncq.fio")));
}

TEST(FioCliTest, BadInputExitsWithStatus2AndOneLine) {
  SKIP_WITHOUT_CLI();
  const TempPath bad("bad.fio", "[j]\nrw=randread\nblocksize=4k\nqueue_depth=4\n");
  CliRun run = RunCli("fio '" + bad.str() + "' --target generic-ssd");
  EXPECT_EQ(run.status, 2);
  EXPECT_EQ(run.err, "ziosim: " + bad.str() + ":4: unknown fio option 'queue_depth'\n");

  const TempPath job("job.fio", kJob);
  run = RunCli("fio '" + job.str() + "' --target generic-ssd --profile zol-0.7");
  EXPECT_EQ(run.status, 2);
  EXPECT_EQ(run.err,
            "ziosim: --profile: applies to a pool target, and --target generic-ssd is a raw drive "
            "(write 1xgeneric-ssd for a one-disk pool)\n");

  run = RunCli("fio '" + job.str() + "' --target generic-ssd --output-format xml");
  EXPECT_EQ(run.status, 2);
  EXPECT_EQ(run.err, "ziosim: --output-format: \"xml\" is not json or normal\n");

  run = RunCli("fio /nonexistent/job.fio --target generic-ssd");
  EXPECT_EQ(run.status, 2);
  EXPECT_EQ(run.err, "ziosim: /nonexistent/job.fio: cannot read the job file\n");
}

TEST(FioCliTest, IgnoredIodepthIsNotedOnStderr) {
  SKIP_WITHOUT_CLI();
  const TempPath job("zfs.fio",
                     "[j]\nrw=randread\nbs=4k\nioengine=libaio\ndirect=1\niodepth=8\nsize=64m\nruntime=200ms\n");
  const CliRun run = RunCli("fio '" + job.str() + "' --target 1xgeneric-ssd --output-format json");
  ASSERT_EQ(run.status, 0) << run.err;
  EXPECT_NE(run.err.find("ziosim: note: job 'j': iodepth=8 has no effect: ZFS before 2.3 ignores O_DIRECT"),
            std::string::npos)
      << run.err;
  EXPECT_EQ(nlohmann::json::parse(run.out)["jobs"][0]["ziosim"]["effective_iodepth"], 1);
}

TEST(FioCliTest, JsonIsTheResultWithFiosReportInside) {
  SKIP_WITHOUT_CLI();
  const TempPath job("zfs_json.fio",
                     "[j]\nrw=randread\nbs=4k\nioengine=libaio\ndirect=1\niodepth=8\nsize=8m\nruntime=200ms\n");
  const CliRun run = RunCli("fio '" + job.str() + "' --target 1xgeneric-ssd --json");
  ASSERT_EQ(run.status, 0) << run.err;
  const nlohmann::json j = nlohmann::json::parse(run.out);
  EXPECT_EQ(j["workload"], "fio");
  EXPECT_EQ(j["target_kind"], "pool");
  EXPECT_EQ(j["fio"]["fio version"], "ziosim-fio");
  const nlohmann::json& z = j["fio"]["jobs"][0]["ziosim"];
  EXPECT_EQ(z["rw"], "randread");
  EXPECT_EQ(z["bs_bytes"], 4096);
  EXPECT_EQ(z["iodepth"], 8);
  ASSERT_EQ(j["notes"].size(), 1u);
  // With --json the notes go to stderr too: stdout is one JSON value.
  EXPECT_NE(run.err.find("ziosim: note: " + j["notes"][0].get<std::string>()), std::string::npos) << run.err;
}

TEST(FioCliTest, ScenarioFileTakesTheJobText) {
  SKIP_WITHOUT_CLI();
  const TempPath toml("fio.toml", std::string("[workload]\nkind = \"fio\"\ntarget = \"generic-ssd\"\n") +
                                      "output_format = \"json\"\njobfile = \"\"\"\n" + kJob + "\"\"\"\n");
  const CliRun run = RunCli("run '" + toml.str() + "'");
  ASSERT_EQ(run.status, 0) << run.err;
  const nlohmann::json j = nlohmann::json::parse(run.out);  // fio's report, as --output-format json prints it
  EXPECT_EQ(j["jobs"][0]["jobname"], "qd4");
  EXPECT_EQ(j["jobs"][0]["ziosim"]["effective_iodepth"], 4);
}

}  // namespace
