#include "sim/workload/disk_bench.h"

#include <algorithm>
#include <cmath>
#include <memory>
#include <vector>

#include "sim/core/random.h"
#include "sim/core/simulation.h"
#include "sim/core/status.h"
#include "sim/stats/demerit.h"
#include "sim/stats/run_check.h"

namespace ziosim {
namespace {

void CheckOptions(const DiskBenchOptions& o) {
  if (o.block_bytes <= 0) throw InputError("--bs: must be positive");
  if (o.queue_depth < 1) throw InputError("--qd: must be at least 1 (got " + std::to_string(o.queue_depth) + ")");
  if (o.jobs < 1) throw InputError("--jobs: must be at least 1 (got " + std::to_string(o.jobs) + ")");
  if (!(o.span > 0 && o.span <= 1)) {
    throw InputError("--span: must be a fraction in (0, 1] (got " + std::to_string(o.span) + ")");
  }
  if (o.count < 0) throw InputError("--count: must be positive (got " + std::to_string(o.count) + ")");
  if (o.count == 0 && o.runtime_ns <= 0) throw InputError("--runtime: must be positive");
}

// Keeps the commands of all jobs within the device's queue: qd per job shrinks
// first; with more jobs than tags, each job keeps one.
void ClampToDevice(int device_qd, DiskBenchResult* r) {
  if (r->jobs > device_qd) {
    r->note = "--jobs " + std::to_string(r->jobs) + " exceeds the drive's queue depth " + std::to_string(device_qd) +
              ": running " + std::to_string(device_qd) + " jobs at --qd 1";
    r->jobs = device_qd;
    r->queue_depth = 1;
  } else if (int64_t{r->jobs} * r->queue_depth > device_qd) {
    const int qd = device_qd / r->jobs;
    r->note = "--qd " + std::to_string(r->queue_depth) + " x --jobs " + std::to_string(r->jobs) +
              " exceeds the drive's queue depth " + std::to_string(device_qd) + ": running at --qd " +
              std::to_string(qd);
    r->queue_depth = qd;
  }
}

double NsToUs(double ns) { return ns / kNsPerUs; }

// Drives one device with the jobs' streams and records every completion.
class Bench : public DeviceListener {
 public:
  Bench(const DriveSpec& drive, const DiskBenchOptions& options, DiskBenchResult* result)
      : options_(options), result_(result) {
    device_ = MakeDevice(&sim_, "dev0", drive, options.policy);
    device_->set_listener(this);
    const int64_t bs = options.block_bytes;
    if (bs % device_->sector_bytes() != 0) {
      throw InputError("--bs: " + std::to_string(bs) + " is not a multiple of the drive's " +
                       std::to_string(device_->sector_bytes()) + "-byte sector");
    }
    span_blocks_ = static_cast<int64_t>(std::floor(static_cast<double>(device_->capacity_bytes()) * options.span)) / bs;
    if (span_blocks_ < 1) throw InputError("--span: holds no block of --bs " + std::to_string(bs) + " bytes");
    ClampToDevice(device_->queue_depth(), result_);
    for (int j = 0; j < result_->jobs; ++j) {
      // Sequential jobs start at evenly spaced offsets so they do not read the same blocks.
      jobs_.push_back(Job{RandomStream(options.seed, "job" + std::to_string(j)), span_blocks_ * j / result_->jobs});
    }
    if (options.count > 0) latencies_.reserve(static_cast<size_t>(options.count));
  }

  void Run() {
    for (int j = 0; j < result_->jobs; ++j) {
      for (int k = 0; k < result_->queue_depth; ++k) Issue(j);
    }
    if (options_.count > 0) {
      sim_.Run();
    } else {
      sim_.RunUntil(options_.runtime_ns);
    }
    result_->elapsed_ns = sim_.now();
    device_->FinishStats(sim_.now());
    CheckDeviceAccounting(*device_, sim_.now());
  }

  void OnDeviceDone(const DeviceRequest& req, SimTime submitted, SimTime done) override {
    latencies_.push_back(done - submitted);
    result_->bytes += req.size_bytes;
    Issue(static_cast<int>(req.tag));
  }

  const std::vector<SimTime>& latencies() const { return latencies_; }
  const Device& device() const { return *device_; }

 private:
  struct Job {
    RandomStream rng;
    int64_t next_block;  // sequential: the next block (in units of the block size) to read
  };

  bool MayIssue() const {
    if (options_.count > 0) return issued_ < options_.count;
    return sim_.now() < options_.runtime_ns;
  }

  void Issue(int job) {
    if (!MayIssue()) return;
    Job& j = jobs_[job];
    int64_t block;
    if (options_.pattern == BenchPattern::kRandom) {
      block = j.rng.UniformInt(0, span_blocks_ - 1);
    } else {
      block = j.next_block;
      j.next_block = block + 1 < span_blocks_ ? block + 1 : 0;  // wrap at the end of the span
    }
    ++issued_;
    device_->Submit(DeviceRequest{static_cast<uint64_t>(job), block * options_.block_bytes, options_.block_bytes,
                                  IoOp::kRead});
  }

  const DiskBenchOptions& options_;
  DiskBenchResult* result_;
  Simulation sim_;
  std::unique_ptr<Device> device_;
  std::vector<Job> jobs_;
  int64_t span_blocks_ = 0;
  int64_t issued_ = 0;
  std::vector<SimTime> latencies_;
};

void Summarize(const std::vector<SimTime>& latencies, const Device& device, DiskBenchResult* r) {
  r->ios = static_cast<int64_t>(latencies.size());
  if (r->elapsed_ns > 0) {
    const double seconds = NsToSec(r->elapsed_ns);
    r->mb_s = static_cast<double>(r->bytes) / seconds / 1e6;
    r->iops = static_cast<double>(r->ios) / seconds;
    r->busy_pct = 100.0 * static_cast<double>(device.stats().busy_ns()) / static_cast<double>(r->elapsed_ns);
  }
  if (latencies.empty()) return;
  // Exact percentiles of every sample, by the project's one quantile convention (sim/stats).
  std::vector<double> sorted_ns(latencies.begin(), latencies.end());
  std::sort(sorted_ns.begin(), sorted_ns.end());
  double sum = 0;
  for (double ns : sorted_ns) sum += ns;
  r->lat_mean_us = NsToUs(sum / static_cast<double>(sorted_ns.size()));
  r->lat_p50_us = NsToUs(Quantile(sorted_ns, 0.50));
  r->lat_p99_us = NsToUs(Quantile(sorted_ns, 0.99));
  r->lat_p999_us = NsToUs(Quantile(sorted_ns, 0.999));
}

}  // namespace

std::string_view PatternName(BenchPattern pattern) {
  return pattern == BenchPattern::kSequential ? "seq" : "rand";
}

BenchPattern ParsePattern(std::string_view text) {
  if (text == "seq") return BenchPattern::kSequential;
  if (text == "rand") return BenchPattern::kRandom;
  throw InputError("--pattern: \"" + std::string(text) + "\" is not seq or rand");
}

QueuePolicy ParseQueuePolicy(std::string_view text) {
  if (const std::optional<QueuePolicy> policy = FindQueuePolicy(text)) return *policy;
  throw InputError("--policy: \"" + std::string(text) + "\" is not one of " + QueuePolicyNames());
}

DiskBenchResult RunDiskBench(const DriveSpec& drive, const DiskBenchOptions& options) {
  CheckOptions(options);
  DiskBenchResult result;
  result.drive = drive.name;
  result.pattern = options.pattern;
  result.block_bytes = options.block_bytes;
  result.queue_depth = options.queue_depth;
  result.jobs = options.jobs;
  Bench bench(drive, options, &result);
  bench.Run();
  Summarize(bench.latencies(), bench.device(), &result);
  return result;
}

}  // namespace ziosim
