// A fio-like microbenchmark of one device: `jobs` independent streams, each
// keeping `queue_depth` reads outstanding, sequential or uniformly random over
// the first `span` of the device. Reports throughput, IOPS, completion latency
// percentiles and device busy time. Runs are a pure function of the options and
// the seed.
#ifndef ZIOSIM_SIM_WORKLOAD_DISK_BENCH_H_
#define ZIOSIM_SIM_WORKLOAD_DISK_BENCH_H_

#include <cstdint>
#include <string>
#include <string_view>

#include "models/catalog/catalog.h"
#include "models/device/device.h"
#include "sim/core/time.h"

namespace ziosim {

enum class BenchPattern { kSequential, kRandom };

// "seq" / "rand".
std::string_view PatternName(BenchPattern pattern);
// Throws InputError for anything but "seq" or "rand".
BenchPattern ParsePattern(std::string_view text);
// "fifo" or "sptf" (the device's command queue); InputError naming --policy otherwise.
QueuePolicy ParseQueuePolicy(std::string_view text);

struct DiskBenchOptions {
  std::string drive;    // for a front to resolve (ResolveDrive); RunDiskBench takes the resolved spec
  BenchPattern pattern = BenchPattern::kSequential;
  int64_t block_bytes = 4096;
  int queue_depth = 1;  // per job
  int jobs = 1;
  double span = 1.0;    // fraction of the device's capacity, from offset 0
  // Stop after `count` completions in total, or, when count is 0, at `runtime_ns`.
  int64_t count = 0;
  SimTime runtime_ns = 10 * kNsPerSec;
  uint64_t seed = 1;
  QueuePolicy policy = QueuePolicy::kSptf;  // NCQ reordering, as drives do by default
};

struct DiskBenchResult {
  std::string drive;
  BenchPattern pattern = BenchPattern::kSequential;
  int64_t block_bytes = 0;
  int queue_depth = 0;  // per job, after clamping to the device's queue depth
  int jobs = 0;
  std::string note;     // why queue_depth or jobs were clamped; empty if not
  int64_t ios = 0;
  int64_t bytes = 0;
  SimTime elapsed_ns = 0;
  double mb_s = 0;      // 10^6 bytes per second
  double iops = 0;
  double lat_mean_us = 0;  // completion latency: submission to the device until done
  double lat_p50_us = 0;
  double lat_p99_us = 0;
  double lat_p999_us = 0;
  double busy_pct = 0;  // share of the run with at least one command in the device
};

// Throws InputError for bad options (zero or misaligned block size, a span that
// holds no block, non-positive qd/jobs/runtime/count).
DiskBenchResult RunDiskBench(const DriveSpec& drive, const DiskBenchOptions& options);

}  // namespace ziosim

#endif  // ZIOSIM_SIM_WORKLOAD_DISK_BENCH_H_
