// `ziosim replay TRACE --target DRIVE`: replays a block trace (any format
// sim/trace/trace_reader.h reads) on one simulated drive, open loop at the
// recorded times, closed loop with N outstanding, or DiskSim-style validate,
// and compares the simulated latencies with the measured ones when the trace
// has them (mean error, demerit).

#include <cerrno>
#include <cmath>
#include <cstdio>
#include <iostream>
#include <limits>
#include <memory>
#include <string>

#include <nlohmann/json.hpp>

#include "models/catalog/catalog.h"
#include "sim/cli/commands.h"
#include "sim/cli/output_file.h"
#include "sim/core/simulation.h"
#include "sim/core/status.h"
#include "sim/trace/trace_reader.h"
#include "sim/workload/replay.h"

namespace ziosim::cli {
namespace {

struct ReplayCliOptions {
  std::string trace_path;
  std::string target;
  std::string mode = "open";
  double speed = 1.0;
  bool speed_given = false;
  std::string format = "auto";
  bool skip_bad = false;
  int64_t limit = 0;
  bool wrap = false;
  std::string policy = "sptf";
  bool json = false;
  std::string per_request_csv;
};

void WriteCsvHeader(std::ostream& out) {
  out << "i,line,op,trace_offset,offset,size,arrival_ms,issue_ms,done_ms,sim_ms,measured_ms\n";
}

void WriteCsvRow(std::ostream& out, const ReplayRequestResult& r) {
  out << r.index << ',' << r.record->line << ',' << (r.record->op == IoOp::kWrite ? 'W' : 'R') << ','
      << r.record->offset_bytes << ',' << r.offset_bytes << ',' << r.size_bytes << ',';
  PutNumber(out, NsToMs(r.arrival_ns));
  out << ',';
  PutNumber(out, NsToMs(r.issued_ns));
  out << ',';
  PutNumber(out, NsToMs(r.done_ns));
  out << ',';
  PutNumber(out, NsToMs(r.done_ns - r.arrival_ns));
  out << ',';
  if (r.record->measured_latency_ns >= 0) PutNumber(out, NsToMs(r.record->measured_latency_ns));
  out << '\n';
}

std::string Fixed(double v, int decimals) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*f", decimals, v);
  return buf;
}

double Pct(int64_t part, int64_t whole) {
  return whole > 0 ? 100.0 * static_cast<double>(part) / static_cast<double>(whole) : 0.0;
}

// Numbers that may be undefined (no measured latencies) are null in JSON.
nlohmann::ordered_json NumberOrNull(double v) {
  return std::isfinite(v) ? nlohmann::ordered_json(v) : nlohmann::ordered_json(nullptr);
}

struct RunInfo {
  const ReplayCliOptions& opt;
  const TraceReader& trace;
  const DriveSpec& drive;
  const Device& device;
  const ReplayOptions& replay;
  const ReplayResult& r;
};

std::string WrapNote(const RunInfo& x) {
  return std::to_string(x.r.wrapped) + " of " + std::to_string(x.r.requests) + " requests (" +
         Fixed(Pct(x.r.wrapped, x.r.requests), 1) + " %) lay past the end of " + x.drive.name + " (" +
         Fixed(static_cast<double>(x.device.capacity_bytes()) / 1e9, 1) +
         " GB) and were wrapped modulo its capacity (--wrap): the traced volume is larger than the drive, "
         "so seek distances differ from the original's";
}

void PrintJson(const RunInfo& x) {
  const ReplayResult& r = x.r;
  const bool measured = r.measured_requests > 0;
  const double none = std::numeric_limits<double>::quiet_NaN();
  nlohmann::ordered_json j;
  j["trace"] = x.opt.trace_path;
  j["format"] = TraceFormatName(x.trace.format());
  j["target"] = x.drive.name;
  j["mode"] = ReplayModeName(x.replay);
  j["speed"] = x.replay.speed;
  j["requests"] = r.requests;
  j["reads"] = r.reads;
  j["writes"] = r.writes;
  j["bytes"] = r.bytes;
  j["elapsed_s"] = NsToSec(r.end_ns);
  j["mb_s"] = r.mb_s;
  j["iops"] = r.iops;
  j["sim_mean_ms"] = r.simulated.mean_ms;
  j["sim_p50_ms"] = r.simulated.p50_ms;
  j["sim_p90_ms"] = r.simulated.p90_ms;
  j["sim_p99_ms"] = r.simulated.p99_ms;
  j["measured_requests"] = r.measured_requests;
  j["measured_mean_ms"] = NumberOrNull(measured ? r.measured.mean_ms : none);
  j["measured_p50_ms"] = NumberOrNull(measured ? r.measured.p50_ms : none);
  j["measured_p90_ms"] = NumberOrNull(measured ? r.measured.p90_ms : none);
  j["measured_p99_ms"] = NumberOrNull(measured ? r.measured.p99_ms : none);
  j["sim_mean_of_measured_ms"] = NumberOrNull(measured ? r.simulated_measured.mean_ms : none);
  j["demerit_ms"] = NumberOrNull(r.demerit_ms);
  j["demerit_pct"] = NumberOrNull(r.demerit_pct);
  j["mean_error_pct"] = NumberOrNull(r.mean_error_pct);
  j["skipped"] = x.trace.stats().skipped;
  j["ignored"] = x.trace.stats().ignored;
  j["unmatched"] = x.trace.stats().unmatched;
  j["wrapped"] = r.wrapped;
  j["realigned"] = r.realigned;
  j["max_waiting"] = r.max_waiting;
  j["exact_quantiles"] = r.exact_quantiles;
  j["wall_seconds"] = r.wall_seconds;
  std::cout << j.dump(2) << "\n";
}

void PrintTable(const RunInfo& x) {
  const ReplayResult& r = x.r;
  const TraceReadStats& s = x.trace.stats();
  std::printf("trace      %s (%s): %lld requests (%lld reads, %lld writes)\n", x.opt.trace_path.c_str(),
              TraceFormatName(x.trace.format()), static_cast<long long>(r.requests),
              static_cast<long long>(r.reads), static_cast<long long>(r.writes));
  if (s.skipped > 0 || s.ignored > 0 || s.unmatched > 0) {
    std::printf("           %lld malformed lines skipped, %lld requests without data or of other kinds ignored, "
                "%lld unmatched events\n",
                static_cast<long long>(s.skipped), static_cast<long long>(s.ignored),
                static_cast<long long>(s.unmatched));
  }
  std::printf("target     %s (%s, %.1f GB, queue depth %d)\n", x.drive.name.c_str(),
              x.device.is_rotational() ? "hdd" : "ssd", static_cast<double>(x.device.capacity_bytes()) / 1e9,
              x.device.queue_depth());
  std::printf("mode       %s", ReplayModeName(x.replay).c_str());
  if (x.replay.mode == ReplayMode::kOpen) std::printf(" (speed %g)", x.replay.speed);
  std::printf("\n");
  if (r.wrapped > 0) std::printf("note       %s\n", WrapNote(x).c_str());
  if (r.realigned > 0) {
    std::printf("note       %lld requests were widened to whole %lld-byte sectors\n",
                static_cast<long long>(r.realigned), static_cast<long long>(x.device.sector_bytes()));
  }
  std::printf("simulated  %.3f s: %.2f MB/s, %.1f IOPS (at most %lld requests waiting for the drive)\n\n",
              NsToSec(r.end_ns), r.mb_s, r.iops, static_cast<long long>(r.max_waiting));

  if (r.measured_requests == 0) {
    std::printf("  %-6s %12s\n", "ms", "simulated");
    const auto row = [](const char* label, double v) { std::printf("  %-6s %12s\n", label, Fixed(v, 4).c_str()); };
    row("mean", r.simulated.mean_ms);
    row("p50", r.simulated.p50_ms);
    row("p90", r.simulated.p90_ms);
    row("p99", r.simulated.p99_ms);
    std::printf("\nthe trace carries no measured latencies: nothing to compare\n");
  } else {
    std::printf("  %-6s %12s %12s", "ms", "measured", "simulated");
    if (r.measured_requests != r.requests) {
      std::printf("   (over the %lld requests with a measured latency)", static_cast<long long>(r.measured_requests));
    }
    std::printf("\n");
    const auto row = [](const char* label, double m, double v) {
      std::printf("  %-6s %12s %12s\n", label, Fixed(m, 4).c_str(), Fixed(v, 4).c_str());
    };
    row("mean", r.measured.mean_ms, r.simulated_measured.mean_ms);
    row("p50", r.measured.p50_ms, r.simulated_measured.p50_ms);
    row("p90", r.measured.p90_ms, r.simulated_measured.p90_ms);
    row("p99", r.measured.p99_ms, r.simulated_measured.p99_ms);
    std::printf("\nmean error  %+.2f %%\n", r.mean_error_pct);
    std::printf("demerit     %.4f ms (%.2f %% of the measured mean)\n", r.demerit_ms, r.demerit_pct);
  }
  if (!r.exact_quantiles) std::printf("(quantiles from a log histogram, resolution 0.025 %%)\n");
  std::printf("wall time   %.4f s\n", r.wall_seconds);
}

void RunReplay(const ReplayCliOptions& opt) {
  ReplayOptions replay;
  ParseReplayMode(opt.mode, replay);
  if (opt.speed_given && replay.mode != ReplayMode::kOpen) {
    throw InputError("--speed: only applies to --mode open (the other modes ignore the recorded times)");
  }
  replay.speed = opt.speed;
  replay.limit = opt.limit;
  replay.wrap = opt.wrap;
  if (opt.limit < 0) throw InputError("--limit: must not be negative (got " + std::to_string(opt.limit) + ")");
  const QueuePolicy policy = ParseQueuePolicy(opt.policy);

  // The trace is opened (and its format told) before the drive is built, so
  // that a wrong file is reported first.
  TraceReaderOptions reader_options;
  reader_options.skip_bad = opt.skip_bad;
  std::unique_ptr<TraceReader> trace = OpenTrace(opt.trace_path, ParseTraceFormat(opt.format), reader_options);
  const DriveSpec drive = ResolveDrive(opt.target);
  Simulation sim;
  std::unique_ptr<Device> device = MakeDevice(&sim, drive.name, drive, policy);

  std::unique_ptr<AtomicFile> csv;
  ReplayRequestCallback on_request;
  if (!opt.per_request_csv.empty()) {
    csv = std::make_unique<AtomicFile>(opt.per_request_csv);
    WriteCsvHeader(csv->stream());
    on_request = [&csv](const ReplayRequestResult& r) { WriteCsvRow(csv->stream(), r); };
  }
  const ReplayResult result = ReplayTrace(*trace, *device, sim, replay, on_request);
  if (csv) csv->Commit();

  const RunInfo info{opt, *trace, drive, *device, replay, result};
  const TraceReadStats& stats = trace->stats();
  if (stats.skipped > 0) {
    std::cerr << "ziosim: note: skipped " << stats.skipped << " malformed line" << (stats.skipped == 1 ? "" : "s")
              << " (--skip-bad); the first: " << stats.first_skipped << "\n";
  }
  if (opt.json) {
    if (result.wrapped > 0) std::cerr << "ziosim: note: " << WrapNote(info) << "\n";
    PrintJson(info);
  } else {
    PrintTable(info);
  }
}

}  // namespace

void AddReplayCommand(CLI::App& app) {
  auto opt = std::make_shared<ReplayCliOptions>();
  CLI::App* cmd = app.add_subcommand(
      "replay",
      "Replay a block trace (DiskSim, blkparse, fio, MSR, SPC, tracefs, CloudPhysics) on one simulated drive "
      "and compare with the latencies the trace measured");
  cmd->add_option("trace", opt->trace_path, "Trace file (plain or gzip)")->required();
  cmd->add_option("--target", opt->target, "Catalog name, a .toml drive file, or disksim:FILE.parv")->required();
  cmd->add_option("--mode", opt->mode,
                  "open (recorded arrival times), closed:N (N outstanding), or validate (one outstanding, "
                  "the trace's idle time between completion and next issue)")
      ->capture_default_str();
  CLI::Option* speed = cmd->add_option("--speed", opt->speed, "Open mode: replay this many times faster")
                           ->capture_default_str();
  cmd->add_option("--format", opt->format, "Trace format: " + TraceFormatList())->capture_default_str();
  cmd->add_flag("--skip-bad", opt->skip_bad, "Skip malformed lines (and count them) instead of stopping");
  cmd->add_option("--limit", opt->limit, "Replay at most this many requests (0: all)")->capture_default_str();
  cmd->add_flag("--wrap", opt->wrap,
                "Wrap requests beyond the drive's capacity modulo the capacity (otherwise they are an error)");
  cmd->add_option("--policy", opt->policy, "HDD queue policy: sptf (NCQ reordering) or fifo")
      ->capture_default_str();
  cmd->add_flag("--json", opt->json, "Print the results as one JSON object");
  cmd->add_option("--per-request", opt->per_request_csv,
                  "Write one CSV row per request (arrival, issue, completion, simulated and measured latency)");
  cmd->callback([opt, speed] {
    opt->speed_given = speed->count() > 0;
    RunReplay(*opt);
  });
}

}  // namespace ziosim::cli
