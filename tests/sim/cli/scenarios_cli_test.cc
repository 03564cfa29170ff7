// Every scenario file of the library (scenarios/) stays valid: pool, drives,
// profile, tunables and layout all check out. (Running them all is
// scenarios/check.sh; it takes minutes.)
#include <gtest/gtest.h>

#include <cstdio>
#include <filesystem>
#include <string>

namespace {

namespace fs = std::filesystem;

TEST(ScenariosTest, EveryScenarioFileChecksOut) {
  const fs::path dir = fs::path(__FILE__).parent_path().parent_path().parent_path().parent_path() / "scenarios";
  ASSERT_TRUE(fs::is_directory(dir)) << dir;
  int checked = 0;
  for (const auto& e : fs::recursive_directory_iterator(dir)) {
    if (e.path().extension() != ".toml") continue;
    const std::string cmd = std::string(ZIOSIM_CLI_PATH) + " run --check '" + e.path().string() + "' 2>&1";
    FILE* p = popen(cmd.c_str(), "r");
    ASSERT_NE(p, nullptr);
    std::string out;
    char buf[512];
    while (fgets(buf, sizeof buf, p) != nullptr) out += buf;
    EXPECT_EQ(pclose(p), 0) << e.path() << ": " << out;
    ++checked;
  }
  EXPECT_GT(checked, 10);
}

}  // namespace
