// `workload`: a personality through a pool; its options, declared once, and
// its result, one JSON value.
#include "sim/workload/option_groups.h"
#include "sim/workload/workload.h"
#include "sim/workload/workload_front.h"
#include "sim/zfs/tunables.h"

namespace ziosim {
namespace personality_front {

using O = WorkloadOptions;

Option<O> NfsOption() {
  return In("workload",
            Option<O>{{.name = "nfs", .kind = OptionKind::kText,
                       .doc = "Run behind an NFSv3 front: latency=TIME,bw=BYTES_PER_S,rsize=SIZE,wsize=SIZE,async,"
                              "unstable (\"on\" for the defaults); default: a local run"},
                      [](O& o, const Json& v, const std::string& label) {
                        o.nfs = TextValue(v, label);
                        o.use_nfs = true;
                      }});
}

Option<O> DurationOption() {
  return In("workload", Option<O>{{.name = "duration", .kind = OptionKind::kDuration,
                                   .doc = "Simulated run time (s, ms, m)", .fallback = "60s"},
                                  [](O& o, const Json& v, const std::string& label) {
                                    o.duration_ns = DurationValue(v, label);
                                  }});
}

OptionTable<O> Table() {
  return {"workload",
          Concat<O>({
              {Flags({"personality"},
                     Required(In("workload", TextOption("personality", &O::personality,
                                                        "fileserver, webserver, workstation, database, varmail, "
                                                        "oltp, or a personality .toml file")))),
               PoolOption<O>("raidz1 5xwd-re4-1tb log generic-ssd"), NfsOption(), DurationOption(),
               In("workload", IntOption("threads", &O::threads, "Threads; 0: the personality's")),
               DatasetProperty(In("dataset", TextOption("sync", &O::sync,
                                                        "Dataset sync property: standard, always or disabled"))),
               DatasetProperty(In("dataset", TextOption("logbias", &O::logbias,
                                                        "Dataset logbias property: latency or throughput")))},
              EraGroup<O>(),
          })};
}

Json Run(const O& o) {
  const WorkloadRun r = RunWorkload(o);
  Json run = WorkloadToJson(r);
  Json result = {{"workload", "workload"}, {"personality", r.personality}, {"pool", r.pool},
                 {"profile", r.profile},   {"sync", o.sync},               {"logbias", o.logbias},
                 {"seed", o.seed},         {"runs", Json::array()}};
  for (const char* identity : {"personality", "pool", "profile"}) run.erase(identity);
  result["runs"].push_back(run);
  return result;
}

}  // namespace personality_front

const WorkloadFront& PersonalityFront() {
  static const TableWorkload<personality_front::O> front(
      "A workload personality (fileserver, database, ...) through the pool", personality_front::Table(),
      personality_front::Run, CheckWorkloadOptions);
  return front;
}

}  // namespace ziosim
