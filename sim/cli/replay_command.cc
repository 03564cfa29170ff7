// `ziosim replay TRACE --target DRIVE|POOL`: replays a block trace (any format
// sim/trace/trace_reader.h reads) on one simulated drive or on a zvol of a
// pool, open loop at the recorded times, closed loop with N outstanding, or
// DiskSim-style validate, and compares the simulated latencies with the
// measured ones when the trace has them (mean error, demerit; all requests,
// reads, writes, and per traced device with --per-device).
//
// --target is a pool when it is written in zpool syntax with more than one
// word or an NxDRIVE run ("mirror 2xwd-re4-1tb", "2xgeneric-ssd", and
// "1xwd-re4-1tb" for a one-disk pool), as `ziosim fio` reads it; otherwise it
// is one drive.

#include <cmath>
#include <cstdio>
#include <iostream>
#include <limits>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "models/catalog/catalog.h"
#include "sim/cli/commands.h"
#include "sim/core/output_file.h"
#include "sim/workload/disk_bench.h"
#include "sim/cli/settings.h"
#include "sim/core/simulation.h"
#include "sim/core/status.h"
#include "sim/core/units.h"
#include "sim/trace/trace_reader.h"
#include "sim/workload/pool_replay.h"
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
  bool reads_only = false;
  std::string device;
  bool per_device = false;
  std::string policy = "sptf";
  bool json = false;
  std::string per_request_csv;
  // Pool targets only.
  int ashift = 12;
  std::string profile = std::string(kDefaultProfile);
  std::vector<std::string> set;
  std::string volblocksize;
  std::string volsize;
  std::string layout = "sequential";
  std::string primarycache = "all";
  std::string arc_max;
  std::string l2arc;
  uint64_t seed = 1;
  std::vector<const CLI::Option*> pool_only;  // given with a drive target: an error
  const CLI::Option* policy_option = nullptr;
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

// "16K", "3G": the largest binary unit that divides `bytes` exactly.
std::string SizeText(int64_t bytes) {
  static constexpr const char* kUnits[] = {"", "K", "M", "G", "T"};
  int unit = 0;
  while (unit < 4 && bytes >= 1024 && bytes % 1024 == 0) {
    bytes /= 1024;
    ++unit;
  }
  return std::to_string(bytes) + kUnits[unit];
}

// What the output says about the target, drive or pool.
struct TargetInfo {
  std::string name;         // drive name or canonical pool spec
  std::string description;  // the "target" line of the table
  const char* kind = "drive";
};

struct RunInfo {
  const ReplayCliOptions& opt;
  TraceFormat format;
  const TraceReadStats& stats;
  const TargetInfo& target;
  int64_t capacity_bytes = 0;
  int64_t sector_bytes = 0;
  const ReplayOptions& replay;
  const ReplayResult& r;
  const PoolReplayResult* pool = nullptr;  // pool targets only
};

std::string WrapNote(const RunInfo& x) {
  return std::to_string(x.r.wrapped) + " of " + std::to_string(x.r.requests) + " requests (" +
         Fixed(Pct(x.r.wrapped, x.r.requests), 1) + " %) lay past the end of " + x.target.name + " (" +
         Fixed(static_cast<double>(x.capacity_bytes) / 1e9, 1) +
         " GB) and were wrapped modulo its capacity (--wrap): the traced volume is larger than the target, "
         "so seek distances differ from the original's";
}

std::string DevicesNote(const RunInfo& x) {
  return "the trace holds " + std::to_string(x.r.devices_seen) + " devices, all replayed onto " + x.target.name +
         " (--device N replays one, --per-device compares each)";
}

void PrintJson(const RunInfo& x) {
  ReplaySummary summary{x.opt.trace_path, x.format, x.stats, x.target.name, x.target.kind, x.replay, x.r, x.pool};
  std::cout << ReplaySummaryJson(summary).dump(2) << "\n";
}

// One line of the comparison table: requests, measured and simulated mean, mean error, demerit.
void PrintComparisonRow(const std::string& label, const ReplayComparison& c) {
  if (c.requests == 0) return;
  if (c.measured_requests == 0) {
    std::printf("  %-10s %9lld %12s %12s\n", label.c_str(), static_cast<long long>(c.requests), "-",
                Fixed(c.simulated.mean_ms, 4).c_str());
    return;
  }
  std::printf("  %-10s %9lld %12s %12s %+11.1f %% %12s\n", label.c_str(), static_cast<long long>(c.requests),
              Fixed(c.measured.mean_ms, 4).c_str(), Fixed(c.simulated_measured.mean_ms, 4).c_str(),
              c.mean_error_pct, Fixed(c.demerit_ms, 4).c_str());
}

void PrintTable(const RunInfo& x) {
  const ReplayResult& r = x.r;
  const TraceReadStats& s = x.stats;
  std::printf("trace      %s (%s): %lld requests (%lld reads, %lld writes)\n", x.opt.trace_path.c_str(),
              TraceFormatName(x.format), static_cast<long long>(r.requests), static_cast<long long>(r.reads),
              static_cast<long long>(r.writes));
  if (s.skipped > 0 || s.ignored > 0 || s.unmatched > 0) {
    std::printf("           %lld malformed lines skipped, %lld requests without data or of other kinds ignored, "
                "%lld unmatched events\n",
                static_cast<long long>(s.skipped), static_cast<long long>(s.ignored),
                static_cast<long long>(s.unmatched));
  }
  if (r.skipped_writes > 0) {
    std::printf("           %lld writes passed over (--reads-only)\n", static_cast<long long>(r.skipped_writes));
  }
  if (r.other_devices > 0) {
    std::printf("           %lld requests of other devices passed over (--device %s)\n",
                static_cast<long long>(r.other_devices), x.opt.device.c_str());
  }
  std::printf("target     %s\n", x.target.description.c_str());
  std::printf("mode       %s", ReplayModeName(x.replay).c_str());
  if (x.replay.mode == ReplayMode::kOpen) std::printf(" (speed %g)", x.replay.speed);
  std::printf("\n");
  if (r.devices_seen > 1 && x.replay.device < 0) std::printf("note       %s\n", DevicesNote(x).c_str());
  if (r.wrapped > 0) std::printf("note       %s\n", WrapNote(x).c_str());
  if (r.realigned > 0) {
    std::printf("note       %lld requests were widened to whole %lld-byte sectors\n",
                static_cast<long long>(r.realigned), static_cast<long long>(x.sector_bytes));
  }
  std::printf("simulated  %.3f s: %.2f MB/s, %.1f IOPS (at most %lld requests waiting for the target)\n",
              NsToSec(r.end_ns), r.mb_s, r.iops, static_cast<long long>(r.max_waiting));
  if (x.pool != nullptr) {
    std::printf("zvol       ARC hits %.1f %% of demand block reads, %.1f MB read from disks for %.1f MB asked\n",
                x.pool->arc_hit_pct, static_cast<double>(x.pool->disk_bytes_read) / 1e6,
                static_cast<double>(r.bytes) / 1e6);
  }
  std::printf("\n");

  const ReplayComparison& a = r.all;
  if (a.measured_requests == 0) {
    std::printf("  %-6s %12s\n", "ms", "simulated");
    const auto row = [](const char* label, double v) { std::printf("  %-6s %12s\n", label, Fixed(v, 4).c_str()); };
    row("mean", a.simulated.mean_ms);
    row("p50", a.simulated.p50_ms);
    row("p90", a.simulated.p90_ms);
    row("p99", a.simulated.p99_ms);
    std::printf("\nthe trace carries no measured latencies: nothing to compare\n");
  } else {
    std::printf("  %-6s %12s %12s", "ms", "measured", "simulated");
    if (a.measured_requests != a.requests) {
      std::printf("   (over the %lld requests with a measured latency)", static_cast<long long>(a.measured_requests));
    }
    std::printf("\n");
    const auto row = [](const char* label, double m, double v) {
      std::printf("  %-6s %12s %12s\n", label, Fixed(m, 4).c_str(), Fixed(v, 4).c_str());
    };
    row("mean", a.measured.mean_ms, a.simulated_measured.mean_ms);
    row("p50", a.measured.p50_ms, a.simulated_measured.p50_ms);
    row("p90", a.measured.p90_ms, a.simulated_measured.p90_ms);
    row("p99", a.measured.p99_ms, a.simulated_measured.p99_ms);
    std::printf("\nmean error  %+.2f %%\n", a.mean_error_pct);
    std::printf("demerit     %.4f ms (%.2f %% of the measured mean)\n", a.demerit_ms, a.demerit_pct);
  }
  const bool split = r.reads > 0 && r.writes > 0;
  if (split || x.replay.per_device) {
    std::printf("\n  %-10s %9s %12s %12s %13s %12s\n", "", "requests", "measured ms", "sim ms", "mean error",
                "demerit ms");
    PrintComparisonRow("reads", r.read);
    PrintComparisonRow("writes", r.write);
    for (const ReplayDeviceComparison& d : r.devices) {
      PrintComparisonRow("dev " + FormatTraceDevice(x.format, d.device), d.comparison);
    }
  }
  if (!r.exact_quantiles) std::printf("(quantiles from a log histogram, resolution 0.025 %%)\n");
  if (x.pool != nullptr) std::printf("\n%s", FormatDiskTable(DisksToJson(x.pool->disks)).c_str());
  std::printf("wall time   %.4f s\n", r.wall_seconds);
}

std::unique_ptr<AtomicFile> OpenCsv(const ReplayCliOptions& opt, ReplayRequestCallback& on_request) {
  if (opt.per_request_csv.empty()) return nullptr;
  auto csv = std::make_unique<AtomicFile>(opt.per_request_csv);
  WriteCsvHeader(csv->stream());
  AtomicFile* file = csv.get();
  on_request = [file](const ReplayRequestResult& r) { WriteCsvRow(file->stream(), r); };
  return csv;
}

void Report(const RunInfo& info) {
  if (info.stats.skipped > 0) {
    std::cerr << "ziosim: note: skipped " << info.stats.skipped << " malformed line"
              << (info.stats.skipped == 1 ? "" : "s") << " (--skip-bad); the first: " << info.stats.first_skipped
              << "\n";
  }
  if (info.opt.json) {
    if (info.r.wrapped > 0) std::cerr << "ziosim: note: " << WrapNote(info) << "\n";
    if (info.r.devices_seen > 1 && info.replay.device < 0) std::cerr << "ziosim: note: " << DevicesNote(info) << "\n";
    PrintJson(info);
  } else {
    PrintTable(info);
  }
}

void RunOnDrive(const ReplayCliOptions& opt, const ReplayOptions& replay, TraceFormat format) {
  const QueuePolicy policy = ParseQueuePolicy(opt.policy);
  // The trace is opened (and its format told) before the drive is built, so
  // that a wrong file is reported first.
  TraceReaderOptions reader_options;
  reader_options.skip_bad = opt.skip_bad;
  std::unique_ptr<TraceReader> trace = OpenTrace(opt.trace_path, format, reader_options);
  const DriveSpec drive = ResolveDrive(opt.target);
  Simulation sim;
  std::unique_ptr<Device> device = MakeDevice(&sim, drive.name, drive, policy);

  ReplayRequestCallback on_request;
  std::unique_ptr<AtomicFile> csv = OpenCsv(opt, on_request);
  const ReplayResult result = ReplayTrace(*trace, *device, sim, replay, on_request);
  if (csv) csv->Commit();

  TargetInfo target;
  target.name = drive.name;
  target.description = drive.name + " (" + (device->is_rotational() ? "hdd" : "ssd") + ", " +
                       Fixed(static_cast<double>(device->capacity_bytes()) / 1e9, 1) + " GB, queue depth " +
                       std::to_string(device->queue_depth()) + ")";
  Report(RunInfo{opt, trace->format(), trace->stats(), target, device->capacity_bytes(), device->sector_bytes(),
                 replay, result});
}

void RunOnPool(const ReplayCliOptions& opt, const ReplayOptions& replay, TraceFormat format) {
  PoolReplayOptions o;
  o.pool = opt.target;
  o.ashift = opt.ashift;
  o.profile = opt.profile;
  o.settings = ParseSettings(opt.set);
  if (!opt.volblocksize.empty()) o.volblocksize = ParsePositiveSize(opt.volblocksize, "--volblocksize");
  if (!opt.volsize.empty()) o.volsize = ParsePositiveSize(opt.volsize, "--volsize");
  o.layout = opt.layout;
  o.primarycache = opt.primarycache;
  if (!opt.arc_max.empty()) o.arc_max = ParsePositiveSize(opt.arc_max, "--arc-max");
  o.l2arc = opt.l2arc;
  o.seed = opt.seed;
  TraceReaderOptions reader_options;
  reader_options.skip_bad = opt.skip_bad;

  ReplayRequestCallback on_request;
  std::unique_ptr<AtomicFile> csv = OpenCsv(opt, on_request);
  const PoolReplayResult result = ReplayTraceOnPool(opt.trace_path, format, reader_options, o, replay, on_request);
  if (csv) csv->Commit();

  TargetInfo target;
  target.kind = "pool";
  target.name = result.pool;
  target.description = "pool \"" + result.pool + "\" (profile " + opt.profile + "): a zvol of " +
                       Fixed(static_cast<double>(result.volsize) / 1e9, 2) + " GB, volblocksize " + SizeText(result.volblocksize) +
                       ", layout " + opt.layout + ", primarycache " + opt.primarycache;
  Report(RunInfo{opt, result.format, result.trace_stats, target, result.volsize, 512, replay, result.replay,
                 &result});
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
  replay.reads_only = opt.reads_only;
  replay.per_device = opt.per_device;
  if (!opt.device.empty()) replay.device = ParseTraceDevice(opt.device);
  if (opt.limit < 0) throw InputError("--limit: must not be negative (got " + std::to_string(opt.limit) + ")");
  const TraceFormat format = ParseTraceFormat(opt.format);

  if (IsPoolTarget(opt.target)) {
    if (opt.policy_option->count() > 0) {
      throw InputError("--policy: only applies to a drive target (a pool's disks reorder as the pool model says)");
    }
    RunOnPool(opt, replay, format);
    return;
  }
  for (const CLI::Option* o : opt.pool_only) {
    if (o->count() > 0) {
      throw InputError(o->get_name() + ": applies to a pool target, and --target " + opt.target +
                       " is a drive (write 1x" + opt.target + " for a one-disk pool)");
    }
  }
  RunOnDrive(opt, replay, format);
}

}  // namespace

void AddReplayCommand(CLI::App& app) {
  auto opt = std::make_shared<ReplayCliOptions>();
  CLI::App* cmd = app.add_subcommand(
      "replay",
      "Replay a block trace (DiskSim, blkparse, fio, MSR, SPC, tracefs, CloudPhysics) on one simulated drive "
      "or a zvol of a pool, and compare with the latencies the trace measured");
  cmd->add_option("trace", opt->trace_path, "Trace file (plain or gzip)")->required();
  cmd->add_option("--target", opt->target,
                  "A drive (catalog name, a .toml drive file, or disksim:FILE.parv), or a pool in zpool syntax "
                  "(\"mirror 2xwd-re4-1tb\", 1xDRIVE for one disk): the trace is then replayed on a zvol")
      ->required();
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
                "Wrap requests beyond the target's capacity modulo the capacity (otherwise they are an error)");
  cmd->add_flag("--reads-only", opt->reads_only, "Pass over the trace's writes (counted) and replay its reads");
  cmd->add_option("--device", opt->device,
                  "Replay only this traced device (MSR DiskNumber, blkparse MAJOR,MINOR, DiskSim devno, SPC ASU)");
  cmd->add_flag("--per-device", opt->per_device, "Also compare latencies per traced device");
  opt->policy_option = cmd->add_option("--policy", opt->policy, "Drive target: HDD queue policy, sptf (NCQ "
                                                                "reordering) or fifo")
                           ->capture_default_str();
  cmd->add_flag("--json", opt->json, "Print the results as one JSON object");
  cmd->add_option("--per-request", opt->per_request_csv,
                  "Write one CSV row per request (arrival, issue, completion, simulated and measured latency)");
  opt->pool_only = {
      cmd->add_option("--ashift", opt->ashift, "Pool: sector shift (9 or 12)")->capture_default_str(),
      cmd->add_option("--profile", opt->profile, "Pool: era profile (see `ziosim profiles`)")->capture_default_str(),
      cmd->add_option("--set", opt->set, "Pool: tunable NAME=VALUE (repeatable)"),
      cmd->add_option("--volblocksize", opt->volblocksize,
                      "Pool: the zvol's block size (default: the era's, 16K from OpenZFS 2.2, 8K before)"),
      cmd->add_option("--volsize", opt->volsize, "Pool: the zvol's size (default: what the trace reaches)"),
      cmd->add_option("--layout", opt->layout,
                      "Pool: how the zvol was written: sequential, writers:N, shuffle:K, fragmented:PCT, sendrecv")
          ->capture_default_str(),
      cmd->add_option("--primarycache", opt->primarycache, "Pool: all, metadata or none")->capture_default_str(),
      cmd->add_option("--arc-max", opt->arc_max, "Pool: ARC size limit (K/M/G suffixes; default zfs_arc_max)"),
      cmd->add_option("--l2arc", opt->l2arc, "Pool: cache device drive (L2ARC)"),
      cmd->add_option("--seed", opt->seed, "Pool: random seed of the layout")->capture_default_str(),
  };
  cmd->callback([opt, speed] {
    opt->speed_given = speed->count() > 0;
    RunReplay(*opt);
  });
}

}  // namespace ziosim::cli
