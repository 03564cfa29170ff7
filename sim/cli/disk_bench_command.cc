// `ziosim disk-bench`: a fio-like microbenchmark of one simulated drive.
#include <cmath>
#include <cstdio>
#include <iostream>
#include <memory>
#include <string>

#include <nlohmann/json.hpp>

#include "models/catalog/catalog.h"
#include "sim/cli/commands.h"
#include "sim/cli/output_file.h"
#include "sim/core/status.h"
#include "sim/core/units.h"
#include "sim/workload/disk_bench.h"

namespace ziosim::cli {
namespace {

struct BenchCliOptions {
  std::string drive;
  std::string pattern = "seq";
  std::string bs = "4K";
  int qd = 1;
  int jobs = 1;
  double span = 1.0;
  double runtime_s = 10;
  int64_t count = 0;
  uint64_t seed = 1;
  std::string policy = "sptf";
  bool json = false;
};

SimTime RuntimeNs(double seconds) {
  if (!(seconds > 0) || !std::isfinite(seconds) || seconds > 1e9) {
    throw InputError("--runtime: " + std::to_string(seconds) + " is not a positive number of seconds");
  }
  return static_cast<SimTime>(std::llround(seconds * 1e9));
}

nlohmann::json ResultJson(const DiskBenchResult& r) {
  return {{"drive", r.drive},           {"pattern", PatternName(r.pattern)}, {"bs_bytes", r.block_bytes},
          {"qd", r.queue_depth},        {"jobs", r.jobs},                    {"mb_s", r.mb_s},
          {"iops", r.iops},             {"lat_mean_us", r.lat_mean_us},      {"lat_p50_us", r.lat_p50_us},
          {"lat_p99_us", r.lat_p99_us}, {"lat_p999_us", r.lat_p999_us},      {"busy_pct", r.busy_pct}};
}

void PrintText(const DiskBenchResult& r) {
  std::printf("%s  %s  bs %lld B  qd %d  jobs %d  (%lld I/Os in %.3f s simulated)\n", r.drive.c_str(),
              std::string(PatternName(r.pattern)).c_str(), static_cast<long long>(r.block_bytes), r.queue_depth,
              r.jobs, static_cast<long long>(r.ios), NsToSec(r.elapsed_ns));
  std::printf("  throughput  %.2f MB/s  %.1f IOPS\n", r.mb_s, r.iops);
  std::printf("  latency us  mean %.1f  p50 %.1f  p99 %.1f  p99.9 %.1f\n", r.lat_mean_us, r.lat_p50_us,
              r.lat_p99_us, r.lat_p999_us);
  std::printf("  device busy %.1f %%\n", r.busy_pct);
}

void RunBench(const BenchCliOptions& opt, bool count_given) {
  DiskBenchOptions o;
  o.pattern = ParsePattern(opt.pattern);
  o.block_bytes = ParsePositiveSize(opt.bs, "--bs");
  o.queue_depth = opt.qd;
  o.jobs = opt.jobs;
  o.span = opt.span;
  if (count_given) {
    if (opt.count <= 0) throw InputError("--count: must be positive (got " + std::to_string(opt.count) + ")");
    o.count = opt.count;
  } else {
    o.runtime_ns = RuntimeNs(opt.runtime_s);
  }
  o.seed = opt.seed;
  o.policy = ParseQueuePolicy(opt.policy);
  const DriveSpec drive = ResolveDrive(opt.drive);
  const DiskBenchResult r = RunDiskBench(drive, o);
  if (!r.note.empty()) std::cerr << "ziosim: note: " << r.note << "\n";
  if (opt.json) {
    std::cout << ResultJson(r).dump() << "\n";
  } else {
    PrintText(r);
  }
}

}  // namespace

void AddDiskBenchCommand(CLI::App& app) {
  auto opt = std::make_shared<BenchCliOptions>();
  CLI::App* cmd = app.add_subcommand("disk-bench", "fio-like microbenchmark of one simulated drive (reads)");
  cmd->add_option("--drive", opt->drive, "Catalog name, a .toml drive file, or disksim:FILE.parv")->required();
  cmd->add_option("--pattern", opt->pattern, "seq or rand")->capture_default_str();
  cmd->add_option("--bs", opt->bs, "Block size: bytes or K/M/G suffix (binary)")->capture_default_str();
  cmd->add_option("--qd", opt->qd, "Commands each job keeps outstanding")->capture_default_str();
  cmd->add_option("--jobs", opt->jobs, "Independent streams")->capture_default_str();
  cmd->add_option("--span", opt->span, "Fraction of the drive addressed, from its start (outer edge)")
      ->capture_default_str();
  CLI::Option* runtime = cmd->add_option("--runtime", opt->runtime_s, "Simulated seconds to run")
                             ->capture_default_str();
  CLI::Option* count = cmd->add_option("--count", opt->count, "Stop after this many I/Os instead");
  runtime->excludes(count);
  cmd->add_option("--seed", opt->seed, "Random seed (same seed, same results)")->capture_default_str();
  cmd->add_option("--policy", opt->policy, "HDD queue policy: sptf (NCQ reordering) or fifo")
      ->capture_default_str();
  cmd->add_flag("--json", opt->json, "Print one JSON object");
  cmd->callback([opt, count] { RunBench(*opt, count->count() > 0); });
}

}  // namespace ziosim::cli
