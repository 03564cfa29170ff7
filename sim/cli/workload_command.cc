// `ziosim workload NAME`: a workload personality for a fixed time through the
// pool, locally or behind an NFS front.
#include <cstdio>
#include <iostream>
#include <string>
#include <vector>

#include "sim/cli/commands.h"
#include "sim/cli/settings.h"
#include "sim/core/units.h"
#include "sim/workload/fio_job.h"
#include "sim/workload/workload.h"

namespace ziosim::cli {
namespace {

struct Cli {
  WorkloadOptions o;
  std::string duration = "60s";
  std::vector<std::string> set;
  bool json = false;
};

void Print(const WorkloadRun& r) {
  std::printf("workload %s on \"%s\", profile %s%s, %d threads, %.0f s\n", r.personality.c_str(), r.pool.c_str(),
              r.profile.c_str(), r.nfs ? ", over NFS" : "", r.threads, NsToSec(r.duration_ns));
  std::printf("ops/s %.1f   reads/s %.1f (%.2f MB/s)   writes/s %.1f (%.2f MB/s)\n", r.ops_per_s, r.read_iops,
              r.read_mb_s, r.write_iops, r.write_mb_s);
  std::printf("read latency    p50 %.3f ms  p99 %.3f ms\n", r.read_p50_ms, r.read_p99_ms);
  std::printf("sync writes %llu: latency p50 %.3f ms  p99 %.3f ms  p99.9 %.3f ms\n",
              static_cast<unsigned long long>(r.sync_writes), r.sync_p50_ms, r.sync_p99_ms, r.sync_p999_ms);
  std::printf("ZIL: %llu commits in %llu batches, %llu log blocks (%.1f MB), %llu indirect, %llu flushes\n",
              static_cast<unsigned long long>(r.zil.commits), static_cast<unsigned long long>(r.zil.batches),
              static_cast<unsigned long long>(r.zil.lwbs), static_cast<double>(r.zil.lwb_bytes) / 1e6,
              static_cast<unsigned long long>(r.zil.indirect_records), static_cast<unsigned long long>(r.zil.flushes));
  std::printf("txgs %llu: sync mean %.1f ms, max %.1f ms; throttle %.1f%% of thread time\n",
              static_cast<unsigned long long>(r.txgs), r.txg_sync_mean_ms, r.txg_sync_max_ms, r.throttle_pct);
  std::printf("\n%s", FormatDiskTable(DisksToJson(r.disks)).c_str());
}

void Run(Cli& c) {
  c.o.settings = ParseSettings(c.set);
  c.o.duration_ns = ParseDuration(c.duration, "--duration");
  const WorkloadRun r = RunWorkload(c.o);
  if (c.json) {
    std::cout << WorkloadToJson(r).dump(2) << "\n";
  } else {
    Print(r);
  }
}

}  // namespace

void AddWorkloadCommand(CLI::App& app) {
  auto c = std::make_shared<Cli>();
  CLI::App* cmd = app.add_subcommand("workload", "A workload personality (fileserver, database, ...) through the pool");
  cmd->add_option("name", c->o.personality,
                  "Personality: fileserver, webserver, workstation, database, varmail, oltp, or a .toml file")
      ->required();
  cmd->add_option("--pool", c->o.pool, "Pool in zpool syntax, e.g. \"raidz1 5xwd-re4-1tb log generic-ssd\"")
      ->required();
  cmd->add_option("--profile", c->o.profile, "Era profile (see `ziosim profiles`)")->capture_default_str();
  cmd->add_option("--nfs", c->o.nfs,
                  "Run behind an NFSv3 front: latency=TIME,bw=BYTES_PER_S,rsize=SIZE,wsize=SIZE,async,unstable "
                  "(\"on\" for the defaults)")
      ->each([c](const std::string&) { c->o.use_nfs = true; });
  cmd->add_option("--duration", c->duration, "Simulated run time (s, ms, m)")->capture_default_str();
  cmd->add_option("--threads", c->o.threads, "Threads (default: the personality's)");
  cmd->add_option("--sync", c->o.sync, "Dataset sync property: standard, always or disabled")->capture_default_str();
  cmd->add_option("--logbias", c->o.logbias, "Dataset logbias property: latency or throughput")
      ->capture_default_str();
  cmd->add_option("--set", c->set, "Tunable NAME=VALUE (repeatable)");
  cmd->add_option("--ashift", c->o.ashift, "Sector shift of the pool")->capture_default_str();
  cmd->add_option("--seed", c->o.seed, "Random seed")->capture_default_str();
  cmd->add_flag("--json", c->json, "Print one JSON object");
  cmd->callback([c] { Run(*c); });
}

}  // namespace ziosim::cli
