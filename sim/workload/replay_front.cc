// `replay`: its options, declared once, and its result, one JSON value: the
// run's identification (the trace, the target, the pacing), the one run's
// figures (the comparison of all requests at the top level, "read", "write"
// and with per_device "devices" as objects of the same keys; null where
// nothing was measured), the notes, and with per_request the requests' rows.
//
// --target is a pool when it is written in zpool syntax with more than one
// word or an NxDRIVE run ("mirror 2xwd-re4-1tb", "1xwd-re4-1tb" for a one-disk
// pool; IsPoolSpecText): the trace is then replayed on a zvol (pool_replay.h);
// otherwise on one drive (replay.h). A file-level trace (strace, DTrace, fio
// iolog) replays on files of the pool's dataset instead of a zvol.
//
// --readers N,M,...: one run per count, each with that many instances of the
// workload at once (each on its own copy of the data, or one copy with
// --same-data), as `readers` sweeps dd readers: "runs" holds one entry per
// count, with the instances' requests taken together at its top level and
// per instance in lists (per_instance_*).
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <memory>
#include <numeric>
#include <optional>
#include <string>
#include <vector>

#include "models/catalog/catalog.h"
#include "sim/core/output_file.h"
#include "sim/core/simulation.h"
#include "sim/core/text.h"
#include "sim/core/units.h"
#include "sim/trace/trace_reader.h"
#include "sim/workload/disk_bench.h"
#include "sim/workload/option_groups.h"
#include "sim/workload/placement_json.h"
#include "sim/workload/pool_replay.h"
#include "sim/workload/replay.h"
#include "sim/workload/workload_front.h"
#include "sim/zfs/pool_report.h"
#include "sim/zfs/pool_spec.h"

namespace ziosim {
namespace replay_front {

struct ReplayFrontOptions : PoolReplayOptions, ReplayOptions {
  std::vector<int> readers = {1};
  std::string files_under;
  std::string trace;
  std::string target;
  TraceFormat format = TraceFormat::kAuto;
  bool skip_bad = false;
  bool speed_given = false;           // --speed: open mode only
  std::optional<QueuePolicy> policy;  // given: a drive target only
  bool per_request_rows = false;      // the requests' rows in the result (Python's per_request=True)
  std::string per_request_csv;        // or in this CSV file
  std::vector<std::string> pool_options_given;  // PoolOnly's record, for a drive target
};

using O = ReplayFrontOptions;

// A bad speed, as the replay itself words it (replay.cc): NaN and text that is no number included.
double SpeedValue(const Json& v, const std::string& label) {
  try {
    return RealValue(v, label);
  } catch (const InputTypeError&) {
    throw;
  } catch (const InputError&) {
    throw InputError(label + ": must be a positive number (got " +
                     Printable(v.is_string() ? v.get<std::string>() : v.dump()) + ")");
  }
}

std::vector<Option<O>> PacingOptions() {
  return {
      WorkloadOption<O>({.name = "mode",
                         .kind = OptionKind::kText,
                         .doc = "open (recorded arrival times), closed:N (N outstanding), or validate (one "
                                "outstanding, the trace's idle time between completion and next issue)",
                         .fallback = "open"},
                        [](O& o, const Json& v, const std::string& label) {
                          ParseReplayMode(TextValue(v, label), o);  // names --mode
                        }),
      WorkloadOption<O>({.name = "speed",
                         .kind = OptionKind::kReal,
                         .doc = "Open mode: replay this many times faster",
                         .fallback = 1.0},
                        [](O& o, const Json& v, const std::string& label) {
                          o.speed = SpeedValue(v, label);
                          o.speed_given = true;
                        }),
  };
}

std::vector<Option<O>> TraceOptions() {
  return {
      WorkloadOption<O>({.name = "format",
                         .kind = OptionKind::kText,
                         .doc = "Trace format: " + TraceFormatList(),
                         .fallback = "auto"},
                        [](O& o, const Json& v, const std::string& label) {
                          o.format = ParseTraceFormat(TextValue(v, label));  // names --format
                        }),
      In("workload", FlagOption("skip_bad", &O::skip_bad, "Skip malformed lines (and count them) instead of stopping")),
      WorkloadOption<O>({.name = "limit",
                         .kind = OptionKind::kInt,
                         .doc = "Replay at most this many requests (0: all)",
                         .fallback = 0},
                        [](O& o, const Json& v, const std::string& label) {
                          o.limit = IntValue(v, label);
                          if (o.limit < 0) {
                            throw InputError(label + ": must not be negative (got " + std::to_string(o.limit) + ")");
                          }
                        }),
      In("workload", FlagOption("wrap", Field<O>(&O::wrap),
                                "Wrap requests beyond the target's capacity modulo the capacity (otherwise they are "
                                "an error)")),
      In("workload", FlagOption("reads_only", Field<O>(&O::reads_only),
                                "Pass over the trace's writes (counted) and replay its reads")),
      WorkloadOption<O>({.name = "device",
                         .kind = OptionKind::kText,
                         .doc = "Replay only this traced device (MSR DiskNumber, blkparse MAJOR,MINOR, DiskSim "
                                "devno, SPC ASU)"},
                        [](O& o, const Json& v, const std::string& label) {
                          o.device = ParseTraceDevice(v.is_number_integer() ? std::to_string(IntValue(v, label))
                                                                            : TextValue(v, label));  // names --device
                        }),
      In("workload", FlagOption("per_device", Field<O>(&O::per_device), "Also compare latencies per traced device")),
      In("workload", TextOption("files_under", &O::files_under,
                                "File-level traces: replay only the files under this directory (the data's mount "
                                "point); reads of other files (libraries, /etc) are ignored")),
  };
}

Option<O> PolicyOption() {
  return WorkloadOption<O>({.name = "policy",
                            .kind = OptionKind::kText,
                            .doc = "Drive target: HDD queue policy: " + QueuePolicyDocs() +
                                   "; default: the drive's own (a DiskSim spec's disk scheduler where modelled, "
                                   "else sptf)"},
                           [](O& o, const Json& v, const std::string& label) {
                             o.policy = ParseQueuePolicy(TextValue(v, label));  // names --policy
                           });
}

// A file name (the command line's --per-request F.csv), or true: the rows in the result.
Option<O> PerRequestOption() {
  return WorkloadOption<O>({.name = "per_request",
                            .kind = OptionKind::kText,
                            .doc = "Write one CSV row per request (arrival, issue, completion, simulated and "
                                   "measured latency) to this file; true: the rows in the result"},
                           [](O& o, const Json& v, const std::string& label) {
                             if (v.is_boolean()) {
                               o.per_request_rows = v.get<bool>();
                             } else {
                               o.per_request_csv = TextValue(v, label);
                             }
                           });
}

// How many copies of the workload run at once; pool targets only.
std::vector<Option<O>> InstanceOptions() {
  return {
      In("workload", IntListOption("readers", &O::readers,
                                   "Instances of the traced workload run at once, e.g. 1,2,5,10: one run each "
                                   "(each instance on its own copy of the data)")),
      In("workload", Option<O>{{.name = "stagger", .kind = OptionKind::kDuration,
                                .doc = "Instance i starts i times this after the first (s, ms)", .fallback = "0s"},
                               [](O& o, const Json& v, const std::string& label) {
                                 o.stagger_ns = DurationValue(v, label);
                               }}),
      In("workload", FlagOption("same_data", Field<O>(&O::same_data),
                                "All instances read one copy of the data (else each its own)")),
  };
}

// The zvol's own options; the rest of a pool target's are the shared groups'.
std::vector<Option<O>> ZvolOptions() {
  return {
      DatasetProperty(In("dataset", SizeOption("volblocksize", Field<O>(&O::volblocksize),
                                               "The zvol's block size; 0: the era's (16K from OpenZFS 2.2, 8K "
                                               "before)",
                                               false))),
      In("dataset", SizeOption("volsize", Field<O>(&O::volsize), "The zvol's size; 0: what the trace reaches", false)),
      DatasetProperty(In("dataset", SizeOption("recordsize", Field<O>(&O::recordsize),
                                               "File-level traces: the dataset's recordsize, a power of two from "
                                               "512 to 16M"))),
  };
}

OptionTable<O> Table() {
  return {"replay",
          Concat<O>({
              {Required(Flags({"trace"}, In("workload", TextOption("trace", &O::trace, "Trace file (plain or gzip)")))),
               TargetOption<O>("the trace is then replayed on a zvol (a block trace) or on files of the dataset (a "
                               "file-level trace)")},
              PacingOptions(),
              TraceOptions(),
              {PolicyOption(), PerRequestOption()},
              PoolOnly<O>(Concat<O>({InstanceOptions(), PoolEraGroup<O>(), ZvolOptions(), CacheGroup<O>(),
                                     {SeedOption<O>()}})),
          })};
}

// ---------------------------------------------------------------- checks

void CheckOptions(const O& o) {
  if (o.readers.empty()) throw InputError("--readers: give at least one count");
  for (const int n : o.readers) {
    if (n < 1 || n > kMaxReplayInstances) {
      throw InputError("--readers: each count must be from 1 to " + std::to_string(kMaxReplayInstances) + " (got " +
                       std::to_string(n) + ")");
    }
  }
  if (o.readers.size() > 1 && (o.per_request_rows || !o.per_request_csv.empty())) {
    throw InputError("--per-request: takes the requests of one run; give one --readers count with it");
  }
  if (o.speed_given && o.mode != ReplayMode::kOpen) {
    throw InputError("--speed: only applies to --mode open (the other modes ignore the recorded times)");
  }
  if (IsPoolSpecText(o.target)) {
    if (o.policy) {
      throw InputError("--policy: only applies to a drive target (a pool's disks reorder as the pool model says)");
    }
  } else {
    RefusePoolOptions(o.pool_options_given, o.target, "a drive");
  }
}

// ---------------------------------------------------------------- per request

// The requests' rows, as columns (Python's per_request=True), or the CSV file of --per-request.
class RequestRows {
 public:
  static constexpr const char* kColumns[] = {"instance", "i",         "line",     "op",      "trace_offset",
                                             "offset",   "size",      "arrival_ms", "issue_ms", "done_ms",
                                             "sim_ms",   "measured_ms"};

  explicit RequestRows(const O& o) {
    if (!o.per_request_csv.empty()) {
      csv_ = std::make_unique<AtomicFile>(o.per_request_csv);
      for (const char* c : kColumns) csv_->stream() << (c == kColumns[0] ? "" : ",") << c;
      csv_->stream() << "\n";
    }
    if (o.per_request_rows) {
      rows_ = Json::object();
      for (const char* c : kColumns) rows_[c] = Json::array();
    }
  }

  ReplayRequestCallback Callback() {
    if (!csv_ && rows_.is_null()) return {};
    return [this](const ReplayRequestResult& r) { Add(r); };
  }

  // The CSV into place, and the rows (null if none were asked).
  Json Finish() {
    if (csv_) csv_->Commit();
    return rows_;
  }

 private:
  void Add(const ReplayRequestResult& r) {
    const double measured = r.record->measured_latency_ns >= 0 ? NsToMs(r.record->measured_latency_ns) : NAN;
    const Json row[] = {r.instance,
                        r.index,
                        r.record->line,
                        r.record->op == IoOp::kWrite ? "W" : "R",
                        r.record->offset_bytes,
                        r.offset_bytes,
                        r.size_bytes,
                        NsToMs(r.arrival_ns),
                        NsToMs(r.issued_ns),
                        NsToMs(r.done_ns),
                        NsToMs(r.done_ns - r.arrival_ns),
                        std::isfinite(measured) ? Json(measured) : Json()};
    if (!rows_.is_null()) {
      for (size_t i = 0; i < std::size(kColumns); ++i) rows_[kColumns[i]].push_back(row[i]);
    }
    if (csv_) WriteCsv(row);
  }

  // Numbers in their shortest exact form (PutNumber); an unmeasured latency is an empty field.
  void WriteCsv(const Json (&row)[std::size(kColumns)]) {
    std::ostream& out = csv_->stream();
    for (size_t i = 0; i < std::size(kColumns); ++i) {
      if (i > 0) out << ',';
      const Json& v = row[i];
      if (v.is_number_float()) {
        PutNumber(out, v.get<double>());
      } else if (v.is_string()) {
        out << v.get<std::string>();
      } else if (!v.is_null()) {
        out << v.dump();
      }
    }
    out << '\n';
  }

  std::unique_ptr<AtomicFile> csv_;
  Json rows_;
};

// ---------------------------------------------------------------- result

// Numbers that may be undefined (no measured latencies) are null in JSON.
Json NumberOrNull(double v) { return std::isfinite(v) ? Json(v) : Json(); }

Json ComparisonJson(const ReplayComparison& c) {
  const bool measured = c.measured_requests > 0;
  const double none = std::numeric_limits<double>::quiet_NaN();
  return {{"requests", c.requests},
          {"sim_mean_ms", c.simulated.mean_ms},
          {"sim_p50_ms", c.simulated.p50_ms},
          {"sim_p90_ms", c.simulated.p90_ms},
          {"sim_p99_ms", c.simulated.p99_ms},
          {"measured_requests", c.measured_requests},
          {"measured_mean_ms", NumberOrNull(measured ? c.measured.mean_ms : none)},
          {"measured_p50_ms", NumberOrNull(measured ? c.measured.p50_ms : none)},
          {"measured_p90_ms", NumberOrNull(measured ? c.measured.p90_ms : none)},
          {"measured_p99_ms", NumberOrNull(measured ? c.measured.p99_ms : none)},
          {"sim_mean_of_measured_ms", NumberOrNull(measured ? c.simulated_measured.mean_ms : none)},
          {"sim_p50_of_measured_ms", NumberOrNull(measured ? c.simulated_measured.p50_ms : none)},
          {"sim_p90_of_measured_ms", NumberOrNull(measured ? c.simulated_measured.p90_ms : none)},
          {"sim_p99_of_measured_ms", NumberOrNull(measured ? c.simulated_measured.p99_ms : none)},
          {"demerit_ms", NumberOrNull(c.demerit_ms)},
          {"demerit_pct", NumberOrNull(c.demerit_pct)},
          {"mean_error_pct", NumberOrNull(c.mean_error_pct)}};
}

// What a replay on a drive and one on a pool have in common.
struct Replayed {
  TraceFormat format;
  const TraceReadStats& stats;
  const ReplayResult& r;
  std::string target;  // the drive's name or the pool as formatted back
  int64_t capacity_bytes;
};

Json RunJson(const Replayed& x, const O& o) {
  const ReplayResult& r = x.r;
  Json j = {{"reads", r.reads}, {"writes", r.writes}, {"bytes", r.bytes}, {"elapsed_s", NsToSec(r.end_ns)},
            {"throughput_mb_s", r.mb_s}, {"iops", r.iops}};
  j.update(ComparisonJson(r.all));
  j["read"] = ComparisonJson(r.read);
  j["write"] = ComparisonJson(r.write);
  if (o.per_device) {
    j["devices"] = Json::array();
    for (const ReplayDeviceComparison& d : r.devices) {
      Json one = {{"device", FormatTraceDevice(x.format, d.device)}};
      one.update(ComparisonJson(d.comparison));
      j["devices"].push_back(one);
    }
  }
  j.update({{"skipped", x.stats.skipped},
            {"ignored", x.stats.ignored},
            {"unmatched", x.stats.unmatched},
            {"skipped_writes", r.skipped_writes},
            {"other_devices", r.other_devices},
            {"devices_seen", r.devices_seen},
            {"wrapped", r.wrapped},
            {"realigned", r.realigned},
            {"max_waiting", r.max_waiting},
            {"exact_quantiles", r.exact_quantiles},
            {"wall_seconds", r.wall_seconds}});
  return j;
}

std::string Fixed(double v, int decimals) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*f", decimals, v);
  return buf;
}

// What the reader of the report should know; --flags are respelt for each front.
std::vector<std::string> Notes(const Replayed& x, const O& o) {
  std::vector<std::string> notes;
  if (x.stats.skipped > 0) {
    notes.push_back("skipped " + std::to_string(x.stats.skipped) + " malformed line" +
                    (x.stats.skipped == 1 ? "" : "s") + " (--skip-bad); the first: " + x.stats.first_skipped);
  }
  if (x.r.devices_seen > 1 && o.device < 0) {
    notes.push_back("the trace holds " + std::to_string(x.r.devices_seen) + " devices, all replayed onto " +
                    x.target + " (--device N replays one, --per-device compares each)");
  }
  if (x.r.wrapped > 0) {
    notes.push_back(std::to_string(x.r.wrapped) + " of " + std::to_string(x.r.requests) + " requests (" +
                    Fixed(100.0 * static_cast<double>(x.r.wrapped) / static_cast<double>(x.r.requests), 1) +
                    " %) lay past the end of " + x.target + " (" +
                    Fixed(static_cast<double>(x.capacity_bytes) / 1e9, 1) +
                    " GB) and were wrapped modulo its capacity (--wrap): the traced volume is larger than the "
                    "target, so seek distances differ from the original's");
  }
  return notes;
}

// The identification both targets share: the trace and the pacing.
Json PacingJson(const Replayed& x, const O& o) {
  return {{"mode", ReplayModeName(o)},
          {"speed", o.speed},
          {"reads_only", o.reads_only},
          {"limit", o.limit},
          {"wrap", o.wrap},
          {"device", o.device >= 0 ? Json(FormatTraceDevice(x.format, o.device)) : Json()},
          {"per_device", o.per_device}};
}

Json Result(Json identity, const Replayed& x, const O& o, Json runs, RequestRows& rows) {
  Json j = {{"workload", "replay"}, {"trace", o.trace}, {"format", TraceFormatName(x.format)}};
  j.update(identity);
  j.update(PacingJson(x, o));
  j["runs"] = std::move(runs);
  j["notes"] = Notes(x, o);
  if (Json requests = rows.Finish(); !requests.is_null()) j["requests"] = std::move(requests);
  return j;
}

Json RunOnDrive(const O& o, RequestRows& rows) {
  // The trace is opened (and its format told) before the drive is built, so that a wrong file is reported first.
  std::unique_ptr<TraceReader> trace =
      OpenTrace(o.trace, o.format, TraceReaderOptions{.skip_bad = o.skip_bad, .files_under = o.files_under});
  const DriveSpec drive = ResolveDrive(o.target);
  Simulation sim;
  const QueuePolicy policy = o.policy.value_or(drive.queue_order.value_or(QueuePolicy::kSptf));
  std::unique_ptr<Device> device = MakeDevice(&sim, drive.name, drive, policy);
  const ReplayResult r = ReplayTrace(*trace, *device, sim, o, rows.Callback());
  const Replayed x{trace->format(), trace->stats(), r, drive.name, device->capacity_bytes()};
  const Json identity = {{"target", drive.name},
                         {"target_kind", "drive"},
                         {"drive_kind", device->is_rotational() ? "hdd" : "ssd"},
                         {"capacity_bytes", device->capacity_bytes()},
                         {"sector_bytes", device->sector_bytes()},
                         {"queue_depth", device->queue_depth()},
                         {"policy", std::string(QueuePolicyName(policy))}};
  return Result(identity, x, o, Json::array({RunJson(x, o)}), rows);
}

// Each instance's figures as lists, and their spread: one entry per instance.
Json InstancesJson(const std::vector<ReplayResult>& instances) {
  std::vector<double> mb_s, mean_ms, p50_ms, p99_ms;
  for (const ReplayResult& r : instances) {
    mb_s.push_back(r.mb_s);
    mean_ms.push_back(r.all.simulated.mean_ms);
    p50_ms.push_back(r.all.simulated.p50_ms);
    p99_ms.push_back(r.all.simulated.p99_ms);
  }
  return {{"per_instance_mb_s", mb_s},
          {"per_instance_min_mb_s", *std::min_element(mb_s.begin(), mb_s.end())},
          {"per_instance_mean_mb_s", std::accumulate(mb_s.begin(), mb_s.end(), 0.0) / static_cast<double>(mb_s.size())},
          {"per_instance_max_mb_s", *std::max_element(mb_s.begin(), mb_s.end())},
          {"per_instance_sim_mean_ms", mean_ms},
          {"per_instance_sim_p50_ms", p50_ms},
          {"per_instance_sim_p99_ms", p99_ms}};
}

Json PoolRunJson(const Replayed& x, const O& o, const PoolReplayResult& p) {
  Json run = {{"readers", p.instances.size()}};
  run.update(RunJson(x, o));
  run.update(InstancesJson(p.instances));
  run.update({{"arc_hit_pct", p.arc_hit_pct},
              {"arc_hits", p.arc.hits},
              {"arc_misses", p.arc.misses},
              {"prefetch_reads", p.dmu.prefetch_reads},
              {"disk_bytes_read", p.disk_bytes_read},
              {"disk_bytes_written", p.disk_bytes_written},
              {"amplification", p.replay.bytes > 0 ? static_cast<double>(p.disk_bytes_read + p.disk_bytes_written) /
                                                         static_cast<double>(p.replay.bytes)
                                                   : 0.0},
              {"cpu_busy_pct", p.cpu_busy_pct},
              {"placement", PlacementJson(p.placement, p.pool_before)},
              {"disks", DisksToJson(p.disks)}});
  return run;
}

// The data as the pool holds it: a zvol, or the traced files.
Json DataJson(const PoolReplayResult& p) {
  if (!p.file_level) {
    return {{"data", "zvol"}, {"volblocksize_bytes", p.volblocksize}, {"volsize_bytes", p.volsize}};
  }
  // Files opened and never read (directories among them) hold no data of the workload.
  const auto read = std::count_if(p.file_bytes.begin(), p.file_bytes.end(), [](int64_t b) { return b > 0; });
  return {{"data", "files"}, {"recordsize_bytes", p.volblocksize}, {"files", read}, {"file_bytes", p.volsize}};
}

Json RunOnPool(const O& o, RequestRows& rows) {
  Json runs = Json::array();
  Json identity;
  std::optional<PoolReplayResult> first;
  for (const int n : o.readers) {
    PoolReplayOptions pool = o;
    pool.pool = o.target;
    pool.instances = n;
    PoolReplayResult p = ReplayTraceOnPool(
        o.trace, o.format, TraceReaderOptions{.skip_bad = o.skip_bad, .files_under = o.files_under}, pool, o,
        rows.Callback());
    const Replayed x{p.format, p.trace_stats, p.replay, p.pool, p.volsize};
    runs.push_back(PoolRunJson(x, o, p));
    if (!first) first = std::move(p);
  }
  const PoolReplayResult& p = *first;
  identity = {{"target", p.pool},
              {"target_kind", "pool"},
              {"capacity_bytes", p.volsize},
              {"sector_bytes", p.file_level ? 1 : 512},  // a Linux zvol's logical block (pool_replay.cc)
              {"profile", p.profile}};
  identity.update(DataJson(p));
  identity.update({{"stagger_s", NsToSec(o.stagger_ns)},
                   {"same_data", o.same_data},
                   {"layout", o.layout},
                   {"pool_state",
                    o.pool_state.empty() ? Json() : Json(ParsePoolState(o.pool_state, o.pool_state_label).text)},
                   {"primarycache", o.primarycache},
                   {"l2arc", o.l2arc.empty() ? Json() : Json(o.l2arc)},
                   {"seed", o.seed}});
  // The notes are the trace's, the same in every run; the first run's instance 0 tells them.
  const ReplayResult& one = p.instances[0];
  return Result(identity, Replayed{p.format, p.trace_stats, one, p.pool, p.volsize}, o, std::move(runs), rows);
}

Json Run(const O& o) {
  CheckOptions(o);
  RequestRows rows(o);
  return IsPoolSpecText(o.target) ? RunOnPool(o, rows) : RunOnDrive(o, rows);
}

}  // namespace replay_front

const WorkloadFront& ReplayFront() {
  static const TableWorkload<replay_front::O> front(
      "Replay a block trace (DiskSim, blkparse, fio, MSR, SPC, tracefs, CloudPhysics) on one simulated drive or a "
      "zvol of a pool, and compare with the latencies the trace measured",
      replay_front::Table(), replay_front::Run, replay_front::CheckOptions);
  return front;
}

}  // namespace ziosim
