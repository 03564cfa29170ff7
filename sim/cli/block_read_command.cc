// `ziosim block-read`'s text report, printed from the block-read result
// (sim/workload/block_read_front.cc); the command is generated from the
// workload's option table (front_command.h).
#include <cstdio>
#include <string>

#include "sim/cli/front_command.h"
#include "sim/core/units.h"
#include "sim/zfs/pool_report.h"

namespace ziosim::cli {
namespace {

void PrintIntervals(const Json& r) {
  // r: the one run of the result
  const Json& rows = r["intervals"];
  if (rows.empty()) return;
  const size_t disks = r["disks"].size();
  std::printf("\ninterval report (zpool iostat -v style: read ops and MB/s per disk)\n%10s", "t (s)");
  for (const Json& d : r["disks"]) {
    const std::string name = d["disk"].get<std::string>();
    std::printf(" %8s-ops %7s-MB/s", name.c_str(), name.c_str());
  }
  for (size_t i = 0; i < rows.size(); ++i) {
    if (i % disks == 0) std::printf("\n%10.3f", rows[i]["t_end_s"].get<double>());
    std::printf(" %12.0f %12.1f", rows[i]["read_ops_s"].get<double>(), rows[i]["read_mb_s"].get<double>());
  }
  std::printf("\n");
}

}  // namespace

void PrintBlockReadText(const Json& result) {
  const Json& r = result["runs"][0];
  std::printf("pool     %s   (profile %s)\n", result["pool"].get<std::string>().c_str(),
              result["profile"].get<std::string>().c_str());
  std::printf("workload %s reads of %s, %d outstanding, %lld blocks\n", result["pattern"].get<std::string>().c_str(),
              SizeText(result["bs_bytes"].get<int64_t>()).c_str(), result["depth"].get<int>(),
              static_cast<long long>(r["blocks"].get<int64_t>()));
  std::printf("result   %.1f MB/s over %.3f s simulated; block latency mean %.2f ms, p99 %.2f ms\n\n",
              r["throughput_mb_s"].get<double>(), r["elapsed_s"].get<double>(), r["lat_mean_ms"].get<double>(),
              r["lat_p99_ms"].get<double>());
  std::printf("%s", FormatDiskTable(r["disks"]).c_str());
  PrintIntervals(r);
}

}  // namespace ziosim::cli
