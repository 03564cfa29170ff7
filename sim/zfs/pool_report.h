// Per-disk results of a pool run, what `zpool iostat -v` and `gstat` would
// show, written once for every workload: the CLI prints them as a table or
// JSON and the Python module turns them into DataFrames.
#ifndef ZIOSIM_SIM_ZFS_POOL_REPORT_H_
#define ZIOSIM_SIM_ZFS_POOL_REPORT_H_

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "models/device/device_stats.h"
#include "sim/zfs/pool.h"

namespace ziosim {

struct DiskReport {
  std::string name;   // d0, d1, ... in pool order
  std::string drive;  // catalog name
  std::string vdev;   // top-level vdev, e.g. mirror-0; a log vdev as log/mirror-1
  double busy_pct = 0;
  uint64_t reads = 0;         // device commands
  int64_t read_bytes = 0;
  double read_mb_s = 0;
  uint64_t zios = 0;          // ZFS I/Os that reached the leaf
  uint64_t aggregated = 0;    // device I/Os that carried several zios
  uint64_t aggregated_zios = 0;
  int64_t gap_bytes = 0;      // read only to bridge aggregation gaps
  uint64_t split = 0;         // I/Os the platform cut into several commands
  double mean_active = 0;     // mean I/Os issued to the device (in-device + block layer)
  double mean_queued = 0;     // mean I/Os waiting in the ZFS queue
  double mean_service_ms = 0; // device service time per command
  std::array<uint64_t, Log2Histogram::kBuckets> seek_log2_cylinders{};  // bucket k: [2^k, 2^(k+1))
  uint64_t mirror_chosen = 0; // reads a mirror assigned to this child
  // The vdev cache (vdev_cache.h; zero where zfs_vdev_cache_size is 0).
  uint64_t vdev_cache_hits = 0;
  uint64_t vdev_cache_delegations = 0;
  uint64_t vdev_cache_misses = 0;
};

// Reads the per-disk figures of `pool` over a run of `elapsed_ns` (call Pool::SettleStats first).
std::vector<DiskReport> ReportDisks(const Pool& pool, SimTime elapsed_ns);
// One object per disk: "disk" (d0, d1, ...), "drive", "vdev" and the figures of DiskReport.
nlohmann::ordered_json DisksToJson(const std::vector<DiskReport>& disks);
// A fixed-width table, one line per disk, of DisksToJson's objects.
std::string FormatDiskTable(const nlohmann::ordered_json& disks);

}  // namespace ziosim

#endif  // ZIOSIM_SIM_ZFS_POOL_REPORT_H_
