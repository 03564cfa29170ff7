// `ziosim workload`'s text report, printed from the workload result
// (sim/workload/personality_front.cc); the command is generated from the
// workload's option table (front_command.h).
#include <cstdio>
#include <string>

#include "sim/cli/front_command.h"
#include "sim/zfs/pool_report.h"

namespace ziosim::cli {

void PrintPersonalityText(const Json& result) {
  const Json& r = result["runs"][0];
  const Json& z = r["zil"];
  auto u = [](const Json& v) { return static_cast<unsigned long long>(v.get<uint64_t>()); };
  std::printf("workload %s on \"%s\", profile %s%s, %d threads, %.0f s\n",
              result["personality"].get<std::string>().c_str(), result["pool"].get<std::string>().c_str(),
              result["profile"].get<std::string>().c_str(), r["nfs"].get<bool>() ? ", over NFS" : "",
              r["threads"].get<int>(), r["duration_s"].get<double>());
  std::printf("ops/s %.1f   reads/s %.1f (%.2f MB/s)   writes/s %.1f (%.2f MB/s)\n", r["ops_per_s"].get<double>(),
              r["read_iops"].get<double>(), r["read_mb_s"].get<double>(), r["write_iops"].get<double>(),
              r["write_mb_s"].get<double>());
  std::printf("read latency    p50 %.3f ms  p99 %.3f ms\n", r["read_p50_ms"].get<double>(),
              r["read_p99_ms"].get<double>());
  std::printf("sync writes %llu: latency p50 %.3f ms  p99 %.3f ms  p99.9 %.3f ms\n", u(r["sync_writes"]),
              r["sync_p50_ms"].get<double>(), r["sync_p99_ms"].get<double>(), r["sync_p999_ms"].get<double>());
  std::printf("ZIL: %llu commits in %llu batches, %llu log blocks (%.1f MB), %llu indirect, %llu flushes\n",
              u(z["commits"]), u(z["batches"]), u(z["lwbs"]), static_cast<double>(z["lwb_bytes"].get<int64_t>()) / 1e6,
              u(z["indirect_records"]), u(z["flushes"]));
  std::printf("txgs %llu: sync mean %.1f ms, max %.1f ms; throttle %.1f%% of thread time\n", u(r["txgs"]),
              r["txg_sync_mean_ms"].get<double>(), r["txg_sync_max_ms"].get<double>(), r["throttle_pct"].get<double>());
  std::printf("\n%s", FormatDiskTable(r["disks"]).c_str());
}

}  // namespace ziosim::cli
