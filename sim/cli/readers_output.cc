#include "sim/cli/readers_output.h"

#include <cstdio>

namespace ziosim::cli {

nlohmann::json ReadersJson(const ReadersOptions& o, const std::vector<ReadersRun>& runs) {
  nlohmann::json arr = nlohmann::json::array();
  for (const ReadersRun& r : runs) {
    arr.push_back({{"readers", r.readers},
                   {"throughput_mb_s", r.throughput_mb_s},
                   {"per_reader_mb_s", r.per_reader_mb_s},
                   {"disk_bytes_read", r.disk_bytes_read},
                   {"app_bytes_read", r.app_bytes_read},
                   {"cpu_busy_pct", r.cpu_busy_pct},
                   {"elapsed_s", NsToSec(r.elapsed_ns)},
                   {"arc", {{"hits", r.arc.hits}, {"misses", r.arc.misses}, {"prefetch_hits", r.arc.prefetch_hits},
                            {"l2_hits", r.arc.l2_hits}, {"size_bytes", r.arc.size_bytes}}},
                   {"dmu", {{"calls", r.dmu.calls}, {"demand_misses", r.dmu.demand_misses},
                            {"prefetch_reads", r.dmu.prefetch_reads}, {"indirect_reads", r.dmu.indirect_reads},
                            {"hole_blocks", r.dmu.hole_blocks}, {"waited_on_inflight", r.dmu.waited_on_inflight},
                            {"promoted", r.dmu.promoted}}},
                   {"disks", DisksToJson(r.disks)}});
  }
  return {{"pool", o.pool}, {"profile", o.profile}, {"bs", o.bs}, {"file_size", o.file_size},
          {"recordsize", o.recordsize}, {"layout", o.layout}, {"primarycache", o.primarycache}, {"runs", arr}};
}

void PrintReaders(const ReadersOptions& o, const std::vector<ReadersRun>& runs, bool json) {
  if (json) {
    std::printf("%s\n", ReadersJson(o, runs).dump(2).c_str());
    return;
  }
  std::printf("pool %s, profile %s, layout %s; %s files of %lld MiB, recordsize %lld KiB, reads of %lld KiB%s%s\n",
              o.pool.c_str(), o.profile.c_str(), o.layout.c_str(), o.same_file ? "one shared file" : "one file per reader:",
              static_cast<long long>(o.file_size >> 20), static_cast<long long>(o.recordsize >> 10),
              static_cast<long long>(o.bs >> 10), o.sparse ? ", sparse" : "", o.random ? ", random" : "");
  std::printf("\n%7s %10s %12s %10s %9s %8s   %s\n", "readers", "MB/s", "per reader", "disk/app", "CPU %",
              "time s", "disk busy % (d0 d1 ...)");
  for (const ReadersRun& r : runs) {
    const double amp = r.app_bytes_read > 0 ? static_cast<double>(r.disk_bytes_read) / r.app_bytes_read : 0;
    std::printf("%7d %10.1f %12.1f %10.2f %9.1f %8.2f  ", r.readers, r.throughput_mb_s,
                r.per_reader_mb_s.empty() ? 0.0 : r.throughput_mb_s / r.readers, amp, r.cpu_busy_pct,
                NsToSec(r.elapsed_ns));
    for (const DiskReport& d : r.disks) std::printf(" %3.0f", d.busy_pct);
    std::printf("\n");
  }
  if (!runs.empty()) {
    std::printf("\nper-disk detail, %d reader%s:\n%s", runs.back().readers, runs.back().readers == 1 ? "" : "s",
                FormatDiskTable(runs.back().disks).c_str());
  }
}

}  // namespace ziosim::cli
