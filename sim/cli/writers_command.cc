// `ziosim writers`' text report, printed from the writers result
// (sim/workload/writers_front.cc); the command is generated from the
// workload's option table (front_command.h).
#include <cstdio>

#include "sim/cli/front_command.h"
#include "sim/zfs/pool_report.h"

namespace ziosim::cli {

void PrintWritersText(const Json& r) {
  const bool read_back = r["read_back"].get<bool>();
  std::printf("pool %s, profile %s; one new file per writer of %lld MiB, recordsize %lld KiB, writes of %lld KiB%s\n",
              r["pool"].get<std::string>().c_str(), r["profile"].get<std::string>().c_str(),
              static_cast<long long>(r["file_size_bytes"].get<int64_t>() >> 20),
              static_cast<long long>(r["recordsize_bytes"].get<int64_t>() >> 10),
              static_cast<long long>(r["bs_bytes"].get<int64_t>() >> 10),
              r["fsync_at_end"].get<bool>() ? ", fsync at end" : "");
  std::printf("\n%7s %9s %11s %9s %8s %10s %5s %13s %10s %10s%s   %s\n", "writers", "MB/s", "per writer", "time s",
              "sync s", "disk IOPS", "txgs", "txg ms mean", "txg ms max", "throttle %", read_back ? " read MB/s" : "",
              "disk busy % (d0 d1 ...)");
  for (const Json& w : r["runs"]) {
    std::printf("%7d %9.1f %11.1f %9.2f %8.2f %10.0f %5llu %13.0f %10.0f %10.1f", w["writers"].get<int>(),
                w["throughput_mb_s"].get<double>(), w["throughput_mb_s"].get<double>() / w["writers"].get<double>(),
                w["elapsed_s"].get<double>(), w["final_sync_s"].get<double>(), w["disk_write_iops"].get<double>(),
                w["txgs"].get<unsigned long long>(), w["txg_sync_mean_ms"].get<double>(),
                w["txg_sync_max_ms"].get<double>(), w["throttle_pct"].get<double>());
    if (read_back) std::printf(" %10.1f", w["read_back_mb_s"].get<double>());
    std::printf("  ");
    for (const Json& d : w["disks"]) std::printf(" %3.0f", d["busy_pct"].get<double>());
    std::printf("\n");
  }
  PrintPlacement(r);
  if (!r["runs"].empty()) {
    const Json& last = r["runs"].back();
    const int n = last["writers"].get<int>();
    std::printf("\ndirty data: zfs_dirty_data_max %lld MiB, at most %lld MiB held (%d writer%s)\n",
                static_cast<long long>(last["dirty_data_max_bytes"].get<int64_t>() >> 20),
                static_cast<long long>(last["dirty_peak_bytes"].get<int64_t>() >> 20), n, n == 1 ? "" : "s");
    std::printf("per-disk detail, %d writer%s:\n%s", n, n == 1 ? "" : "s", FormatDiskTable(last["disks"]).c_str());
  }
}

}  // namespace ziosim::cli
