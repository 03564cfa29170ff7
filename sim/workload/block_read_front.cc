// `block-read`: its options, declared once, and its result, one JSON value.
#include "sim/core/units.h"
#include "sim/workload/block_read.h"
#include "sim/workload/option_groups.h"
#include "sim/workload/workload_front.h"
#include "sim/zfs/pool_report.h"
#include "sim/zfs/tunables.h"

namespace ziosim {
namespace block_read_front {

using O = BlockReadOptions;

Option<O> PatternOption() {
  return In("workload", Option<O>{{.name = "pattern", .kind = OptionKind::kText, .doc = "seq or rand",
                                   .fallback = "seq"},
                                  [](O& o, const Json& v, const std::string& label) {
                                    o.pattern = ParsePattern(TextValue(v, label));  // names --pattern
                                  }});
}

Option<O> PriorityOption() {
  return In("workload", Option<O>{{.name = "priority", .kind = OptionKind::kText,
                                   .doc = "sync (demand reads) or async (prefetch reads)", .fallback = "sync"},
                                  [](O& o, const Json& v, const std::string& label) {
                                    const std::string t = TextValue(v, label);
                                    if (t != "sync" && t != "async") {
                                      throw InputError(label + ": \"" + t + "\" is not sync (demand) or async (prefetch)");
                                    }
                                    o.priority = t == "sync" ? ZioPriority::kSyncRead : ZioPriority::kAsyncRead;
                                  }});
}

Option<O> IntervalOption() {
  return In("workload",
            Option<O>{{.name = "interval_ms", .kind = OptionKind::kReal, .unit = "ms",
                       .doc = "An interval report (zpool iostat -v style) every so many ms of simulated time; 0: none",
                       .fallback = 0, .flags = {"--interval-ms", "--interval"}},
                      [](O& o, const Json& v, const std::string& label) {
                        const double ms = RealValue(v, label);
                        if (ms < 0) throw InputError(label + ": must not be negative");
                        o.interval_ns = ms > 0 ? std::max<SimTime>(1, MsToNs(ms)) : 0;
                      }});
}

OptionTable<O> Table() {
  return {"block-read",
          Concat<O>({
              {PoolOption<O>("mirror 2xwd-re4-1tb"), PatternOption(), PriorityOption(),
               Flags({"--bs", "--blocksize"}, In("workload", SizeOption("bs", &O::block_bytes,
                                                                         "Block size: a multiple of 512, at most 16M"))),
               In("workload", IntOption("depth", &O::depth, "Block reads outstanding")),
               In("workload", IntOption("count", &O::count, "Blocks to read")),
               In("workload", SizeOption("span", &O::span_bytes,
                                         "Random reads fall in this much of the layout; 0: the whole pool", false)),
               Flags({"--fault"}, In("workload", TextListOption("faulted", &O::faulted,
                                                                "Disks to fault before the run (d0, d1, ...)"))),
               Flags({"--spare"},
                     In("workload", TextListOption("spared", &O::spared,
                                                   "dRAID disks that failed and were rebuilt onto the vdev's "
                                                   "distributed spares, in order (faulted; their data read from "
                                                   "the spare space)"))),
               IntervalOption(),
               In("workload", TextOption("io_log", &O::io_log_path, "Write every leaf I/O to this CSV file"))},
              EraGroup<O>(),
          })};
}

// One row per interval and disk: what `zpool iostat -v INTERVAL` shows.
Json IntervalsJson(const BlockReadResult& r) {
  Json rows = Json::array();
  SimTime prev = 0;
  for (size_t k = 0; k < r.intervals.size(); ++k) {
    const IntervalSample& s = r.intervals[k];
    const double dt = NsToSec(s.end_ns - prev);
    for (size_t i = 0; i < s.reads.size() && i < r.disks.size(); ++i) {
      rows.push_back({{"interval", k},
                      {"t_start_s", NsToSec(prev)},
                      {"t_end_s", NsToSec(s.end_ns)},
                      {"disk", r.disks[i].name},
                      {"reads", s.reads[i]},
                      {"read_bytes", s.read_bytes[i]},
                      {"read_ops_s", dt > 0 ? static_cast<double>(s.reads[i]) / dt : 0.0},
                      {"read_mb_s", dt > 0 ? static_cast<double>(s.read_bytes[i]) / dt / 1e6 : 0.0}});
    }
    prev = s.end_ns;
  }
  return rows;
}

Json Run(const O& o) {
  const BlockReadResult r = RunBlockRead(o);
  const Tunables t = RunTunables(o.profile, o.settings);
  return {{"workload", "block-read"},
          {"pool", r.pool},
          {"profile", r.profile},
          {"mirror_policy", t.Text("mirror_policy")},
          {"pattern", std::string(PatternName(o.pattern))},
          {"priority", o.priority == ZioPriority::kSyncRead ? "sync" : "async"},
          {"bs_bytes", o.block_bytes},
          {"depth", o.depth},
          {"span_bytes", o.span_bytes},
          {"faulted", o.faulted},
          {"spared", o.spared},
          {"seed", o.seed},
          {"runs", Json::array({{{"blocks", r.blocks},
                                 {"bytes", r.bytes},
                                 {"elapsed_s", NsToSec(r.elapsed_ns)},
                                 {"throughput_mb_s", r.mb_s},
                                 {"lat_mean_ms", r.lat_mean_ms},
                                 {"lat_p99_ms", r.lat_p99_ms},
                                 {"disks", DisksToJson(r.disks)},
                                 {"intervals", IntervalsJson(r)}}})}};
}

}  // namespace block_read_front

const WorkloadFront& BlockReadFront() {
  static const TableWorkload<block_read_front::O> front("Block reads straight at the vdev layer of a pool",
                                                       block_read_front::Table(), block_read_front::Run,
                                                       CheckBlockReadOptions);
  return front;
}

}  // namespace ziosim
