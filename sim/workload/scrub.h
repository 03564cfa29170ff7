// `ziosim scrub`: how long a scrub of a pool takes and what it does to the
// disks. The pool holds files laid out by the allocation model (--files,
// --file-size, --layout) on a pool that may be partly full already
// (--pool-state: the old data is scrubbed too); the scan is the era's
// (sim/zfs/scan/dsl_scan.h: the legacy block-pointer-order scan before
// OpenZFS 0.8, the sorted scan after). A scrub of a large pool can stop after
// --stop-after bytes issued: the rest is then predicted from the rate so far,
// as `zpool status` predicts it.
#ifndef ZIOSIM_SIM_WORKLOAD_SCRUB_H_
#define ZIOSIM_SIM_WORKLOAD_SCRUB_H_

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "sim/zfs/allocator.h"
#include "sim/zfs/pool_report.h"
#include "sim/zfs/scan/dsl_scan.h"
#include "sim/zfs/tunables.h"

namespace ziosim {

struct ScrubOptions {
  std::string pool;
  int ashift = 12;
  std::string profile = std::string(kDefaultProfile);
  std::vector<std::pair<std::string, std::string>> settings;
  int files = 1;
  int64_t file_size = int64_t{1} << 30;
  int64_t recordsize = 128 << 10;
  std::string layout = "sequential";
  std::string pool_state;
  std::string pool_state_label = "--pool-state";
  int64_t stop_after = 0;  // bytes issued; 0: the whole pool
  uint64_t seed = 1;
  // A resilver instead of a scrub: these disks failed and were each replaced
  // by a new disk of the same drive (zpool replace POOL dN), to be healed.
  std::vector<std::string> replaced;
  // Disks failed and not replaced: the scan reads around them (a degraded pool).
  std::vector<std::string> faulted;
  // The sequential rebuild instead (zpool replace -s; what zed starts for a
  // dRAID's distributed spare): the one disk in `replaced`, of a dRAID, is
  // rebuilt onto the vdev's next free distributed spare.
  bool sequential = false;
  // dd-like readers of files 0 .. readers-1 while the scan runs, `bs` bytes a read().
  int readers = 0;
  int64_t bs = 1 << 20;
};

struct ScrubResult {
  std::string pool;
  std::string profile;
  ScanResult scan;
  bool sequential = false;
  double predicted_s = 0;        // the whole scrub: elapsed, or its walk and its issue each extrapolated at their rates
  double issued_mb_s = 0;        // issued bytes / elapsed (MB = 10^6)
  // The readers beside the scan: all their bytes over the time until the last
  // one finished, and each one's MB/s (MB = 10^6).
  double readers_mb_s = 0;
  std::vector<double> per_reader_mb_s;
  std::vector<DiskReport> disks;
  // Each disk's bytes when the scan started (the samples are since the pool was built).
  std::vector<int64_t> disk_read_bytes_before, disk_written_bytes_before;
  PoolFigures pool_before;       // CAP and FRAG before the files
  int64_t file_bytes = 0;
  int64_t size_bytes = 0;        // zpool list's SIZE: every data top-level vdev's allocatable bytes
  int64_t usable_bytes = 0;      // what files of the recordsize fit in it: SIZE x recordsize / its asize
};

// Throws InputError for bad options. With options.replaced, the healing
// resilver of those disks (the scan with ZIO_FLAG_RESILVER: only the blocks
// with a copy or column on them, read as a normal read does but for parity,
// and written back to them).
ScrubResult RunScrub(const ScrubOptions& options);
void CheckScrubOptions(const ScrubOptions& options);

}  // namespace ziosim

#endif  // ZIOSIM_SIM_WORKLOAD_SCRUB_H_
