#include "sim/calibration/pool_fit.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <cmath>
#include <cstdio>
#include <fstream>
#include <string>
#include <vector>

#include "sim/calibration/drive_toml.h"
#include "sim/core/status.h"

namespace ziosim {
namespace {

std::string TempPath(const std::string& name) {
  return ::testing::TempDir() + "ziosim_pool_" + std::to_string(::getpid()) + "_" + name;
}

std::string Write(const std::string& name, const std::string& text) {
  const std::string path = TempPath(name);
  std::ofstream(path) << text;
  return path;
}

// Small files so that a simulation takes a few tens of milliseconds.
ReadersOptions SmallRun(const std::string& pool) {
  ReadersOptions o;
  o.pool = pool;
  o.file_size = 128 << 20;
  return o;
}

// Truth recovery: "measured" points simulated on wd-re4-1tb with its media
// rates scaled by 0.8, each the mean of four runs (seeds 11-14: other spindle
// angles, as a measurement repeated on real disks); fitting the unscaled drive
// on 1 and 4 readers over 8 seeds of its own reproduces the fitted points within
// 3 % and finds the scale within 5 %, the held-out 2 and 8 readers within 10 %.
// A single run is not enough: on such short runs the drives' spindle angles
// alone move 2-8 readers by a standard deviation of 4-6 % (docs/calibration.md),
// and a one-seed fit of the same points lands 5.7 % low, missing 8 readers by 13 %.
TEST(PoolFitTest, RecoversAScaledMediaRateFromTheMeanOfSeveralRuns) {
  std::vector<CatalogValue> figures = ResolveDrive("wd-re4-1tb").values;
  for (CatalogValue& v : figures) {
    if (v.key == "outer_mb_s" || v.key == "inner_mb_s") v.value *= 0.8;
  }
  const std::string truth = Write("truth.toml", DriveToml("hdd", "truth", "wd-re4 at 0.8 x rate", figures));
  ReadersOptions measure = SmallRun("mirror 2x" + truth);
  measure.readers = {1, 2, 4, 8};
  std::vector<MeasuredPoint> measured = {{1, 0, 0}, {2, 0, 0}, {4, 0, 0}, {8, 0, 0}};
  constexpr int kRepeats = 4;
  for (int k = 0; k < kRepeats; ++k) {
    measure.seed = 11 + static_cast<uint64_t>(k);
    const std::vector<ReadersRun> runs = RunReaders(measure);
    for (size_t i = 0; i < runs.size(); ++i) measured[i].mb_s += runs[i].throughput_mb_s / kRepeats;
  }
  std::remove(truth.c_str());

  const PoolFitResult fit =
      FitPool(SmallRun("mirror 2xwd-re4-1tb"), measured, {1, 4}, ::testing::TempDir(), "t.csv", /*seeds=*/8);
  EXPECT_NEAR(fit.rate_scale, 0.8, 0.8 * 0.05);
  ASSERT_EQ(fit.points.size(), 4u);
  for (const PoolFitResult::Point& p : fit.points) {
    EXPECT_EQ(p.held_out, p.measured.readers == 2 || p.measured.readers == 8);
    EXPECT_LT(std::abs(p.error_pct), p.held_out ? 10.0 : 3.0) << p.measured.readers << " readers";
  }
  bool marked = false;
  for (const CatalogValue& v : fit.figures) {
    if (v.key == "outer_mb_s") marked = v.provenance.rfind("calibrated: pool \"mirror 2xwd-re4-1tb\" readers 1, 4 of t.csv", 0) == 0;
  }
  EXPECT_TRUE(marked);
}

// Each simulated point is the mean of the seeds' runs: the fit's figures,
// simulated with seeds 5 and 6 one at a time, average to its prediction.
TEST(PoolFitTest, ASimulatedPointIsTheMeanOfItsSeedsRuns) {
  const std::vector<MeasuredPoint> measured = {{2, 150, 2}};
  ReadersOptions o = SmallRun("mirror 2xwd-re4-1tb");
  o.seed = 5;
  const PoolFitResult fit = FitPool(o, measured, {2}, ::testing::TempDir(), "t.csv", /*seeds=*/2);
  const std::string fitted = Write("fitted.toml", DriveToml("hdd", "fitted", "the fit", fit.figures));
  ReadersOptions check = SmallRun("mirror 2x" + fitted);
  check.readers = {2};
  double sum = 0;
  for (uint64_t seed : {5, 6}) {
    check.seed = seed;
    sum += RunReaders(check)[0].throughput_mb_s;
  }
  std::remove(fitted.c_str());
  ASSERT_EQ(fit.points.size(), 1u);
  EXPECT_NEAR(fit.points[0].simulated_mb_s, sum / 2, 1e-9 * sum);
  EXPECT_THROW(FitPool(o, measured, {2}, ::testing::TempDir(), "t.csv", /*seeds=*/0), InputError);
}

void ExpectCsvError(const std::string& text, const std::string& where_what) {
  const std::string path = Write("m.csv", text);
  try {
    ReadMeasuredThroughput(path);
    ADD_FAILURE() << "no error for " << text;
  } catch (const InputError& e) {
    EXPECT_EQ(std::string(e.what()), path + where_what);
  }
  std::remove(path.c_str());
}

TEST(PoolFitTest, BadCsvLinesNameFileLineAndField) {
  ExpectCsvError("1,100\n", ":1: expected the header \"readers,mb_s\", got \"1,100\"");
  ExpectCsvError("readers,mb_s\n1,100\nfour,200\n", ":3: field readers: expected a number, got \"four\"");
  ExpectCsvError("readers,mb_s\n2,-5\n", ":2: field mb_s: must be positive");
  ExpectCsvError("readers,mb_s\n1.5,100\n", ":2: field readers: expected a whole number of readers >= 1");
  ExpectCsvError("readers,mb_s\n1,100\n1,120\n", ":3: field readers: 1 given twice");
  ExpectCsvError("readers,mb_s\n1,100,3\n", ":2: expected two fields \"readers,mb_s\", got \"1,100,3\"");
  ExpectCsvError("readers,mb_s\n\n", ": no measured points (expected \"readers,mb_s\" lines after the header)");
}

TEST(PoolFitTest, ReadsPointsSkippingBlankLines) {
  const std::string path = Write("ok.csv", "readers,mb_s\n1,150.5\n\n4, 300\n");
  const std::vector<MeasuredPoint> p = ReadMeasuredThroughput(path);
  std::remove(path.c_str());
  ASSERT_EQ(p.size(), 2u);
  EXPECT_EQ(p[1].readers, 4);
  EXPECT_DOUBLE_EQ(p[1].mb_s, 300);
  EXPECT_EQ(p[1].line, 4);
}

TEST(PoolFitTest, FitReadersMustBeMeasured) {
  const std::vector<MeasuredPoint> measured = {{1, 100, 2}, {2, 150, 3}};
  try {
    FitPool(SmallRun("mirror 2xwd-re4-1tb"), measured, {3}, ::testing::TempDir(), "t.csv");
    FAIL() << "no error";
  } catch (const InputError& e) {
    EXPECT_STREQ(e.what(), "calibrate --pool: --fit-readers 3: no measured point for it");
  }
}

}  // namespace
}  // namespace ziosim
