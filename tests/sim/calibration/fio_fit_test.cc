#include "sim/calibration/fio_fit.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <cmath>
#include <cstdio>
#include <fstream>
#include <string>
#include <vector>

#include "sim/calibration/drive_toml.h"
#include "sim/calibration/fio_results.h"
#include "sim/core/status.h"
#include "sim/workload/disk_bench.h"
#include "tests/test_util.h"

namespace ziosim {
namespace {

const std::string kFioDir = test::SharedDataDir() + "/fio-vm/";

std::string TempFile(const std::string& name, const std::string& text) {
  const std::string path = ::testing::TempDir() + "ziosim_fio_" + std::to_string(::getpid()) + "_" + name;
  std::ofstream(path) << text;
  return path;
}

// What fio would report for a run of `drive`, made by the simulator.
FioRun Simulated(const DriveSpec& drive, bool random, int64_t block, int qd, int jobs) {
  DiskBenchOptions o;
  o.pattern = random ? BenchPattern::kRandom : BenchPattern::kSequential;
  o.block_bytes = block;
  o.queue_depth = qd;
  o.jobs = jobs;
  o.count = 4000;
  const DiskBenchResult b = RunDiskBench(drive, o);
  FioRun r;
  r.file = "simulated";
  r.random = random;
  r.block_bytes = block;
  r.iodepth = qd;
  r.numjobs = jobs;
  r.ioengine = "libaio";
  r.mb_s = b.mb_s;
  r.iops = b.iops;
  r.clat_mean_us = b.lat_mean_us;
  return r;
}

double Value(const FioFit& fit, const std::string& key) {
  for (const CatalogValue& v : fit.figures) {
    if (v.key == key) return v.value;
  }
  ADD_FAILURE() << key;
  return 0;
}

// HDD truth recovery: runs simulated on wd-re4-1tb, fitted over a base with
// different rate and seek figures (generic-7200-hdd), give back wd-re4's
// outer rate within 10 % (a 1 MiB stream at the outer edge runs at it, less
// track switches) and its average seek within 15 % (the QD1 random time is
// seek + rotation + overheads, and the random reads span the whole stroke).
TEST(FioFitTest, RecoversAnHddsRateAndSeek) {
  const DriveSpec truth = ResolveDrive("wd-re4-1tb");
  const std::vector<FioRun> runs = {Simulated(truth, true, 4096, 1, 1), Simulated(truth, false, 1 << 20, 1, 1)};
  const FioFit fit = FitFio(ResolveDrive("generic-7200-hdd"), runs, "simulated");
  EXPECT_NEAR(Value(fit, "outer_mb_s"), truth.Find("outer_mb_s")->value, 0.10 * truth.Find("outer_mb_s")->value);
  EXPECT_NEAR(Value(fit, "seek_average_ms"), truth.Find("seek_average_ms")->value,
              0.15 * truth.Find("seek_average_ms")->value);
}

// SSD: fitted on QD 1 and 4 and on 1-2 sequential streams of generic-ssd's
// runs, over a base of another SSD, the fitted drive predicts generic-ssd's
// held-out QD16 random and 4-stream sequential throughput within 25 %.
TEST(FioFitTest, SsdFitPredictsHeldOutRuns) {
  const DriveSpec truth = ResolveDrive("generic-ssd");
  const std::vector<FioRun> fit_runs = {Simulated(truth, true, 4096, 1, 1), Simulated(truth, true, 4096, 4, 1),
                                        Simulated(truth, false, 1 << 20, 1, 1), Simulated(truth, false, 1 << 20, 1, 2)};
  const std::vector<FioRun> held = {Simulated(truth, true, 4096, 16, 1), Simulated(truth, false, 1 << 20, 1, 4)};
  const FioFit fit = FitFio(ResolveDrive("patriot-hellfire-480g"), fit_runs, "simulated");
  // Through the catalog, as the CLI does.
  const std::string path = TempFile("ssd.toml", DriveToml("ssd", "fitted", "fitted", fit.figures));
  const DriveSpec fitted = LoadDriveFile(path);
  std::remove(path.c_str());
  const std::vector<FioPrediction> p = PredictFio(fitted, held, {true, true}, 4000);
  ASSERT_EQ(p.size(), 2u);
  EXPECT_LT(std::abs(p[0].error_pct), 25.0) << "random QD16";
  EXPECT_LT(std::abs(p[1].error_pct), 25.0) << "4 sequential streams";
}

TEST(FioFitTest, SsdNeedsTwoQueueDepths) {
  const DriveSpec truth = ResolveDrive("generic-ssd");
  const std::vector<FioRun> runs = {Simulated(truth, true, 4096, 1, 1), Simulated(truth, false, 1 << 20, 1, 1)};
  try {
    FitFio(truth, runs, "x");
    FAIL() << "no error";
  } catch (const InputError& e) {
    EXPECT_STREQ(e.what(), "calibrate: an SSD fit needs random reads of up to 64 KiB at two or more queue depths");
  }
}

// The parser against fio's own numbers for a real run (summary.csv lists the same figures).
TEST(FioResultsTest, ReadsARealFioRun) {
  const std::string path = kFioDir + "randread_4k_libaio_qd4_rep1.json";
  if (!std::ifstream(path)) GTEST_SKIP() << "shared data not found: " << path;
  const std::vector<FioRun> runs = ReadFioJson(path);
  ASSERT_EQ(runs.size(), 1u);
  EXPECT_TRUE(runs[0].random);
  EXPECT_EQ(runs[0].block_bytes, 4096);
  EXPECT_EQ(runs[0].iodepth, 4);
  EXPECT_EQ(runs[0].numjobs, 1);
  EXPECT_NEAR(runs[0].mb_s, 160.8, 0.05);
  EXPECT_NEAR(runs[0].iops, 39250, 1);
  EXPECT_NEAR(runs[0].clat_mean_us, 88.4, 0.05);
}

// The fio-vm pipeline: fit an SSD on the rep1 files, predict every run. The
// VM disk is host-cached and its repetitions differ up to 2x, so only the
// pipeline is checked: every run predicted, the fitted keys marked calibrated.
TEST(FioFitTest, FioVmPipeline) {
  if (!std::ifstream(kFioDir + "summary.csv")) GTEST_SKIP() << "shared data not found: " << kFioDir;
  std::vector<FioRun> runs, fit_runs;
  std::vector<bool> held;
  for (const char* name : {"randread_4k_libaio_qd1_rep1", "randread_4k_libaio_qd4_rep1", "randread_4k_libaio_qd16_rep1",
                           "randread_4k_libaio_qd1_rep2", "seqread_1M_psync_nj1_rep1", "seqread_1M_psync_nj2_rep1",
                           "seqread_1M_psync_nj4_rep2"}) {
    for (const FioRun& r : ReadFioJson(kFioDir + name + ".json")) {
      const bool out = std::string(name).find("rep2") != std::string::npos || r.iodepth == 16;
      held.push_back(out);
      if (!out) fit_runs.push_back(r);
      runs.push_back(r);
    }
  }
  const FioFit fit = FitFio(ResolveDrive("generic-ssd"), fit_runs, "rep1");
  EXPECT_EQ(fit.random_runs, 2);
  EXPECT_EQ(fit.sequential_runs, 2);
  const std::string path = TempFile("vm.toml", DriveToml("ssd", "vm", "fio-vm", fit.figures));
  const DriveSpec drive = LoadDriveFile(path);
  std::remove(path.c_str());
  EXPECT_EQ(drive.Find("read_page_us")->provenance.rfind("calibrated: fio rep1, random reads", 0), 0u);
  const std::vector<FioPrediction> p = PredictFio(drive, runs, held, 2000);
  ASSERT_EQ(p.size(), runs.size());
  for (const FioPrediction& x : p) EXPECT_GT(x.simulated_mb_s, 0) << x.run->Label();
}

TEST(FioResultsTest, NamesTheMissingField) {
  const std::string path = TempFile("bad.json", R"({"jobs": [{"jobname": "a", "groupid": 0, "job options": {"rw": "read"}}]})");
  try {
    ReadFioJson(path);
    FAIL() << "no error";
  } catch (const InputError& e) {
    EXPECT_EQ(std::string(e.what()), path + ": jobs[0].read: missing");
  }
  std::remove(path.c_str());
}

TEST(FioResultsTest, RefusesNonJson) {
  const std::string path = TempFile("text.json", "fio-3.33\nnot json at all\n");
  try {
    ReadFioJson(path);
    FAIL() << "no error";
  } catch (const InputError& e) {
    EXPECT_EQ(std::string(e.what()), path + ": not fio JSON output (no '{')");
  }
  std::remove(path.c_str());
}

TEST(FioResultsTest, RefusesAWriteOnlyFile) {
  const std::string path = TempFile("w.json", R"({"jobs": [{"jobname": "w", "groupid": 0, "job options": {"rw": "randwrite"}}]})");
  try {
    ReadFioJson(path);
    FAIL() << "no error";
  } catch (const InputError& e) {
    EXPECT_EQ(std::string(e.what()), path + ": no read job (rw = read or randread) to fit");
  }
  std::remove(path.c_str());
}

}  // namespace
}  // namespace ziosim
