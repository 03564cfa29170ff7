#include "sim/workload/fio_json.h"

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "sim/workload/fio_latency.h"
#include "sim/workload/fio_run.h"
#include "tests/test_util.h"

namespace ziosim {
namespace {

TEST(FioLatencyTest, SmallValuesAreExactAndLargeOnesFallInFiosBuckets) {
  for (int64_t v : {0, 1, 63, 127}) EXPECT_EQ(FioLatency::BucketValue(FioLatency::BucketOf(v)), v);
  // 128..255 share buckets two wide: fio prints the bucket's middle.
  EXPECT_EQ(FioLatency::BucketOf(128), FioLatency::BucketOf(129));
  EXPECT_EQ(FioLatency::BucketValue(FioLatency::BucketOf(128)), 129);
  // Beyond the range, fio's last bucket.
  EXPECT_EQ(FioLatency::BucketOf(int64_t{1} << 40), FioLatency::kBuckets - 1);
  // Relative error stays under 1/64 over the histogram's range (to 2^34 ns, ~17 s, as fio's).
  for (int64_t v = 200; v < (int64_t{1} << 34); v = v * 3 + 7) {
    const double shown = static_cast<double>(FioLatency::BucketValue(FioLatency::BucketOf(v)));
    EXPECT_LT(std::abs(shown - static_cast<double>(v)) / static_cast<double>(v), 1.0 / 64) << v;
  }
}

TEST(FioLatencyTest, PercentilesMeanStddevAndMerge) {
  FioLatency a, b, all;
  for (int64_t v = 1; v <= 100; ++v) {
    (v % 2 == 0 ? a : b).Add(v);
    all.Add(v);
  }
  EXPECT_EQ(all.count(), 100u);
  EXPECT_EQ(all.min_ns(), 1);
  EXPECT_EQ(all.max_ns(), 100);
  EXPECT_DOUBLE_EQ(all.mean_ns(), 50.5);
  EXPECT_NEAR(all.stddev_ns(), 29.011492, 1e-6);  // sample stddev of 1..100
  EXPECT_EQ(all.Percentile(50), 50);               // the 50th of 100 values, exact below 128
  EXPECT_EQ(all.Percentile(99), 99);
  EXPECT_EQ(all.Percentile(1), 1);
  a.Merge(b);
  EXPECT_EQ(a.count(), all.count());
  EXPECT_EQ(a.min_ns(), all.min_ns());
  EXPECT_EQ(a.max_ns(), all.max_ns());
  EXPECT_NEAR(a.mean_ns(), all.mean_ns(), 1e-9);
  EXPECT_NEAR(a.stddev_ns(), all.stddev_ns(), 1e-9);
  for (double p : kFioPercentiles) EXPECT_EQ(a.Percentile(p), all.Percentile(p));
  EXPECT_EQ(FioLatency{}.Percentile(50), 0);
}

// What a fio-reading tool takes from a report: the same calls for a real and a simulated one.
struct Digest {
  std::string rw;
  int64_t bw_bytes = 0;
  double iops = 0;
  uint64_t clat_n = 0;
  int64_t clat_p99 = 0;
  int64_t runtime_ms = 0;
  int64_t io_bytes = 0;
  double util = 0;
};

Digest Read(const nlohmann::json& doc) {
  const nlohmann::json& job = doc.at("jobs").at(0);
  const nlohmann::json& read = job.at("read");
  Digest d;
  d.rw = job.at("job options").at("rw").get<std::string>();
  d.bw_bytes = read.at("bw_bytes").get<int64_t>();
  d.iops = read.at("iops").get<double>();
  d.clat_n = read.at("clat_ns").at("N").get<uint64_t>();
  d.clat_p99 = read.at("clat_ns").at("percentile").at("99.000000").get<int64_t>();
  d.runtime_ms = read.at("runtime").get<int64_t>();
  d.io_bytes = read.at("io_bytes").get<int64_t>();
  d.util = doc.at("disk_util").at(0).at("util").get<double>();
  return d;
}

// Every key of `real` is in `ours` with the same kind of value (integer, float, text, object...).
void ExpectSameShape(const nlohmann::json& real, const nlohmann::json& ours, const std::string& path,
                     const std::vector<std::string>& absent) {
  for (const auto& [key, value] : real.items()) {
    if (std::find(absent.begin(), absent.end(), key) != absent.end()) continue;
    ASSERT_TRUE(ours.contains(key)) << path << "." << key;
    const nlohmann::json& mine = ours.at(key);
    if (value.is_number()) {
      EXPECT_TRUE(mine.is_number()) << path << "." << key;
      if (value.is_number_integer()) {
        EXPECT_TRUE(mine.is_number_integer()) << path << "." << key;
      }
    } else {
      EXPECT_EQ(mine.type(), value.type()) << path << "." << key;
    }
    if (value.is_object() && key != "job options" && key != "percentile") {
      ExpectSameShape(value, mine, path + "." + key, absent);
    }
  }
}

TEST(FioJsonTest, ReadsLikeARealFio333Report) {
  const std::string path = test::SharedDataDir() + "/fio-vm/randread_4k_libaio_qd4_rep1.json";
  if (!std::filesystem::exists(path)) GTEST_SKIP() << "shared data absent: " << path;
  std::ifstream in(path);
  const nlohmann::json real = nlohmann::json::parse(in);

  // The real run's own options, as a job file, on a simulated SSD (shorter, to keep the test quick).
  std::string text = "[" + real["jobs"][0]["jobname"].get<std::string>() + "]\n";
  for (const auto& [key, value] : real["jobs"][0]["job options"].items()) {
    if (key == "runtime" || key == "ramp_time") continue;
    text += key + "=" + value.get<std::string>() + "\n";
  }
  text += "runtime=300ms\n";
  const FioJobFile file = ParseFioJobs(text, "real.fio");
  const FioResult result = RunFioJobs(file.jobs, FioTargetFromText("generic-ssd"), 1);
  const nlohmann::json ours = nlohmann::json::parse(FioJson(file, result).dump());

  const Digest r = Read(real), o = Read(ours);
  EXPECT_EQ(r.rw, "randread");
  EXPECT_EQ(o.rw, "randread");
  EXPECT_GT(o.clat_n, 1000u);
  EXPECT_NEAR(static_cast<double>(o.bw_bytes), static_cast<double>(o.io_bytes) / (o.runtime_ms / 1e3),
              0.01 * o.bw_bytes);
  EXPECT_NEAR(o.iops * 4096, static_cast<double>(o.bw_bytes), 0.01 * o.bw_bytes);
  EXPECT_GT(o.util, 90.0);
  // fio's percentiles are bucket midpoints; so are ours.
  for (const auto& [key, value] : real["jobs"][0]["read"]["clat_ns"]["percentile"].items()) {
    const auto v = value.get<int64_t>();
    EXPECT_EQ(FioLatency::BucketValue(FioLatency::BucketOf(v)), v) << key;
    EXPECT_TRUE(ours["jobs"][0]["read"]["clat_ns"]["percentile"].contains(key)) << key;
  }
  const std::vector<std::string> absent = {"bw_min", "bw_max", "bw_agg", "bw_mean", "bw_dev", "bw_samples",
                                           "iops_min", "iops_max", "iops_mean", "iops_stddev", "iops_samples",
                                           "sync", "usr_cpu", "sys_cpu", "ctx", "majf", "minf", "iodepth_level",
                                           "iodepth_submit", "iodepth_complete", "latency_ns", "latency_us",
                                           "latency_ms", "latency_depth", "latency_target", "latency_percentile",
                                           "latency_window", "read_ticks", "write_ticks", "in_queue"};
  ExpectSameShape(real, ours, "", absent);
  ExpectSameShape(real["jobs"][0], ours["jobs"][0], "jobs[0]", absent);
  ExpectSameShape(real["disk_util"][0], ours["disk_util"][0], "disk_util[0]", absent);
}

}  // namespace
}  // namespace ziosim
