// Block-level reads straight at the vdev layer (no DMU, no ARC): blocks of
// one size laid out as an empty pool allocates them, read sequentially or at
// random with N reads outstanding. For seeing what the mirror policy, the
// RAID-Z map and the per-disk queue do with a known stream of block reads.
#ifndef ZIOSIM_SIM_WORKLOAD_BLOCK_READ_H_
#define ZIOSIM_SIM_WORKLOAD_BLOCK_READ_H_

#include <cstdint>
#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "sim/workload/disk_bench.h"
#include "sim/zfs/pool_report.h"

namespace ziosim {

struct BlockReadOptions {
  std::string pool;            // zpool syntax
  int ashift = 12;
  std::string profile = std::string(kDefaultProfile);
  std::vector<std::pair<std::string, std::string>> settings;  // --set NAME=VALUE, applied after the profile
  BenchPattern pattern = BenchPattern::kSequential;
  int64_t block_bytes = 128 << 10;
  int depth = 1;               // block reads outstanding
  ZioPriority priority = ZioPriority::kSyncRead;  // demand (sync) or prefetch (async) reads
  int64_t count = 1000;        // blocks to read
  int64_t span_bytes = 0;      // random reads fall in the first span of the layout; 0: the whole pool
  uint64_t seed = 1;
  SimTime interval_ns = 0;     // > 0: an interval report every so often
  std::vector<std::string> faulted;  // leaves to fault before the run (d0, d1, ...)
  // dRAID leaves that failed and were rebuilt onto the vdev's distributed
  // spares, taken in order (faulted; their columns read from the spare space).
  std::vector<std::string> spared;
  std::string io_log_path;     // per-I/O CSV log, if set
};

// One line of the `zpool iostat -v`-style interval report.
struct IntervalSample {
  SimTime end_ns = 0;
  std::vector<uint64_t> reads;     // per disk, in this interval
  std::vector<int64_t> read_bytes; // per disk, in this interval
};

struct BlockReadResult {
  std::string pool;
  std::string profile;
  int64_t blocks = 0;
  int64_t bytes = 0;
  SimTime elapsed_ns = 0;
  double mb_s = 0;
  double lat_mean_ms = 0;
  double lat_p99_ms = 0;
  std::vector<DiskReport> disks;
  std::vector<IntervalSample> intervals;
};

// Throws InputError for a bad pool, tunable, size or count.
BlockReadResult RunBlockRead(const BlockReadOptions& options);
// The checks RunBlockRead makes of the options, pool and tunables, without simulating. Throws InputError.
void CheckBlockReadOptions(const BlockReadOptions& options);

// Where block `index` lives when an empty pool allocates blocks of `asize` in
// order: the top-level rotor moves on after 512 KiB x children of allocated
// space (metaslab_aliquot, OpenZFS <= 2.1), each vdev filling from offset 0.
struct BlockAddress {
  int top = 0;
  int64_t offset = 0;
};
class BlockLayout {
 public:
  explicit BlockLayout(const Pool& pool, int64_t block_bytes);
  BlockAddress Locate(int64_t index) const;
  int64_t psize() const { return psize_; }
  // Blocks that fit in the pool.
  int64_t capacity_blocks() const { return capacity_blocks_; }

 private:
  int64_t psize_;
  std::vector<int64_t> asize_;           // per top-level vdev
  std::vector<int64_t> per_round_;       // blocks per rotor visit
  std::vector<int64_t> round_prefix_;    // cumulative per_round_
  int64_t round_blocks_ = 0;
  int64_t capacity_blocks_ = 0;
};

}  // namespace ziosim

#endif  // ZIOSIM_SIM_WORKLOAD_BLOCK_READ_H_
