// `ziosim readers`' text report, printed from the readers result
// (sim/workload/readers_front.cc); the command itself is generated from the
// workload's option table (front_command.h).
#include <cstdio>

#include "sim/cli/front_command.h"
#include "sim/zfs/pool_report.h"

namespace ziosim::cli {

// Where each run's files landed, and the pool's CAP and FRAG before them (--pool-state).
void PrintPlacement(const Json& r) {
  if (r["runs"].empty() || !r["runs"][0].contains("placement")) return;
  const bool state = r.contains("pool_state") && !r["pool_state"].is_null();
  std::printf("\nwhere the data blocks landed, %% of each top-level vdev's size (first / median / last), "
              "extents%s:\n", state ? "; the pool's CAP and FRAG before the files" : "");
  for (const Json& run : r["runs"]) {
    const Json& p = run["placement"];
    std::printf("%7d %10.2f / %.2f / %.2f %%  %lld extents", run.begin().value().get<int>(), p["first_pct"].get<double>(),
                p["median_pct"].get<double>(), p["last_pct"].get<double>(),
                static_cast<long long>(p["extents"].get<int64_t>()));
    if (state) {
      std::printf("   CAP %lld %%, FRAG %lld %%", static_cast<long long>(p["pool_cap_pct"].get<int64_t>()),
                  static_cast<long long>(p["pool_frag_pct"].get<int64_t>()));
    }
    std::printf("\n");
  }
}

void PrintReadersText(const Json& r) {
  const int64_t mib = 1 << 20;
  std::printf("pool %s, profile %s, layout %s%s%s; %s files of %lld MiB, recordsize %lld KiB, reads of %lld KiB%s%s\n",
              r["pool"].get<std::string>().c_str(), r["profile"].get<std::string>().c_str(),
              r["layout"].get<std::string>().c_str(), r["pool_state"].is_null() ? "" : ", pool state ",
              r["pool_state"].is_null() ? "" : r["pool_state"].get<std::string>().c_str(),
              r["same_file"].get<bool>() ? "one shared file" : "one file per reader:",
              static_cast<long long>(r["file_size_bytes"].get<int64_t>() / mib),
              static_cast<long long>(r["recordsize_bytes"].get<int64_t>() >> 10),
              static_cast<long long>(r["bs_bytes"].get<int64_t>() >> 10), r["sparse"].get<bool>() ? ", sparse" : "",
              r["random"].get<bool>() ? ", random" : "");
  std::printf("\n%7s %10s %12s %10s %9s %8s   %s\n", "readers", "MB/s", "per reader", "disk/app", "CPU %",
              "time s", "disk busy % (d0 d1 ...)");
  for (const Json& run : r["runs"]) {
    std::printf("%7d %10.1f %12.1f %10.2f %9.1f %8.2f  ", run["readers"].get<int>(),
                run["throughput_mb_s"].get<double>(),
                run["throughput_mb_s"].get<double>() / run["readers"].get<double>(),
                run["amplification"].get<double>(), run["cpu_busy_pct"].get<double>(), run["elapsed_s"].get<double>());
    for (const Json& d : run["disks"]) std::printf(" %3.0f", d["busy_pct"].get<double>());
    std::printf("\n");
  }
  PrintPlacement(r);
  if (!r["runs"].empty()) {
    const Json& last = r["runs"].back();
    const int n = last["readers"].get<int>();
    std::printf("\nper-disk detail, %d reader%s:\n%s", n, n == 1 ? "" : "s", FormatDiskTable(last["disks"]).c_str());
  }
}

}  // namespace ziosim::cli
