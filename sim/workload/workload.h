// `ziosim workload NAME`: a personality (personality.h) run for a fixed time
// through the whole pool: reads through the DMU read path and ARC, writes
// through the DMU write path (dirty data, write throttle, txg sync), sync
// writes and fsyncs through the intent log (zil.h, to the log device when the
// pool spec has one), optionally behind an NFS front (nfs_front.h). The files
// exist on disk (laid out sequentially) before the run; the ARC starts cold.
// Rates count the operations that completed within the duration.
#ifndef ZIOSIM_SIM_WORKLOAD_WORKLOAD_H_
#define ZIOSIM_SIM_WORKLOAD_WORKLOAD_H_

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "sim/workload/nfs_front.h"
#include "sim/workload/personality.h"
#include "sim/zfs/pool_report.h"
#include "sim/zfs/tunables.h"
#include "sim/zfs/zil.h"

namespace ziosim {

struct WorkloadOptions {
  std::string personality;  // built-in name or a .toml path
  std::string pool;
  int ashift = 12;
  std::string profile = std::string(kDefaultProfile);
  std::vector<std::pair<std::string, std::string>> settings;  // applied after the profile
  std::string nfs;          // NFS front options (nfs_front.h); empty with use_nfs false: local
  bool use_nfs = false;
  SimTime duration_ns = 60 * kNsPerSec;
  int threads = 0;          // 0: the personality's
  std::string sync = "standard";     // the dataset's sync property
  std::string logbias = "latency";   // the dataset's logbias property
  uint64_t seed = 1;
};

struct WorkloadRun {
  std::string personality;
  std::string profile;
  std::string pool;
  bool nfs = false;
  int threads = 0;
  SimTime duration_ns = 0;
  uint64_t reads = 0, writes = 0;
  int64_t read_bytes = 0, write_bytes = 0;
  double ops_per_s = 0, read_iops = 0, write_iops = 0, read_mb_s = 0, write_mb_s = 0;
  double read_p50_ms = 0, read_p99_ms = 0;
  uint64_t sync_writes = 0;          // writes that waited for the intent log
  double sync_p50_ms = 0, sync_p99_ms = 0, sync_p999_ms = 0;
  uint64_t txgs = 0;
  double txg_sync_mean_ms = 0, txg_sync_max_ms = 0;
  double throttle_pct = 0;           // of thread time writes spent delayed or waiting for dirty space
  ZilStats zil;
  std::vector<DiskReport> disks;
};

// Throws InputError for bad options, personality, pool, profile or tunables.
WorkloadRun RunWorkload(const WorkloadOptions& options);
nlohmann::json WorkloadToJson(const WorkloadRun& run);
// The checks RunWorkload makes (personality, options, pool, tunables), without simulating. Throws InputError.
void CheckWorkloadOptions(const WorkloadOptions& options);

}  // namespace ziosim

#endif  // ZIOSIM_SIM_WORKLOAD_WORKLOAD_H_
