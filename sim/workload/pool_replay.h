// Replays a block trace on a pool: the traced volume becomes one zvol-like
// object (blocks of volblocksize, laid out by the allocation model) and every
// trace read becomes a read() of it through the DMU read path (ARC, prefetch,
// L2ARC, the vdev tree, the disks) and every trace write a write() of it
// through the DMU write path (dmu_write.h: throttle, read-modify-write of
// partial blocks, txgs); reads see the writes (a written block is in memory,
// then read from its new place). On Linux a zvol read goes through
// zvol_read() -> dmu_read_uio_dnode() -> dmu_buf_hold_array_by_dnode(...,
// DMU_READ_PREFETCH), so zfetch applies as it does to files (OpenZFS
// module/os/linux/zfs/zvol_os.c, module/zfs/dmu.c). Pacing, latency
// bookkeeping and the demerit are replay.h's; a request's latency runs from its
// arrival to the read()'s or write()'s return. The trace formats carry no
// sync/FUA flag, so every write is asynchronous (as zvol_write without
// REQ_FUA/REQ_PREFLUSH on sync=standard): it returns once its blocks are
// dirty, and the txgs write them out later. After the last request the run
// syncs the dirty data out and checks its books (not counted in the figures:
// the disk figures cover the replay up to its last completion). With
// ReplayOptions::reads_only the writes are passed over and the zvol is read
// through the read-only model (no txg block tree: less memory on big volumes).
//
// A file-level trace (IsFileLevel: strace, DTrace, fio iolog) replays on
// files instead: every traced file becomes a file of the dataset (recordsize,
// size = the highest offset + size its replayed requests reach), laid out by
// the allocation model, and every call a read() or write() of it at its
// offset through the same DMU paths.
//
// Several instances of the workload (PoolReplayOptions::instances, the
// `--readers` of `ziosim replay`) run at once, each with its own copy of the
// data (its own zvol or files, laid out one copy after another as `readers`
// lays out its files), or all on one copy (same_data); instance i starts
// i x stagger_ns after the first. Each instance reads the trace afresh.
//
// Not modelled: the ZIL (no write is sync), the zvol
// request taskq / blk-mq queue in front of the DMU (every request goes to the
// DMU when it arrives), and zvol_read's DMU_MAX_ACCESS/2 chunking (the DMU's
// 1 MiB read chunks stand in; trace requests are far smaller).
#ifndef ZIOSIM_SIM_WORKLOAD_POOL_REPLAY_H_
#define ZIOSIM_SIM_WORKLOAD_POOL_REPLAY_H_

#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "sim/trace/trace_reader.h"
#include "sim/workload/replay.h"
#include "sim/zfs/allocator.h"
#include "sim/zfs/arc.h"
#include "sim/zfs/dmu.h"
#include "sim/zfs/dmu_write.h"
#include "sim/zfs/pool_report.h"
#include "sim/zfs/tunables.h"

namespace ziosim {

struct PoolReplayOptions {
  std::string pool;  // zpool syntax
  int ashift = 12;
  std::string profile = std::string(kDefaultProfile);
  std::vector<std::pair<std::string, std::string>> settings;  // --set NAME=VALUE, after the profile
  int64_t volblocksize = 0;            // 0: the profile's era default (DefaultVolblocksize)
  int64_t volsize = 0;                 // 0: the highest offset + size the replayed requests reach
  int64_t recordsize = 128 << 10;      // file-level traces: the dataset's recordsize
  int instances = 1;                   // copies of the workload run at once (1 to kMaxReplayInstances)
  SimTime stagger_ns = 0;              // instance i starts i x this after instance 0
  bool same_data = false;              // every instance on one copy of the data
  std::string layout = "sequential";   // allocation preset (allocator.h)
  std::string pool_state;               // --pool-state cap=PCT,frag=PCT (pool_state.h); empty: an empty pool
  std::string pool_state_label = "--pool-state";  // the option as the caller spelled it, for errors
  std::string primarycache = "all";    // all | metadata | none
  int64_t arc_max = 0;                 // 0: the tunable zfs_arc_max
  std::string l2arc;                   // cache device drive, empty: none
  uint64_t seed = 1;
};

// The default volblocksize of `zfs create -V` in the era of `profile`: 16 KiB
// from OpenZFS 2.2 (openzfs/zfs PR #12406, "Increase default volblocksize from
// 8KB to 16KB", released in 2.2.0), 8 KiB before (ZFS_DEFAULT_VOLBLOCKSIZE
// since the first zvols; ZoL, FreeBSD and OpenZFS 2.1 alike).
int64_t DefaultVolblocksize(std::string_view profile);

inline constexpr int kMaxReplayInstances = 64;

struct PoolReplayResult {
  ReplayResult replay;                  // every instance's requests together
  std::vector<ReplayResult> instances;  // each instance's (one: equal to replay)
  double cpu_busy_pct = 0;              // of all cores, until the last completion
  bool file_level = false;              // replayed on files (else on a zvol)
  std::vector<std::string> files;       // file-level: the traced files, as traced
  std::vector<int64_t> file_bytes;      // ... and their sizes in the pool (one copy)
  std::string profile;
  TraceFormat format = TraceFormat::kAuto;  // as detected
  TraceReadStats trace_stats;
  std::string pool;     // as formatted back from the spec
  int64_t volblocksize = 0;  // zvol: its block size; files: the recordsize
  int64_t volsize = 0;       // zvol: its size; files: the sum of one copy's file sizes
  int64_t disk_bytes_read = 0;
  int64_t disk_bytes_written = 0;
  double arc_hit_pct = 0;  // demand block accesses served without a disk read (ARC or in flight)
  ArcStats arc;
  DmuStats dmu;
  DmuWriteStats dmu_write;  // zero with reads_only
  std::vector<DiskReport> disks;
  Placement placement;      // where the zvol's blocks were laid out (before the replay's writes)
  PoolFigures pool_before;  // CAP and FRAG before the zvol was laid out
};

// Replays the trace at `trace_path` (read once more first when volsize is 0
// or the trace is file-level: to size the zvol or the files, with the same
// filters). `on_request` hears every instance's requests. Throws InputError for
// bad options, a bad pool, a malformed trace, or a request past --volsize
// without wrap.
PoolReplayResult ReplayTraceOnPool(const std::string& trace_path, TraceFormat format,
                                   const TraceReaderOptions& reader_options, const PoolReplayOptions& pool_options,
                                   const ReplayOptions& options, const ReplayRequestCallback& on_request = {});

}  // namespace ziosim

#endif  // ZIOSIM_SIM_WORKLOAD_POOL_REPLAY_H_
