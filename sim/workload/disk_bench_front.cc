// `disk-bench`: its options, declared once, and its result, one JSON value.
#include <cmath>

#include "models/catalog/catalog.h"
#include "sim/core/units.h"
#include "sim/workload/disk_bench.h"
#include "sim/workload/option_groups.h"
#include "sim/workload/workload_front.h"

namespace ziosim {
namespace disk_bench_front {

using O = DiskBenchOptions;

OptionTable<O> Table() {
  return {"disk-bench",
          {
              Required(In("workload", TextOption("drive", &O::drive,
                                                 "Catalog name, a .toml drive file, or disksim:FILE.parv"))),
              WorkloadOption<O>({.name = "pattern", .kind = OptionKind::kText, .doc = "seq or rand", .fallback = "seq"},
                                [](O& o, const Json& v, const std::string& label) { o.pattern = ParsePattern(TextValue(v, label)); }),
              In("workload", SizeOption("bs", &O::block_bytes, "Block size")),
              In("workload", IntOption("qd", &O::queue_depth, "Commands each job keeps outstanding")),
              In("workload", IntOption("jobs", &O::jobs, "Independent streams")),
              In("workload", RealOption("span", &O::span, "Fraction of the drive addressed, from its start (outer edge)",
                                        "fraction")),
              WorkloadOption<O>({.name = "runtime_s", .kind = OptionKind::kReal, .unit = "s",
                                 .doc = "Simulated seconds to run (exclusive with count)", .fallback = 10,
                                 .flags = {"--runtime", "--runtime-s"}},
                                [](O& o, const Json& v, const std::string& label) {
                                  const double s = RealValue(v, label);
                                  if (!(s > 0) || s > 1e9) throw InputError(label + ": " + v.dump() + " is not a positive number of seconds");
                                  o.runtime_ns = static_cast<SimTime>(std::llround(s * 1e9));
                                }),
              WorkloadOption<O>({.name = "count", .kind = OptionKind::kInt, .doc = "Stop after this many I/Os instead of runtime_s",
                                 .fallback = nullptr},
                                [](O& o, const Json& v, const std::string& label) {
                                  o.count = IntValue(v, label);
                                  if (o.count <= 0) throw InputError(label + ": must be positive (got " + std::to_string(o.count) + ")");
                                }),
              In("workload", IntOption("seed", &O::seed, "Random seed: same seed, same results")),
              WorkloadOption<O>({.name = "policy", .kind = OptionKind::kText,
                                 .doc = "HDD queue policy: " + QueuePolicyDocs(), .fallback = "sptf"},
                                [](O& o, const Json& v, const std::string& label) {
                                  o.policy = ParseQueuePolicy(TextValue(v, label));  // names --policy: the front respells it
                                }),
          }};
}

Json Run(const O& o) {
  if (o.count > 0 && o.runtime_ns != O{}.runtime_ns) throw InputError("--count: exclusive with --runtime: give one");  // respelt per front
  const DiskBenchResult r = RunDiskBench(ResolveDrive(o.drive), o);
  return {{"workload", "disk-bench"},
          {"drive", r.drive},
          {"pattern", std::string(PatternName(r.pattern))},
          {"bs_bytes", r.block_bytes},
          {"qd", o.queue_depth},
          {"jobs", o.jobs},
          {"span", o.span},
          {"policy", std::string(QueuePolicyName(o.policy))},
          {"seed", o.seed},
          {"runs", Json::array({{{"effective_qd", r.queue_depth},
                                 {"effective_jobs", r.jobs},
                                 {"note", r.note},
                                 {"ios", r.ios},
                                 {"bytes", r.bytes},
                                 {"elapsed_s", NsToSec(r.elapsed_ns)},
                                 {"throughput_mb_s", r.mb_s},
                                 {"iops", r.iops},
                                 {"lat_mean_us", r.lat_mean_us},
                                 {"lat_p50_us", r.lat_p50_us},
                                 {"lat_p99_us", r.lat_p99_us},
                                 {"lat_p999_us", r.lat_p999_us},
                                 {"busy_pct", r.busy_pct}}})}};
}

void Check(const O& o) { ResolveDrive(o.drive); }

}  // namespace disk_bench_front

const WorkloadFront& DiskBenchFront() {
  static const TableWorkload<disk_bench_front::O> front("fio-like microbenchmark of one simulated drive (reads)",
                                                       disk_bench_front::Table(), disk_bench_front::Run,
                                                       disk_bench_front::Check);
  return front;
}

}  // namespace ziosim
