// Runs the built `ziosim raidz-map` as a user would.
#include <gtest/gtest.h>

#include <cstdio>
#include <string>

#include <nlohmann/json.hpp>

#include "tests/sim/cli/cli_runner.h"

namespace raidz_map_cli_test {

using ziosim::testing::CliRun;

CliRun RunCli(const std::string& args) { return ziosim::testing::RunCli("raidz-map " + args, /*merge_stderr=*/true); }

TEST(RaidzMapCliTest, SixWideRaidz2Json) {
  SKIP_WITHOUT_CLI();
  const CliRun run = RunCli("--width 6 --parity 2 --ashift 12 --psize 128K --json");
  ASSERT_EQ(run.status, 0) << run.out;
  const nlohmann::json j = nlohmann::json::parse(run.out);
  ASSERT_TRUE(j.is_object());
  EXPECT_EQ(j.size(), 3u);
  EXPECT_EQ(j["asize"], 196608);
  EXPECT_EQ(j["skip_sectors"], 0);
  ASSERT_TRUE(j["columns"].is_array());
  ASSERT_EQ(j["columns"].size(), 6u);
  const char* const roles[6] = {"P", "Q", "D", "D", "D", "D"};
  for (int c = 0; c < 6; ++c) {
    const nlohmann::json& col = j["columns"][c];
    EXPECT_EQ(col.size(), 4u);
    EXPECT_EQ(col["child"], c);
    EXPECT_EQ(col["offset"], 0);
    EXPECT_EQ(col["size"], 32768);
    EXPECT_EQ(col["role"], roles[c]);
  }
  // Keys in the documented order.
  EXPECT_EQ(run.out.rfind("{\"asize\":196608,\"skip_sectors\":0,\"columns\":[{\"child\":0,\"offset\":0,"
                          "\"size\":32768,\"role\":\"P\"}",
                          0),
            0u)
      << run.out;
}

TEST(RaidzMapCliTest, SevenWideSkipSectorsAndOffset) {
  SKIP_WITHOUT_CLI();
  // b = 10 sectors: f = 3, o = 1 sector; 5 data columns of 24-28 KiB, 2 skip sectors.
  const CliRun run = RunCli("--width 7 --parity 2 --ashift 12 --psize 128K --offset 40K --json");
  ASSERT_EQ(run.status, 0) << run.out;
  const nlohmann::json j = nlohmann::json::parse(run.out);
  EXPECT_EQ(j["asize"], 192 * 1024);
  EXPECT_EQ(j["skip_sectors"], 2);
  EXPECT_EQ(j["columns"][0]["child"], 3);
  EXPECT_EQ(j["columns"][0]["offset"], 4096);
  EXPECT_EQ(j["columns"][4]["child"], 0);
  EXPECT_EQ(j["columns"][4]["offset"], 8192);
  EXPECT_EQ(j["columns"][0]["size"], 28 * 1024);
}

TEST(RaidzMapCliTest, BlocksJsonIsOneEntryPerBlock) {
  SKIP_WITHOUT_CLI();
  const CliRun run = RunCli("--width 7 --parity 2 --ashift 12 --psize 128K --blocks 3 --json");
  ASSERT_EQ(run.status, 0) << run.out;
  const nlohmann::json j = nlohmann::json::parse(run.out);
  ASSERT_TRUE(j.is_array());
  ASSERT_EQ(j.size(), 3u);
  EXPECT_EQ(j[1]["block_offset"], 192 * 1024);
  EXPECT_EQ(j[1]["columns"][0]["child"], 6);  // parity moves back one child per record
  EXPECT_EQ(j[2]["columns"][0]["child"], 5);
}

TEST(RaidzMapCliTest, TableShowsAsizeAndRoles) {
  SKIP_WITHOUT_CLI();
  const CliRun run = RunCli("--width 6 --parity 2 --ashift 12 --psize 128K");
  ASSERT_EQ(run.status, 0) << run.out;
  EXPECT_NE(run.out.find("asize 196608 B (192 KiB"), std::string::npos) << run.out;
  EXPECT_NE(run.out.find("skip sectors 0"), std::string::npos) << run.out;
  EXPECT_NE(run.out.find("P parity"), std::string::npos) << run.out;
  EXPECT_NE(run.out.find("Q parity"), std::string::npos) << run.out;
}

TEST(RaidzMapCliTest, BadInputExitsTwoNamingTheOption) {
  SKIP_WITHOUT_CLI();
  const struct {
    const char* args;
    const char* option;
  } cases[] = {
      {"--width 1 --parity 1 --ashift 12 --psize 4K", "--width"},
      {"--width 65 --parity 1 --ashift 12 --psize 4K", "--width"},
      {"--width 6 --parity 4 --ashift 12 --psize 4K", "--parity"},
      {"--width 3 --parity 3 --ashift 12 --psize 4K", "--parity"},
      {"--width 6 --parity 2 --ashift 8 --psize 4K", "--ashift"},
      {"--width 6 --parity 2 --ashift 17 --psize 4K", "--ashift"},
      {"--width 6 --parity 2 --ashift 12 --psize 0", "--psize"},
      {"--width 6 --parity 2 --ashift 12 --psize 4K --offset 512", "--offset"},
      {"--width 6 --parity 2 --ashift 12 --psize 4K --offset=-4096", "--offset"},
      {"--width 6 --parity 2 --ashift 12 --psize 4K --blocks 0", "--blocks"},
  };
  for (const auto& c : cases) {
    const CliRun run = RunCli(c.args);
    EXPECT_EQ(run.status, 2) << c.args << "\n" << run.out;
    EXPECT_NE(run.out.find(c.option), std::string::npos) << c.args << "\n" << run.out;
  }
}

}  // namespace raidz_map_cli_test
