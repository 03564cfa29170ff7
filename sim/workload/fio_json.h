// fio's reports of a simulated run: the `--output-format=json` document of
// fio 3.x (so tools that read fio's JSON read ours: jobs[].read.bw_bytes,
// iops, clat_ns.percentile, disk_util[].util, ...) and a short text summary.
// What the simulator does not model is reported as fio reports "nothing":
// slat_ns has N = 0 (submission cost is not simulated, so lat_ns = clat_ns),
// per-interval bandwidth samples are absent, and the timestamps are 0 so
// that the same run prints the same bytes.
#ifndef ZIOSIM_SIM_WORKLOAD_FIO_JSON_H_
#define ZIOSIM_SIM_WORKLOAD_FIO_JSON_H_

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "sim/workload/fio_job.h"
#include "sim/workload/fio_run.h"

namespace ziosim {

// One entry of fio's jobs[]: a clone, or with group_reporting a whole group merged
// (bytes and I/Os summed, latencies pooled, runtime the longest member's).
struct FioReport {
  std::string jobname;
  int groupid = 0;
  const FioJob* job = nullptr;  // the (first) job of the entry
  int clones = 1;
  int effective_iodepth = 1;
  SimTime runtime_ns = 0;
  FioDirection read, write;
};

// `jobs` must be the list the result was run with.
std::vector<FioReport> FioReports(const std::vector<FioJob>& jobs, const FioResult& result);

// Bytes per second and I/Os per second of one direction over `runtime_ns`; 0 for an empty run.
double FioBytesPerSec(const FioDirection& d, SimTime runtime_ns);
double FioIops(const FioDirection& d, SimTime runtime_ns);

// jobs[].ziosim adds what fio's JSON lacks: the job as ziosim parsed it (rw, bs_bytes,
// ioengine, iodepth), the clones and I/Os really in flight, and the exact runtime_ns.
nlohmann::ordered_json FioJson(const FioJobFile& file, const FioResult& result);
// fio's "normal" output in short, from FioJson's `report`: per entry bandwidth, IOPS and
// clat mean/p50/p99, then disk util.
std::string FioNormalText(const nlohmann::ordered_json& report);
// The report as `--output-format` `format` (json or normal) prints it.
std::string FioReportText(const nlohmann::ordered_json& report, const std::string& format);

}  // namespace ziosim

#endif  // ZIOSIM_SIM_WORKLOAD_FIO_JSON_H_
