// N concurrent `dd`-like writers, each writing its own new file from start to
// end with one block size, through the whole write path: the DMU write path
// (copy-in, write throttle), transaction groups (dirty data, txg sync through
// the allocator), the vdev tree, the disks. Throughput is measured as dd
// does: bytes / time until the last write() returned (MB = 10^6); the time
// until that data is on disk (the final txg sync) is reported separately,
// or included with fsync_at_end (dd conv=fsync). With read_back the files are
// then read, cold, by as many `dd` readers with the layout the writers left.
#ifndef ZIOSIM_SIM_WORKLOAD_WRITERS_H_
#define ZIOSIM_SIM_WORKLOAD_WRITERS_H_

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "sim/workload/readers.h"
#include "sim/zfs/dmu_write.h"
#include "sim/zfs/pool_report.h"

namespace ziosim {

struct WritersOptions {
  std::string pool;
  int ashift = 12;
  std::string profile = std::string(kDefaultProfile);
  std::vector<std::pair<std::string, std::string>> settings;  // applied after the profile
  std::vector<int> writers = {1, 2, 5, 10};
  int64_t bs = 1 << 20;                  // bytes per write() call
  int64_t file_size = int64_t{1} << 30;
  int64_t recordsize = 128 << 10;
  bool fsync_at_end = false;             // each writer waits until its data is on disk (conv=fsync)
  bool read_back = false;                // then read the files back with the written layout
  std::string pool_state;                // --pool-state cap=PCT,frag=PCT (pool_state.h); empty: an empty pool
  std::string pool_state_label = "--pool-state";  // the option as the caller spelled it, for errors
  uint64_t seed = 1;
};

struct WritersRun {
  int writers = 0;
  double throughput_mb_s = 0;        // all bytes / time until the last writer returned
  std::vector<double> per_writer_mb_s;
  SimTime elapsed_ns = 0;            // until the last write() (or fsync) returned
  SimTime final_sync_ns = 0;         // from then until every byte was on disk
  int64_t app_bytes_written = 0;
  double write_calls_per_s = 0;      // write() calls per second over elapsed
  int64_t disk_bytes_written = 0;    // every leaf, data + parity + metadata + labels
  double disk_write_iops = 0;        // device write commands per second, until on disk
  uint64_t txgs = 0;
  double txg_sync_mean_ms = 0;
  double txg_sync_max_ms = 0;
  double throttle_pct = 0;           // of writer time spent delayed or waiting for dirty space
  int64_t dirty_max_bytes = 0;       // zfs_dirty_data_max
  int64_t max_dirty_bytes = 0;       // the most dirty data the pool held
  double cpu_busy_pct = 0;           // of all cores over elapsed
  TxgStats txg;
  DmuWriteStats dmu;
  std::vector<DiskReport> disks;     // over elapsed + final sync
  std::vector<int64_t> disk_written_bytes;  // per leaf, pool order
  double read_back_mb_s = -1;        // read_back: the readers' throughput; else -1
  std::vector<FileLayout> layouts;   // where the writers' files ended up, file i = writer i
  Placement placement;               // where their data blocks landed
  PoolFigures pool_before;           // CAP and FRAG before they were written
};

// One run per entry of options.writers. Throws InputError for bad options.
std::vector<WritersRun> RunWriters(const WritersOptions& options);
// Everything RunWriters checks before simulating, without simulating. Throws InputError.
void CheckWritersOptions(const WritersOptions& options);

}  // namespace ziosim

#endif  // ZIOSIM_SIM_WORKLOAD_WRITERS_H_
