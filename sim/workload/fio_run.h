// Runs fio jobs (fio_job.h) on a simulated raw drive or on a file system on a
// simulated pool, the way fio would run them there: numjobs clones of each
// job, each keeping as many I/Os in flight as its ioengine really achieves on
// that target (see EffectiveIodepth and docs/fio-jobs.md), ending after `size`
// bytes or, with time_based, at runtime. Completion latencies and bytes are
// counted per clone after ramp_time, as fio counts them.
//
// This is the entry point other tools use (ziosim calibrate simulates the
// calibration kit's fio jobs with it); keep it stable.
#ifndef ZIOSIM_SIM_WORKLOAD_FIO_RUN_H_
#define ZIOSIM_SIM_WORKLOAD_FIO_RUN_H_

#include <cstdint>
#include <string>
#include <vector>

#include "sim/core/time.h"
#include "sim/workload/fio_job.h"
#include "sim/workload/fio_latency.h"
#include "sim/workload/readers.h"

namespace ziosim {

struct FioTarget {
  // A raw drive (catalog name, .toml drive file or disksim:FILE.parv), as fio on /dev/sdX.
  // Empty: the jobs run on files of the pool below.
  std::string drive;
  // The pool and dataset when `drive` is empty. Of ReadersOptions only the pool and
  // dataset fields are used (pool, ashift, profile, settings, recordsize, compression,
  // layout, primarycache, arc_max, l2arc); the readers' workload fields are not.
  ReadersOptions pool;
};

// `--target TEXT`: a single word naming a drive is the raw drive; anything else
// (several words, a vdev keyword, NxDRIVE such as 1xwd-re4-1tb) is a pool spec.
FioTarget FioTargetFromText(const std::string& text);

// I/Os one clone of `job` keeps in flight on the target (see docs/fio-jobs.md).
// When that is less than the job's iodepth, `why` (if given) says why.
int EffectiveIodepth(const FioJob& job, bool on_pool, std::string* why = nullptr);

// One direction of one clone (or of a merged group).
struct FioDirection {
  int64_t io_bytes = 0;
  int64_t total_ios = 0;
  FioLatency clat;  // submission to completion, ns
};

struct FioCloneResult {
  size_t job = 0;          // index into the job list
  int clone = 0;           // 0 .. numjobs-1
  int groupid = 0;         // fio's reporting group
  int effective_iodepth = 1;
  SimTime runtime_ns = 0;  // measured period: after ramp_time until the clone finished
  FioDirection read, write;
};

// What fio's disk_util shows for one device.
struct FioDiskUtil {
  std::string name;        // the drive, or d0, d1, ... in pool order
  uint64_t read_ios = 0;
  uint64_t write_ios = 0;
  double util_pct = 0;     // share of the whole run with at least one command in the device
};

struct FioResult {
  std::vector<FioCloneResult> clones;  // job by job, clone by clone
  std::vector<FioDiskUtil> disks;
  SimTime elapsed_ns = 0;              // whole run, ramp and stonewalled phases included
  std::vector<std::string> notes;      // e.g. an iodepth the engine cannot use on this target
};

// Simulates `jobs` on `target`; the same jobs, target and seed give the same result.
// Throws InputError naming the job file, the job's line and the job for a job that
// cannot run there (a region beyond the drive, a misaligned bs, writes on a pool, ...).
FioResult RunFioJobs(const std::vector<FioJob>& jobs, const FioTarget& target, uint64_t seed);

}  // namespace ziosim

#endif  // ZIOSIM_SIM_WORKLOAD_FIO_RUN_H_
