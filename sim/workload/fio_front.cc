// `fio`: its options, declared once, and its result, one JSON value: the run's
// identification, its notes, and fio's own report (fio_json.h) under "fio",
// which `--output-format json` prints and tools that read fio's JSON read.
#include <string>
#include <vector>

#include "sim/core/output_file.h"
#include "sim/workload/fio_json.h"
#include "sim/workload/fio_run.h"
#include "sim/workload/option_groups.h"
#include "sim/workload/workload_front.h"

namespace ziosim {
namespace fio_front {

// The pool and dataset of a pool target are the readers' (ReadersOptions, as FioTarget holds them).
struct FioFrontOptions : ReadersOptions {
  std::string jobfile;  // a path, or the job file's text (anything with a newline)
  std::string target;
  std::string output;   // the report goes to this file instead of the result's printer
  std::string output_format = "normal";
  std::vector<std::string> pool_options_given;  // PoolOnly's record, for a raw-drive target
};

using O = FioFrontOptions;

Option<O> OutputFormatOption() {
  return WorkloadOption<O>({.name = "output_format",
                            .kind = OptionKind::kText,
                            .doc = "fio's report format: json (fio 3.x's) or normal",
                            .fallback = "normal"},
                           [](O& o, const Json& v, const std::string& label) {
                             o.output_format = TextValue(v, label);
                             if (o.output_format != "json" && o.output_format != "normal") {
                               throw InputError(label + ": \"" + o.output_format + "\" is not json or normal");
                             }
                           });
}

OptionTable<O> Table() {
  return {"fio",
          Concat<O>({
              {Required(Flags({"jobfile"}, In("workload", TextOption("jobfile", &O::jobfile,
                                                                     "fio job file: its path, or its text (with a "
                                                                     "newline)")))),
               TargetOption<O>("the jobs then run on files of it")},
              PoolOnly<O>(Concat<O>({FileDatasetGroup<O>(), ReadPathGroup<O>(), PoolEraGroup<O>()})),
              {SeedOption<O>(),
               In("workload", TextOption("output", &O::output, "Write fio's report to this file instead")),
               OutputFormatOption()},
          })};
}

// `jobfile` is the job text itself, not a path: a path has no newline.
bool IsJobText(const std::string& jobfile) { return jobfile.find('\n') != std::string::npos; }

FioJobFile JobFile(const std::string& jobfile) {
  return IsJobText(jobfile) ? ParseFioJobs(jobfile, "<job>") : LoadFioJobFile(jobfile);
}

FioTarget Target(const O& o) {
  FioTarget t = FioTargetFromText(o.target);
  if (!t.drive.empty()) {
    RefusePoolOptions(o.pool_options_given, o.target, "a raw drive");
    return t;
  }
  t.pool = o;
  t.pool.pool = o.target;
  return t;
}

// What identifies the run: the target, and for a pool its dataset as the options set it.
Json RunIdentity(const O& o, const FioTarget& t) {
  Json j = {{"workload", "fio"},
            {"jobfile", IsJobText(o.jobfile) ? "<job>" : o.jobfile},
            {"target", o.target},
            {"target_kind", t.drive.empty() ? "pool" : "drive"}};
  if (t.drive.empty()) {
    j.update({{"profile", o.profile},
              {"recordsize_bytes", o.recordsize},
              {"compression", o.compressed ? "lz4" : "off"},
              {"compressratio", o.compression},
              {"layout", o.layout},
              {"primarycache", o.primarycache},
              {"l2arc", o.l2arc.empty() ? Json() : Json(o.l2arc)}});
  }
  j["seed"] = o.seed;
  j["output"] = o.output.empty() ? Json() : Json(o.output);
  j["output_format"] = o.output_format;
  return j;
}

Json Run(const O& o) {
  const FioJobFile file = JobFile(o.jobfile);
  const FioTarget target = Target(o);
  const FioResult result = RunFioJobs(file.jobs, target, o.seed);
  Json j = RunIdentity(o, target);
  j["notes"] = result.notes;
  j["fio"] = FioJson(file, result);
  if (!o.output.empty()) {
    AtomicFile out(o.output);
    out.stream() << FioReportText(j["fio"], o.output_format);
    out.Commit();
  }
  return j;
}

void Check(const O& o) {
  JobFile(o.jobfile);
  Target(o);
}

}  // namespace fio_front

const WorkloadFront& FioFront() {
  static const TableWorkload<fio_front::O> front(
      "Run a fio job file on a simulated drive or pool and print fio's report (see docs/fio-jobs.md)",
      fio_front::Table(), fio_front::Run, fio_front::Check);
  return front;
}

}  // namespace ziosim
