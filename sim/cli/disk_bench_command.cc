// `ziosim disk-bench`'s text report, printed from the disk-bench result
// (sim/workload/disk_bench_front.cc); the command is generated from the
// workload's option table (front_command.h).
#include <cstdio>
#include <iostream>
#include <string>

#include "sim/cli/front_command.h"

namespace ziosim::cli {

void PrintDiskBenchText(const Json& result) {
  const Json& r = result["runs"][0];
  if (const std::string note = r["note"].get<std::string>(); !note.empty()) std::cerr << "ziosim: note: " << note << "\n";
  std::printf("%s  %s  bs %lld B  qd %d  jobs %d  (%lld I/Os in %.3f s simulated)\n",
              result["drive"].get<std::string>().c_str(), result["pattern"].get<std::string>().c_str(),
              static_cast<long long>(result["bs_bytes"].get<int64_t>()), r["effective_qd"].get<int>(),
              r["effective_jobs"].get<int>(), static_cast<long long>(r["ios"].get<int64_t>()),
              r["elapsed_s"].get<double>());
  std::printf("  throughput  %.2f MB/s  %.1f IOPS\n", r["throughput_mb_s"].get<double>(), r["iops"].get<double>());
  std::printf("  latency us  mean %.1f  p50 %.1f  p99 %.1f  p99.9 %.1f\n", r["lat_mean_us"].get<double>(),
              r["lat_p50_us"].get<double>(), r["lat_p99_us"].get<double>(), r["lat_p999_us"].get<double>());
  std::printf("  device busy %.1f %%\n", r["busy_pct"].get<double>());
}

}  // namespace ziosim::cli
