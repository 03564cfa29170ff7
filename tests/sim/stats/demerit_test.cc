#include "sim/stats/demerit.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <stdexcept>
#include <string>
#include <vector>

#include "sim/trace/line_reader.h"

namespace ziosim {
namespace {

TEST(QuantileTest, InterpolatesBetweenCdfPoints) {
  const std::vector<double> x = {1, 2, 3, 4};  // CDF points (0.25,1) (0.5,2) (0.75,3) (1,4)
  EXPECT_DOUBLE_EQ(Quantile(x, 0.0), 1);
  EXPECT_DOUBLE_EQ(Quantile(x, 0.25), 1);
  EXPECT_DOUBLE_EQ(Quantile(x, 0.5), 2);
  EXPECT_DOUBLE_EQ(Quantile(x, 0.625), 2.5);
  EXPECT_DOUBLE_EQ(Quantile(x, 0.9), 3.6);
  EXPECT_DOUBLE_EQ(Quantile(x, 1.0), 4);
  EXPECT_DOUBLE_EQ(Quantile(std::vector<double>{7}, 0.3), 7);
  EXPECT_THROW(Quantile(std::vector<double>{}, 0.5), std::invalid_argument);
}

TEST(DemeritTest, IdenticalSetsGiveZero) {
  const std::vector<double> x = {3.5, 1.25, 9, 4, 4, 0.5};
  EXPECT_EQ(DemeritMs(x, x), 0.0);
}

TEST(DemeritTest, ShiftedSetGivesTheShift) {
  const std::vector<double> x = {3.5, 1.25, 9, 4, 4, 0.5, 12};
  std::vector<double> shifted;
  for (double v : x) shifted.push_back(v + 0.75);
  EXPECT_NEAR(DemeritMs(x, shifted), 0.75, 1e-12);
  EXPECT_NEAR(DemeritMs(shifted, x), 0.75, 1e-12);
}

TEST(DemeritTest, SingleSamples) { EXPECT_DOUBLE_EQ(DemeritMs({1}, {3}), 2); }

// {0, 10} against {0, 0}: the measured quantile is 0 up to q = 1/2, then
// rises linearly to 10 at q = 1, so the squared distance at q = k/10000 is
// (10 j / 5000)^2 with j = k - 5000. (The (n-1)q convention would give sqrt(100/3).)
TEST(DemeritTest, FollowsTheCdfPointConvention) {
  double sum = 0;
  for (int j = 1; j <= 5000; ++j) sum += (10.0 * j / 5000) * (10.0 * j / 5000);
  EXPECT_NEAR(DemeritMs({0, 10}, {0, 0}), std::sqrt(sum / 10000), 1e-12);
}

TEST(DemeritTest, RejectsEmptySets) {
  EXPECT_THROW(DemeritMs({}, {1}), std::invalid_argument);
  EXPECT_THROW(DemeritMs({1}, {}), std::invalid_argument);
}

TEST(LatencySummaryTest, CountsMeanAndPercentiles) {
  const LatencySummary s = SummarizeLatencies({4, 1, 3, 2});
  EXPECT_EQ(s.count, 4);
  EXPECT_DOUBLE_EQ(s.mean_ms, 2.5);
  EXPECT_DOUBLE_EQ(s.p50_ms, 2);
  EXPECT_DOUBLE_EQ(s.p90_ms, 3.6);
  EXPECT_DOUBLE_EQ(s.p99_ms, 3.96);
  const LatencySummary empty = SummarizeLatencies({});
  EXPECT_EQ(empty.count, 0);
  EXPECT_EQ(empty.mean_ms, 0);
}

// ---- DiskSim's own per-request results: the metric must reproduce the published figures.

struct OracleSamples {
  std::vector<double> measured_ms;
  std::vector<double> cmu_sim_ms;
};

int ColumnIndex(std::string_view header, std::string_view name) {
  int index = 0;
  size_t begin = 0;
  for (;;) {
    const size_t comma = header.find(',', begin);
    if (header.substr(begin, comma - begin) == name) return index;
    if (comma == std::string_view::npos) return -1;
    begin = comma + 1;
    ++index;
  }
}

std::string_view Column(std::string_view row, int index) {
  size_t begin = 0;
  for (int i = 0; i < index; ++i) begin = row.find(',', begin) + 1;
  return row.substr(begin, row.find(',', begin) - begin);
}

OracleSamples ReadOracle(const std::string& path) {
  LineReader reader(path);
  std::string_view line;
  EXPECT_TRUE(reader.Next(line));
  const int measured = ColumnIndex(line, "measured_ms");
  const int cmu = ColumnIndex(line, "cmu_sim_ms");
  EXPECT_GE(measured, 0);
  EXPECT_GE(cmu, 0);
  OracleSamples s;
  while (reader.Next(line)) {
    s.measured_ms.push_back(std::stod(std::string(Column(line, measured))));
    s.cmu_sim_ms.push_back(std::stod(std::string(Column(line, cmu))));
  }
  return s;
}

struct OracleCase {
  const char* drive;
  size_t requests;
  double measured_mean_ms;  // the trace mean DiskSim prints
  double demerit_ms;        // exact-sample demerit, disksim-validation.md
};

class OracleDemeritTest : public ::testing::TestWithParam<OracleCase> {};

TEST_P(OracleDemeritTest, ReproducesPublishedFigure) {
#ifndef ZIOSIM_SHARED_DATA_DIR
  GTEST_SKIP() << "ZIOSIM_SHARED_DATA_DIR not defined";
#else
  const OracleCase& c = GetParam();
  const std::string path = std::string(ZIOSIM_SHARED_DATA_DIR) + "/disksim-valid/oracle/" + c.drive + ".csv.gz";
  if (!std::filesystem::exists(path)) GTEST_SKIP() << "DiskSim oracle data absent: " << path;
  const OracleSamples s = ReadOracle(path);
  ASSERT_EQ(s.measured_ms.size(), c.requests);
  EXPECT_NEAR(SummarizeLatencies(s.measured_ms).mean_ms, c.measured_mean_ms, 1e-4);
  // Half a unit of the figure's last digit: the published value is this one rounded.
  EXPECT_NEAR(DemeritMs(s.measured_ms, s.cmu_sim_ms), c.demerit_ms, 5e-5);
#endif
}

INSTANTIATE_TEST_SUITE_P(DisksimValid, OracleDemeritTest,
                         ::testing::Values(OracleCase{"atlas_III", 10000, 6.2633, 0.3782},
                                           OracleCase{"barracuda", 10000, 6.6274, 0.3484},
                                           OracleCase{"cheetah4LP", 10000, 5.3277, 0.3182},
                                           OracleCase{"cheetah9LP", 10000, 4.2729, 0.1078},
                                           OracleCase{"hp_c2247a", 9999, 15.2982, 0.0938},
                                           OracleCase{"hp_c2490a", 9984, 12.5497, 0.2551}),
                         [](const ::testing::TestParamInfo<OracleCase>& info) {
                           return std::string(info.param.drive);
                         });

}  // namespace
}  // namespace ziosim
