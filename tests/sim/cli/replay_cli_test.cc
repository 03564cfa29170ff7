// Runs the built `ziosim replay` as a user would.
#include <gtest/gtest.h>

#include <cstdio>
#include <filesystem>
#include <sstream>
#include <string>

#include <nlohmann/json.hpp>

#include "tests/sim/cli/cli_runner.h"
#include "tests/test_util.h"

namespace {

using ziosim::testing::CliRun;
using ziosim::testing::ReadText;
using ziosim::testing::RunCli;
using ziosim::testing::TempPath;
using ziosim::test::FormatFixture;

TEST(ReplayCliTest, JsonHasTheDocumentedKeys) {
  SKIP_WITHOUT_CLI();
  const CliRun run = RunCli("replay '" + FormatFixture("msr.csv") + "' --target wd-re4-1tb --json");
  ASSERT_EQ(run.status, 0) << run.out << run.err;
  const nlohmann::json j = nlohmann::json::parse(run.out);
  EXPECT_EQ(j["workload"], "replay");
  EXPECT_EQ(j["format"], "msr");
  EXPECT_EQ(j["mode"], "open");
  EXPECT_EQ(j["target_kind"], "drive");
  ASSERT_EQ(j["runs"].size(), 1u);
  const nlohmann::json& r = j["runs"][0];
  for (const char* key : {"requests", "sim_mean_ms", "sim_p99_ms", "measured_mean_ms", "demerit_ms",
                          "mean_error_pct", "skipped", "throughput_mb_s", "iops", "sim_p50_ms"}) {
    EXPECT_TRUE(r.contains(key)) << key;
  }
  EXPECT_EQ(r["requests"], 3);
  EXPECT_EQ(r["skipped"], 0);
  EXPECT_NEAR(r["measured_mean_ms"].get<double>(), (0.2900 + 0.2717 + 4.3538) / 3, 1e-12);
  EXPECT_GT(r["sim_mean_ms"].get<double>(), 0);
  EXPECT_GT(r["demerit_ms"].get<double>(), 0);
}

TEST(ReplayCliTest, TextOutputWithoutMeasuredLatencies) {
  SKIP_WITHOUT_CLI();
  const CliRun run = RunCli("replay '" + FormatFixture("fio_v3.iolog") + "' --target generic-ssd --mode closed:4");
  ASSERT_EQ(run.status, 0) << run.out << run.err;
  EXPECT_NE(run.out.find("(fio-iolog): 5 requests (4 reads, 1 writes)"), std::string::npos) << run.out;
  EXPECT_NE(run.out.find("mode       closed:4"), std::string::npos) << run.out;
  EXPECT_NE(run.out.find("the trace carries no measured latencies"), std::string::npos) << run.out;
}

TEST(ReplayCliTest, JsonNullsTheComparisonWithoutMeasuredLatencies) {
  SKIP_WITHOUT_CLI();
  const CliRun run =
      RunCli("replay '" + FormatFixture("cloudphysics.csv") + "' --target generic-7200-hdd --json --speed 1000");
  ASSERT_EQ(run.status, 0) << run.out << run.err;
  const nlohmann::json j = nlohmann::json::parse(run.out)["runs"][0];
  EXPECT_EQ(j["requests"], 3);
  EXPECT_TRUE(j["measured_mean_ms"].is_null());
  EXPECT_TRUE(j["demerit_ms"].is_null());
  EXPECT_TRUE(j["mean_error_pct"].is_null());
}

TEST(ReplayCliTest, BadTraceExitsWithStatus2AndNamesTheLine) {
  SKIP_WITHOUT_CLI();
  const TempPath bad("bad.csv", "1000,hm,0,Read,0,512,1\n1001,hm,0,Read,0,oops,1\n");
  const CliRun run = RunCli("replay '" + bad.str() + "' --target wd-re4-1tb");
  EXPECT_EQ(run.status, 2);
  EXPECT_EQ(run.err, "ziosim: " + bad.str() + ":2: field Size: expected an integer, got 'oops'\n");
}

TEST(ReplayCliTest, SkipBadCountsTheSkippedLines) {
  SKIP_WITHOUT_CLI();
  const TempPath bad("skip.csv", "1000,hm,0,Read,0,512,1\n1001,hm,0,Read,0,oops,1\n1002,hm,0,Read,512,512,1\n");
  const CliRun run = RunCli("replay '" + bad.str() + "' --target wd-re4-1tb --skip-bad --json");
  ASSERT_EQ(run.status, 0) << run.err;
  const nlohmann::json j = nlohmann::json::parse(run.out)["runs"][0];
  EXPECT_EQ(j["skipped"], 1);
  EXPECT_EQ(j["requests"], 2);
  EXPECT_NE(run.err.find("skipped 1 malformed line (--skip-bad); the first: " + bad.str() + ":2: field Size"),
            std::string::npos)
      << run.err;
}

TEST(ReplayCliTest, WrapIsRequiredForRequestsPastTheDrive) {
  SKIP_WITHOUT_CLI();
  // 600 GB into a 500 GB drive.
  const TempPath big("big.csv", "1000,hm,0,Read,600000000000,4096,1\n");
  const CliRun fail = RunCli("replay '" + big.str() + "' --target generic-ssd");
  EXPECT_EQ(fail.status, 2);
  EXPECT_NE(fail.err.find(":1: field offset: 4096 bytes at offset 600000000000 run past the end of generic-ssd"),
            std::string::npos)
      << fail.err;
  const CliRun ok = RunCli("replay '" + big.str() + "' --target generic-ssd --wrap");
  ASSERT_EQ(ok.status, 0) << ok.err;
  EXPECT_NE(ok.out.find("1 of 1 requests (100.0 %) lay past the end of generic-ssd"), std::string::npos) << ok.out;
}

TEST(ReplayCliTest, BadOptionsExitWithStatus2) {
  SKIP_WITHOUT_CLI();
  const std::string trace = "'" + FormatFixture("msr.csv") + "'";
  CliRun run = RunCli("replay " + trace + " --target wd-re4-1tb --mode closed:0");
  EXPECT_EQ(run.status, 2);
  EXPECT_NE(run.err.find("--mode: expected open, closed:N"), std::string::npos) << run.err;
  run = RunCli("replay " + trace + " --target wd-re4-1tb --mode validate --speed 2");
  EXPECT_EQ(run.status, 2);
  EXPECT_NE(run.err.find("--speed: only applies to --mode open"), std::string::npos) << run.err;
  run = RunCli("replay " + trace + " --target wd-re4-1tb --format nope");
  EXPECT_EQ(run.status, 2);
  EXPECT_NE(run.err.find("--format: unknown trace format 'nope'"), std::string::npos) << run.err;
  run = RunCli("replay " + trace + " --target no-such-drive");
  EXPECT_EQ(run.status, 2);
}

TEST(ReplayCliTest, PerRequestCsvHasOneRowPerRequest) {
  SKIP_WITHOUT_CLI();
  const TempPath csv("rows.csv");
  const CliRun run =
      RunCli("replay '" + FormatFixture("blkparse.txt") + "' --target generic-7200-hdd --per-request '" + csv.str() +
             "'");
  ASSERT_EQ(run.status, 0) << run.err;
  const std::string text = ReadText(csv.str());
  std::istringstream lines(text);
  std::string line;
  std::getline(lines, line);
  EXPECT_EQ(line, "instance,i,line,op,trace_offset,offset,size,arrival_ms,issue_ms,done_ms,sim_ms,measured_ms");
  int rows = 0, unmeasured = 0;
  while (std::getline(lines, line)) {
    ++rows;
    if (line.back() == ',') ++unmeasured;
  }
  EXPECT_EQ(rows, 4);
  EXPECT_EQ(unmeasured, 1);
}

TEST(ReplayCliTest, PoolTargetReplaysAZvolAndReportsTheDisks) {
  SKIP_WITHOUT_CLI();
  // msr.csv: a write and two reads, on disks 0 and 1.
  const CliRun run =
      RunCli("replay '" + FormatFixture("msr.csv") + "' --target 'mirror 2xwd-re4-1tb' --reads-only --json");
  ASSERT_EQ(run.status, 0) << run.err;
  const nlohmann::json j = nlohmann::json::parse(run.out);
  EXPECT_EQ(j["target_kind"], "pool");
  EXPECT_EQ(j["target"], "mirror 2xwd-re4-1tb");
  EXPECT_EQ(j["volblocksize_bytes"], 16384);  // the default profile is OpenZFS 2.2
  const nlohmann::json& r = j["runs"][0];
  EXPECT_EQ(r["requests"], 2);
  EXPECT_EQ(r["skipped_writes"], 1);
  EXPECT_EQ(r["disks"].size(), 2u);
  EXPECT_GT(r["disk_bytes_read"].get<int64_t>(), 0);
  EXPECT_TRUE(r.contains("arc_hit_pct"));
  EXPECT_EQ(r["read"]["requests"], 2);
  EXPECT_EQ(r["write"]["requests"], 0);
  EXPECT_NE(run.err.find("the trace holds 2 devices, all replayed onto mirror 2xwd-re4-1tb"), std::string::npos)
      << run.err;
  // A one-disk pool is 1xDRIVE; the era sets the default volblocksize.
  const CliRun one = RunCli("replay '" + FormatFixture("msr.csv") +
                            "' --target 1xwd-re4-1tb --reads-only --profile zol-0.8 --json");
  ASSERT_EQ(one.status, 0) << one.err;
  const nlohmann::json k = nlohmann::json::parse(one.out);
  EXPECT_EQ(k["target_kind"], "pool");
  EXPECT_EQ(k["volblocksize_bytes"], 8192);
  EXPECT_EQ(k["runs"][0]["disks"].size(), 1u);
  // --per-request works on a pool as on a drive: one row per replayed read.
  const TempPath csv("pool_rows.csv");
  const CliRun rows = RunCli("replay '" + FormatFixture("msr.csv") +
                             "' --target 1xwd-re4-1tb --reads-only --per-request '" + csv.str() + "'");
  ASSERT_EQ(rows.status, 0) << rows.err;
  std::istringstream lines(ReadText(csv.str()));
  std::string line;
  int n = 0;
  while (std::getline(lines, line)) ++n;
  EXPECT_EQ(n, 1 + 2);  // the header and the two reads
}

TEST(ReplayCliTest, PoolAndDriveOptionsAreCheckedAgainstTheTarget) {
  SKIP_WITHOUT_CLI();
  const std::string trace = "'" + FormatFixture("msr.csv") + "'";
  CliRun run = RunCli("replay " + trace + " --target 'mirror 2xwd-re4-1tb'");  // writes go through the write path
  EXPECT_EQ(run.status, 0) << run.err;
  run = RunCli("replay " + trace + " --target wd-re4-1tb --volblocksize 8K");
  EXPECT_EQ(run.status, 2);
  EXPECT_EQ(run.err, "ziosim: --volblocksize: applies to a pool target, and --target wd-re4-1tb is a drive (write "
                     "1xwd-re4-1tb for a one-disk pool)\n");
  run = RunCli("replay " + trace + " --target '2xwd-re4-1tb' --reads-only --policy fifo");
  EXPECT_EQ(run.status, 2);
  EXPECT_NE(run.err.find("--policy: only applies to a drive target"), std::string::npos) << run.err;
  run = RunCli("replay " + trace + " --target 'mirror 2xwd-re4-1tb' --reads-only --volblocksize 3K");
  EXPECT_EQ(run.status, 2);
  EXPECT_EQ(run.err, "ziosim: --volblocksize: must be a power of two from 512 to 16M (got 3072)\n");
  run = RunCli("replay " + trace + " --target wd-re4-1tb --device 8,x");
  EXPECT_EQ(run.status, 2);
  EXPECT_EQ(run.err, "ziosim: --device: expected a device number or MAJOR,MINOR (blkparse), got '8,x'\n");
}

TEST(ReplayCliTest, DeviceAndPerDevice) {
  SKIP_WITHOUT_CLI();
  const std::string trace = "'" + FormatFixture("msr.csv") + "'";
  CliRun run = RunCli("replay " + trace + " --target wd-re4-1tb --per-device --json");
  ASSERT_EQ(run.status, 0) << run.err;
  nlohmann::json j = nlohmann::json::parse(run.out)["runs"][0];
  ASSERT_EQ(j["devices"].size(), 2u);
  EXPECT_EQ(j["devices"][0]["device"], "0");
  EXPECT_EQ(j["devices"][0]["requests"], 2);
  EXPECT_EQ(j["devices"][1]["device"], "1");
  EXPECT_NEAR(j["devices"][1]["measured_mean_ms"].get<double>(), 4.3538, 1e-12);
  run = RunCli("replay " + trace + " --target wd-re4-1tb --device 1 --json");
  ASSERT_EQ(run.status, 0) << run.err;
  j = nlohmann::json::parse(run.out)["runs"][0];
  EXPECT_EQ(j["requests"], 1);
  EXPECT_EQ(j["other_devices"], 2);
  EXPECT_EQ(run.err, "");  // one device picked: no note
  run = RunCli("replay " + trace + " --target wd-re4-1tb --per-device");
  ASSERT_EQ(run.status, 0) << run.err;
  EXPECT_NE(run.out.find("dev 1"), std::string::npos) << run.out;
  EXPECT_NE(run.out.find("note       the trace holds 2 devices"), std::string::npos) << run.out;
}

TEST(ReplayCliTest, ValidateModeOnADisksimTraceMatchesValidateDisksim) {
  SKIP_WITHOUT_CLI();
#ifdef ZIOSIM_SHARED_DATA_DIR
  const std::string dir = std::string(ZIOSIM_SHARED_DATA_DIR) + "/disksim-valid/";
#else
  const std::string dir = "/nonexistent/";
#endif
  if (!std::filesystem::exists(dir + "atlas_III.trace")) GTEST_SKIP() << "no " << dir;
  const CliRun a = RunCli("validate-disksim '" + dir + "atlas_III.parv' '" + dir + "atlas_III.trace' --json");
  const CliRun b = RunCli("replay '" + dir + "atlas_III.trace' --target 'disksim:" + dir +
                          "atlas_III.parv' --mode validate --json");
  ASSERT_EQ(a.status, 0) << a.err;
  ASSERT_EQ(b.status, 0) << b.err;
  const nlohmann::json ja = nlohmann::json::parse(a.out), jb = nlohmann::json::parse(b.out)["runs"][0];
  EXPECT_EQ(ja["requests"], jb["requests"]);
  EXPECT_DOUBLE_EQ(ja["sim_mean_ms"].get<double>(), jb["sim_mean_ms"].get<double>());
  EXPECT_NEAR(ja["demerit_ms"].get<double>(), jb["demerit_ms"].get<double>(), 1e-9);
  EXPECT_NEAR(ja["mean_error_pct"].get<double>(), jb["mean_error_pct"].get<double>(), 1e-9);
}

TEST(ReplayCliTest, SkipBadNoteIsInTheTextReport) {
  SKIP_WITHOUT_CLI();
  const TempPath bad("skip_text.csv", "1000,hm,0,Read,0,512,1\n1001,hm,0,Read,0,oops,1\n1002,hm,0,Read,512,512,1\n");
  const CliRun run = RunCli("replay '" + bad.str() + "' --target wd-re4-1tb --skip-bad");
  ASSERT_EQ(run.status, 0) << run.err;
  EXPECT_NE(run.out.find("note       skipped 1 malformed line (--skip-bad); the first: " + bad.str() + ":2:"),
            std::string::npos)
      << run.out;
}

TEST(ReplayCliTest, ScenarioFileRunsTheSameReplay) {
  SKIP_WITHOUT_CLI();
  const TempPath toml("replay.toml", "[workload]\nkind = \"replay\"\ntrace = \"" + FormatFixture("msr.csv") +
                                         "\"\ntarget = \"wd-re4-1tb\"\nmode = \"closed:2\"\nper_device = true\n");
  const CliRun file = RunCli("run '" + toml.str() + "' --json");
  const CliRun line =
      RunCli("replay '" + FormatFixture("msr.csv") + "' --target wd-re4-1tb --mode closed:2 --per-device --json");
  ASSERT_EQ(file.status, 0) << file.err;
  ASSERT_EQ(line.status, 0) << line.err;
  nlohmann::json a = nlohmann::json::parse(file.out), b = nlohmann::json::parse(line.out);
  for (nlohmann::json* j : {&a, &b}) {
    (*j)["runs"][0].erase("wall_seconds");
    j->erase("notes");  // each front spells the options it names its own way
  }
  EXPECT_EQ(a, b);
  EXPECT_EQ(a["mode"], "closed:2");
  EXPECT_EQ(a["runs"][0]["devices"].size(), 2u);
  // The note names the option as the file spells it.
  EXPECT_NE(file.err.find("(workload.device N replays one, workload.per_device compares each)"), std::string::npos)
      << file.err;

  const TempPath pool_only("replay_bad.toml", "[workload]\nkind = \"replay\"\ntrace = \"" + FormatFixture("msr.csv") +
                                                  "\"\ntarget = \"wd-re4-1tb\"\n[dataset]\nvolblocksize = \"8K\"\n");
  const CliRun bad = RunCli("run '" + pool_only.str() + "'");
  EXPECT_EQ(bad.status, 2);
  EXPECT_EQ(bad.err, "ziosim: " + pool_only.str() +
                         ":6: dataset.volblocksize: applies to a pool target, and workload.target wd-re4-1tb is a "
                         "drive (write 1xwd-re4-1tb for a one-disk pool)\n");
}

}  // namespace

namespace {

TEST(ReplayCliTest, ReadersRunsInstancesOfAFileLevelTraceAndPrintsOneLineEach) {
  SKIP_WITHOUT_CLI();
  const CliRun run = RunCli("replay '" + FormatFixture("strace.txt") +
                            "' --target 'mirror 2xwd-re4-1tb' --files-under /data --mode validate --readers 1,3");
  ASSERT_EQ(run.status, 0) << run.err;
  EXPECT_NE(run.out.find("(strace): 4 requests per instance"), std::string::npos) << run.out;
  EXPECT_NE(run.out.find("1 file of 1.05 MB in all, recordsize 128K"), std::string::npos) << run.out;
  EXPECT_NE(run.out.find("instances each on its own copy of the data"), std::string::npos) << run.out;
  EXPECT_NE(run.out.find("\n      1 "), std::string::npos) << run.out;
  EXPECT_NE(run.out.find("\n      3 "), std::string::npos) << run.out;
}

TEST(ReplayCliTest, BadReaderCountsAreOneLineErrors) {
  SKIP_WITHOUT_CLI();
  CliRun run = RunCli("replay '" + FormatFixture("strace.txt") + "' --target 'mirror 2xwd-re4-1tb' --readers 1,0");
  EXPECT_EQ(run.status, 2);
  EXPECT_EQ(run.err, "ziosim: --readers: each count must be from 1 to 64 (got 0)\n");
  run = RunCli("replay '" + FormatFixture("strace.txt") + "' --target wd-re4-1tb --readers 2");
  EXPECT_EQ(run.status, 2);
  EXPECT_EQ(run.err, "ziosim: --readers: applies to a pool target, and --target wd-re4-1tb is a drive (write "
                     "1xwd-re4-1tb for a one-disk pool)\n");
  run = RunCli("replay '" + FormatFixture("msr.csv") + "' --target 'mirror 2xwd-re4-1tb' --files-under /data");
  EXPECT_EQ(run.status, 2);
  EXPECT_NE(run.err.find("--files-under: applies to a file-level trace"), std::string::npos) << run.err;
}

}  // namespace
