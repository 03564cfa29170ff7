// fio job files (fio's HOWTO, "Job file format"): INI sections, `[global]`
// holding defaults for the jobs after it, every other `[name]` one job; lines
// `key=value` or a bare flag (`time_based`), `;` and `#` start comments. Only
// the subset in docs/fio-jobs.md is read; an option outside it is an error
// unless it only shapes fio's own logging (the accepted-and-ignored list),
// so a job never runs silently different from what the file says.
// Sizes are fio's: k/m/g/t are 1024-based (kb_base=1024, fio's default).
#ifndef ZIOSIM_SIM_WORKLOAD_FIO_JOB_H_
#define ZIOSIM_SIM_WORKLOAD_FIO_JOB_H_

#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "sim/core/time.h"

namespace ziosim {

enum class FioRw : uint8_t { kRead, kWrite, kRandRead, kRandWrite, kReadWrite, kRandReadWrite };
enum class FioEngine : uint8_t { kPsync, kSync, kLibaio, kIoUring, kPosixaio };

// fio's spelling: "randread", "rw", "libaio", ...
std::string_view FioRwName(FioRw rw);
std::string_view FioEngineName(FioEngine engine);
inline bool FioRandom(FioRw rw) {
  return rw == FioRw::kRandRead || rw == FioRw::kRandWrite || rw == FioRw::kRandReadWrite;
}
inline bool FioMixed(FioRw rw) { return rw == FioRw::kReadWrite || rw == FioRw::kRandReadWrite; }

using FioOptions = std::vector<std::pair<std::string, std::string>>;

// One job section (fio runs numjobs clones of it). Defaults are fio's.
struct FioJob {
  std::string name;
  std::string file;  // the job file, for messages
  int line = 0;      // line of the [section] header
  FioRw rw = FioRw::kRead;
  int rwmixread = 50;                 // percent of a mixed job's I/Os that are reads
  int64_t bs_bytes = 4096;
  int64_t size_bytes = 0;             // total per job; 0: not given
  double size_pct = 0;                // size=N%: of the device (or of filesize); 0: not given
  int numjobs = 1;
  int iodepth = 1;
  FioEngine ioengine = FioEngine::kPsync;  // fio's default on Linux
  bool direct = false;
  SimTime runtime_ns = 0;             // 0: no limit
  bool time_based = false;
  SimTime ramp_time_ns = 0;
  int64_t offset_bytes = 0;
  int64_t offset_increment_bytes = 0; // clone k starts at offset + k * offset_increment
  std::string filename;               // empty: fio's default, one file per clone and file number
  int nrfiles = 1;
  int64_t filesize_bytes = 0;         // 0: size / nrfiles
  bool randseed_given = false;
  uint64_t randseed = 0;              // replaces the run seed for this job's random streams
  bool group_reporting = false;
  bool stonewall = false;             // wait for every earlier job to finish first; starts a new group
  bool new_group = false;
  FioOptions options;                 // as written in this job's own section, for the JSON "job options"
};

struct FioJobFile {
  std::vector<FioJob> jobs;           // in file order
  FioOptions global_options;          // every [global] option as written
};

// Parses job-file text; `file_name` names it in messages ("FILE:LINE: ...").
// Throws InputError for a syntax error, an unknown option, a bad value, or a file without jobs.
FioJobFile ParseFioJobs(std::string_view text, const std::string& file_name);
// Reads and parses a job file; InputError if it cannot be read.
FioJobFile LoadFioJobFile(const std::string& path);

}  // namespace ziosim

#endif  // ZIOSIM_SIM_WORKLOAD_FIO_JOB_H_
