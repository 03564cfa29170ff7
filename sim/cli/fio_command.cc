// `ziosim fio JOBFILE --target DRIVE|POOL`: runs a fio job file on a simulated
// raw drive or on files of a simulated pool and prints what fio would:
// `--output-format json` is fio 3.x's JSON, `normal` a short summary.
#include <iostream>
#include <memory>
#include <string>
#include <vector>

#include "sim/cli/commands.h"
#include "sim/core/output_file.h"
#include "sim/cli/settings.h"
#include "sim/core/status.h"
#include "sim/core/units.h"
#include "sim/workload/fio_json.h"
#include "sim/workload/fio_run.h"

namespace ziosim::cli {
namespace {

struct Cli {
  std::string job_file, target;
  std::string profile = std::string(kDefaultProfile), layout = "sequential", primarycache = "all", l2arc;
  std::string recordsize = "128K", arc_max = "0";
  double compression = 1.0;
  int ashift = 12;
  std::vector<std::string> set;
  uint64_t seed = 1;
  std::string output, output_format = "normal";
  std::vector<CLI::Option*> pool_flags;  // given with a raw-drive target: an error
};

FioTarget Target(const Cli& c) {
  FioTarget t = FioTargetFromText(c.target);
  if (!t.drive.empty()) {
    for (const CLI::Option* o : c.pool_flags) {
      if (o->count() > 0) {
        throw InputError(o->get_name() + ": applies to a pool target, and --target " + c.target +
                         " is a raw drive (write 1x" + c.target + " for a one-disk pool)");
      }
    }
    return t;
  }
  ReadersOptions& p = t.pool;
  p.ashift = c.ashift;
  p.profile = c.profile;
  p.settings = ParseSettings(c.set);
  p.recordsize = ParsePositiveSize(c.recordsize, "--recordsize");
  p.compression = c.compression;
  p.layout = c.layout;
  p.primarycache = c.primarycache;
  p.arc_max = ParseSize(c.arc_max, "--arc-max");  // 0: the tunable zfs_arc_max
  p.l2arc = c.l2arc;
  p.seed = c.seed;
  return t;
}

void Run(const Cli& c) {
  if (c.output_format != "json" && c.output_format != "normal") {
    throw InputError("--output-format: \"" + c.output_format + "\" is not json or normal");
  }
  const FioJobFile file = LoadFioJobFile(c.job_file);
  const FioResult result = RunFioJobs(file.jobs, Target(c), c.seed);
  for (const std::string& note : result.notes) std::cerr << "ziosim: note: " << note << "\n";
  const std::string text =
      c.output_format == "json" ? FioJson(file, result).dump(2) + "\n" : FioNormalText(file, result);
  if (c.output.empty()) {
    std::cout << text;
    return;
  }
  AtomicFile out(c.output);
  out.stream() << text;
  out.Commit();
}

}  // namespace

void AddFioCommand(CLI::App& app) {
  auto c = std::make_shared<Cli>();
  CLI::App* cmd = app.add_subcommand(
      "fio", "Run a fio job file on a simulated drive or pool and print fio's report (see docs/fio-jobs.md)");
  cmd->add_option("jobfile", c->job_file, "fio job file")->required();
  cmd->add_option("--target", c->target,
                  "A drive (catalog name, .toml, disksim:FILE.parv) for raw-device jobs, or a pool in zpool "
                  "syntax (\"mirror 2xwd-re4-1tb\", 1xDRIVE for one disk) for jobs on its files")
      ->required();
  c->pool_flags = {
      cmd->add_option("--ashift", c->ashift, "Pool: sector shift")->capture_default_str(),
      cmd->add_option("--profile", c->profile, "Pool: era profile (see `ziosim profiles`)")->capture_default_str(),
      cmd->add_option("--set", c->set, "Pool: tunable NAME=VALUE (repeatable)"),
      cmd->add_option("--recordsize", c->recordsize, "Pool: dataset recordsize")->capture_default_str(),
      cmd->add_option("--compression", c->compression, "Pool: compression ratio (logical / physical)")
          ->capture_default_str(),
      cmd->add_option("--layout", c->layout,
                      "Pool: on-disk layout: sequential, writers:N, shuffle:K, fragmented:PCT, sendrecv")
          ->capture_default_str(),
      cmd->add_option("--primarycache", c->primarycache, "Pool: all, metadata or none")->capture_default_str(),
      cmd->add_option("--arc-max", c->arc_max, "Pool: ARC size (default: the tunable zfs_arc_max)"),
      cmd->add_option("--l2arc", c->l2arc, "Pool: cache device drive (catalog name)"),
  };
  cmd->add_option("--seed", c->seed, "Random seed (jobs with randseed= use theirs)")->capture_default_str();
  cmd->add_option("--output", c->output, "Write the report to this file instead of stdout");
  cmd->add_option("--output-format", c->output_format, "json (fio 3.x's) or normal")->capture_default_str();
  cmd->callback([c] { Run(*c); });
}

}  // namespace ziosim::cli
