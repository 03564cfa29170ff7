// `ziosim validate-disksim PARV TRACE`: replays one of DiskSim's validation
// traces through the HDD model built from the drive's DiskSim specs and
// compares the simulated service times with those measured on the real drive.

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <iostream>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "models/device/hdd.h"
#include "models/disksim/disksim_import.h"
#include "sim/cli/commands.h"
#include "sim/core/output_file.h"
#include "sim/core/simulation.h"
#include "sim/core/status.h"
#include "sim/trace/disksim_validate_trace.h"
#include "sim/workload/overhead_calibration.h"
#include "sim/workload/validate_replay.h"

namespace ziosim::cli {
namespace {

struct ValidateOptions {
  std::string parv_path;
  std::string trace_path;
  std::string per_request_csv;
  bool json = false;
  bool verbose = false;
  bool calibrate = false;
};

// Shown on the summary line; the rest only with --verbose.
constexpr size_t kIgnoredKeysShown = 3;

const char* CacheName(HddBreakdown::CacheOutcome c) {
  switch (c) {
    case HddBreakdown::CacheOutcome::kMiss: return "miss";
    case HddBreakdown::CacheOutcome::kWholeHit: return "whole_hit";
    case HddBreakdown::CacheOutcome::kPartialHit: return "partial_hit";
    case HddBreakdown::CacheOutcome::kWriteBuffered: return "write_buffered";
  }
  return "?";
}

void WriteCsvHeader(std::ostream& out) {
  out << "i,op,lbn,blocks,measured_ms,sim_ms,cache,seek_cyls,seek_ms,latency_ms,xfer_ms,cyl,head,sector\n";
}

void WriteCsvRow(std::ostream& out, const ValidateRequestResult& r) {
  out << r.index + 1 << ',' << (r.record->op == IoOp::kWrite ? 'W' : 'R') << ',' << r.record->lbn << ','
      << r.record->blocks << ',';
  PutNumber(out, r.record->measured_ms);
  out << ',';
  PutNumber(out, r.simulated_ms);
  if (r.breakdown == nullptr) {
    out << ",,,,,,,,\n";
    return;
  }
  const HddBreakdown& b = *r.breakdown;
  out << ',' << CacheName(b.cache) << ',' << b.seek_cylinders << ',';
  PutNumber(out, NsToMs(b.seek_ns));
  out << ',';
  PutNumber(out, NsToMs(b.latency_ns));
  out << ',';
  PutNumber(out, NsToMs(b.transfer_ns));
  out << ',' << b.cylinder << ',' << b.head << ',' << b.sector << '\n';
}

// The importer names each key "FILE:LINE: KEY"; the summary line shows the key alone.
std::string_view KeyName(std::string_view entry) {
  const size_t sep = entry.rfind(": ");
  return sep == std::string_view::npos ? entry : entry.substr(sep + 2);
}

void ReportIgnoredKeys(const std::vector<std::string>& ignored, bool verbose) {
  if (ignored.empty()) return;
  std::cerr << ignored.size() << " spec keys ignored (not modelled):";
  if (verbose) {
    for (const std::string& entry : ignored) std::cerr << "\n  " << entry;
    std::cerr << "\n";
    return;
  }
  const size_t shown = std::min(ignored.size(), kIgnoredKeysShown);
  for (size_t i = 0; i < shown; ++i) std::cerr << (i > 0 ? "; " : " ") << KeyName(ignored[i]);
  if (shown < ignored.size()) std::cerr << "; ... (--verbose lists all)";
  std::cerr << "\n";
}

double RequestsPerSecond(const ValidateReplayResult& r) {
  return r.wall_seconds > 0 ? static_cast<double>(r.requests) / r.wall_seconds : 0.0;
}

void PrintJson(const std::string& drive, const ValidateOptions& opt, size_t ignored_keys,
               const ValidateReplayResult& r) {
  const nlohmann::ordered_json j = ValidateSummaryJson(r, drive, opt.parv_path, opt.trace_path, ignored_keys);
  std::cout << j.dump(2) << "\n";
}

std::string Fixed(double v, int decimals) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*f", decimals, v);
  return buf;
}

void PrintTable(const std::string& drive, const ValidateOptions& opt, const ValidateReplayResult& r) {
  auto row = [](const char* label, double measured, double simulated) {
    std::printf("  %-10s %12s %12s\n", label, Fixed(measured, 4).c_str(), Fixed(simulated, 4).c_str());
  };
  std::printf("drive    %s (%s)\n", drive.c_str(), opt.parv_path.c_str());
  std::printf("trace    %s: %lld requests (%lld reads, %lld writes)\n\n", opt.trace_path.c_str(),
              static_cast<long long>(r.requests), static_cast<long long>(r.reads),
              static_cast<long long>(r.writes));
  std::printf("  %-10s %12s %12s\n", "ms", "measured", "simulated");
  row("mean", r.measured.mean_ms, r.simulated.mean_ms);
  row("p50", r.measured.p50_ms, r.simulated.p50_ms);
  row("p90", r.measured.p90_ms, r.simulated.p90_ms);
  row("p99", r.measured.p99_ms, r.simulated.p99_ms);
  std::printf("\nmean error  %+.2f %%\n", r.mean_error_pct);
  std::printf("demerit     %.4f ms (%.2f %% of the measured mean)\n", r.demerit_ms, r.demerit_pct);
  std::printf("wall time   %.4f s (%.0f requests/s)\n", r.wall_seconds, RequestsPerSecond(r));
}

void PrintCalibration(const OverheadCalibration& c, bool json) {
  const HeldOutFigures& s = c.spec_held_out;
  const HeldOutFigures& k = c.calibrated_held_out;
  if (json) {
    const nlohmann::ordered_json j = {
        {"fitted_requests", c.fit.fitted_requests},
        {"offsets_ms", {{"read_hit", c.fit.read_hit_ms}, {"read_miss", c.fit.read_miss_ms}, {"write", c.fit.write_ms}}},
        {"held_out", {{"spec", {{"mean_error_pct", s.mean_error_pct}, {"demerit_ms", s.demerit_ms}}},
                      {"calibrated", {{"mean_error_pct", k.mean_error_pct}, {"demerit_ms", k.demerit_ms}}}}},
        {"calibrated_all", {{"mean_error_pct", c.calibrated.mean_error_pct}, {"demerit_ms", c.calibrated.demerit_ms}}}};
    std::cout << j.dump(2) << "\n";
    return;
  }
  std::printf("overheads fitted on requests 1..%lld: read hit %+.3f ms, read miss %+.3f ms, write %+.3f ms\n",
              static_cast<long long>(c.fit.fitted_requests), c.fit.read_hit_ms, c.fit.read_miss_ms, c.fit.write_ms);
  std::printf("held-out second half   spec: mean error %+.2f %%, demerit %.4f ms\n", s.mean_error_pct, s.demerit_ms);
  std::printf("                 calibrated: mean error %+.2f %%, demerit %.4f ms\n", k.mean_error_pct, k.demerit_ms);
}

void RunValidate(const ValidateOptions& opt) {
  // The trace streams through the replay (memory stays flat in its length);
  // only --calibrate-overheads, which replays it twice more, holds it all.
  DisksimValidateTrace trace(opt.trace_path);
  std::vector<ValidateRecord> records;
  if (opt.calibrate) records = ReadValidateRecords(trace);

  DisksimImport drive = ImportDisksimDrive(opt.parv_path, DisksimHost::kInTimes);
  const std::string name = drive.params.name;
  Simulation sim;
  HddDevice dev(&sim, name, std::move(drive.params), QueuePolicy::kFifo);

  std::unique_ptr<AtomicFile> csv;
  ValidateRequestCallback on_request;
  if (!opt.per_request_csv.empty()) {
    csv = std::make_unique<AtomicFile>(opt.per_request_csv);
    WriteCsvHeader(csv->stream());
    on_request = [&csv](const ValidateRequestResult& r) { WriteCsvRow(csv->stream(), r); };
  }
  if (opt.calibrate) CheckRecordsFit(records, dev, opt.trace_path);
  const ValidateReplayResult result = opt.calibrate ? ReplayValidateRecords(dev, sim, records, on_request)
                                                    : ReplayValidate(dev, sim, trace, on_request);
  if (csv) csv->Commit();
  // Reported once the trace has been read, so that a malformed trace is
  // reported alone, not after a page of import diagnostics.
  ReportIgnoredKeys(drive.ignored, opt.verbose);
  if (drive.disks.size() > 1) {
    std::cerr << "disk " << drive.disk << " of " << DescribeDisks(drive.disks) << " (PARV#NAME reads another)\n";
  }

  if (opt.calibrate) {
    PrintCalibration(CalibrateOverheads(dev.params(), records), opt.json);
    return;
  }
  if (opt.json) {
    PrintJson(name, opt, drive.ignored.size(), result);
  } else {
    PrintTable(name, opt, result);
  }
}

}  // namespace

void AddValidateDisksimCommand(CLI::App& app) {
  auto opt = std::make_shared<ValidateOptions>();
  CLI::App* cmd = app.add_subcommand(
      "validate-disksim",
      "Replay a DiskSim validation trace through the HDD model built from the drive's DiskSim specs "
      "and compare with the service times measured on the real drive (mean error, demerit)");
  cmd->add_option("parv", opt->parv_path,
                  "DiskSim parameter file (.parv) naming the drive; FILE.parv#NAME for its disk NAME")
      ->required();
  cmd->add_option("trace", opt->trace_path, "DiskSim validate trace (plain or gzip)")->required();
  cmd->add_flag("--json", opt->json, "Print the results as one JSON object");
  cmd->add_option("--per-request", opt->per_request_csv,
                  "Write one CSV row per request (times, cache outcome, seek, latency, transfer, location)");
  cmd->add_flag("-v,--verbose", opt->verbose, "List every spec key the model ignores");
  cmd->add_flag("--calibrate-overheads", opt->calibrate,
                "Fit the command overheads on the first half of the trace; report both models on the second");
  cmd->callback([opt] { RunValidate(*opt); });
}

}  // namespace ziosim::cli
