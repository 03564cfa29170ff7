// The product's main job: N concurrent `dd`-like readers, each reading its own
// file (or all the same file) from start to end with one block size, through
// the whole read path: DMU chunks, prefetch, ARC, the vdev tree, the disks and
// the host CPU. Throughput is measured as dd does: bytes / elapsed, MB = 10^6.
#ifndef ZIOSIM_SIM_WORKLOAD_READERS_H_
#define ZIOSIM_SIM_WORKLOAD_READERS_H_

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "sim/zfs/allocator.h"
#include "sim/zfs/arc.h"
#include "sim/zfs/dmu.h"
#include "sim/zfs/pool_report.h"

namespace ziosim {

struct ReadersOptions {
  std::string pool;
  int ashift = 12;
  std::string profile = std::string(kDefaultProfile);
  std::vector<std::pair<std::string, std::string>> settings;  // applied after the profile
  std::vector<int> readers = {1, 2, 5, 10};
  int64_t bs = 1 << 20;                 // bytes per read() call
  int64_t file_size = int64_t{1} << 30;
  int64_t recordsize = 128 << 10;
  double compression = 1.0;             // logical / physical (the dataset's compressratio)
  bool compressed = true;               // the compression property is not off (ziosim models lz4)
  bool sparse = false;                  // files are truncated, never written: all holes
  bool same_file = false;               // every reader reads file 0
  bool random = false;                  // read() at random bs-aligned offsets instead of in order
  int64_t read_offset = 0;              // each reader reads [read_offset, read_offset + read_length)
  int64_t read_length = 0;              // of its file; 0: to the end of the file
  std::string io_log_path;              // per leaf-I/O CSV of the last run (io_log.h), if set
  std::string layout = "sequential";    // allocation preset (see allocator.h)
  std::string pool_state;               // --pool-state cap=PCT,frag=PCT (pool_state.h); empty: an empty pool
  std::string pool_state_label = "--pool-state";  // the option as the caller spelled it, for errors
  std::string primarycache = "all";     // all | metadata | none
  int64_t arc_max = 0;                  // 0: the tunable zfs_arc_max
  std::string l2arc;                    // cache device drive, empty: none
  bool warm = false;                    // read every file once before measuring
  uint64_t seed = 1;
};

struct ReadersRun {
  int readers = 0;
  double throughput_mb_s = 0;           // all bytes / time until the last reader finished
  std::vector<double> per_reader_mb_s;
  int64_t app_bytes_read = 0;
  int64_t disk_bytes_read = 0;
  double cpu_busy_pct = 0;              // of all cores over the run
  SimTime elapsed_ns = 0;
  ArcStats arc;
  DmuStats dmu;
  std::vector<DiskReport> disks;
  Placement placement;                  // where the files' data blocks landed
  PoolFigures pool_before;              // CAP and FRAG before the files were laid out
};

// One run per entry of options.readers. Throws InputError for bad options.
std::vector<ReadersRun> RunReaders(const ReadersOptions& options);
// One run of `n` readers over files already laid out (e.g. by the write
// path, writers.h): `layouts` has one entry per file read (n, or 1 with
// same_file); options.layout and the file options other than bs are not used.
ReadersRun RunReadersOnLayouts(const ReadersOptions& options, int n, const std::vector<FileLayout>& layouts);
// Everything RunReaders checks before simulating (options, pool, drives,
// profile, tunables, layout), without simulating. Throws InputError.
void CheckReadersOptions(const ReadersOptions& options);
PrimaryCache ParsePrimaryCache(const std::string& text);

}  // namespace ziosim

#endif  // ZIOSIM_SIM_WORKLOAD_READERS_H_
