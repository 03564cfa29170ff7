// Reading fio's JSON output (fio 3.x, --output-format=json): one FioRun per
// reporting group of read jobs, with what the fits need -- the access pattern,
// block size, queue depth, job count, and the measured bandwidth, IOPS and
// mean completion latency. Jobs reported separately (no group_reporting) are
// summed per group, as fio's own group summary would.
#ifndef ZIOSIM_SIM_CALIBRATION_FIO_RESULTS_H_
#define ZIOSIM_SIM_CALIBRATION_FIO_RESULTS_H_

#include <cstdint>
#include <string>
#include <vector>

namespace ziosim {

struct FioRun {
  std::string file;  // the JSON file it came from
  std::string job;   // fio's jobname (the group's first)
  bool random = false;
  int64_t block_bytes = 0;
  int iodepth = 1;
  int numjobs = 1;
  std::string ioengine;
  double mb_s = 0;          // 10^6 bytes per second, all jobs of the group
  double iops = 0;
  double clat_mean_us = 0;  // completion latency, mean over all I/Os of the group

  // "randread 4k qd1 nj1 (FILE)", for reports.
  std::string Label() const;
};

// The read groups of one fio JSON file; write-only groups are skipped. Throws
// InputError "FILE: ..." for a file that is not fio JSON, a missing or
// malformed field (named by its JSON path), or a file with no read group.
std::vector<FioRun> ReadFioJson(const std::string& path);

}  // namespace ziosim

#endif  // ZIOSIM_SIM_CALIBRATION_FIO_RESULTS_H_
