// `ziosim block-read`: block reads straight at the vdev layer of a pool.
#include <cstdio>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "sim/cli/commands.h"
#include "sim/cli/plot_file.h"
#include "sim/cli/settings.h"
#include "sim/core/status.h"
#include "sim/core/units.h"
#include "sim/workload/block_read.h"

namespace ziosim::cli {
namespace {

struct Cli {
  std::string pool;
  std::string pattern = "seq";
  std::string priority = "sync";
  std::string blocksize = "128K";
  std::string span = "0";
  int depth = 1;
  int64_t count = 1000;
  int ashift = 12;
  std::string profile = std::string(kDefaultProfile);
  std::vector<std::string> set;
  std::vector<std::string> fault;
  double interval_ms = 0;
  uint64_t seed = 1;
  std::string io_log;
  std::string plot;
  bool json = false;
};

void PrintIntervals(const BlockReadResult& r) {
  if (r.intervals.empty()) return;
  std::printf("\ninterval report (zpool iostat -v style: read ops and MB/s per disk)\n%10s", "t (s)");
  for (const DiskReport& d : r.disks) std::printf(" %8s-ops %7s-MB/s", d.name.c_str(), d.name.c_str());
  std::printf("\n");
  SimTime prev = 0;
  for (const IntervalSample& s : r.intervals) {
    const double dt = NsToSec(s.end_ns - prev);
    std::printf("%10.3f", NsToSec(s.end_ns));
    for (size_t i = 0; i < s.reads.size(); ++i) {
      std::printf(" %12.0f %12.1f", static_cast<double>(s.reads[i]) / dt, static_cast<double>(s.read_bytes[i]) / dt / 1e6);
    }
    std::printf("\n");
    prev = s.end_ns;
  }
}

void Run(const Cli& c) {
  BlockReadOptions o;
  o.pool = c.pool;
  o.ashift = c.ashift;
  o.profile = c.profile;
  o.settings = ParseSettings(c.set);
  o.pattern = ParsePattern(c.pattern);
  if (c.priority != "sync" && c.priority != "async") {
    throw InputError("--priority: \"" + c.priority + "\" is not sync (demand) or async (prefetch)");
  }
  o.priority = c.priority == "sync" ? ZioPriority::kSyncRead : ZioPriority::kAsyncRead;
  o.block_bytes = ParsePositiveSize(c.blocksize, "--blocksize");
  o.span_bytes = c.span == "0" ? 0 : ParsePositiveSize(c.span, "--span");
  o.depth = c.depth;
  o.count = c.count;
  o.seed = c.seed;
  if (c.interval_ms < 0) throw InputError("--interval: must not be negative");
  o.interval_ns = MsToNs(c.interval_ms);
  o.faulted = c.fault;
  o.io_log_path = c.io_log;
  const BlockReadResult r = RunBlockRead(o);
  const nlohmann::json j = {{"pool", r.pool},          {"profile", r.profile},     {"blocks", r.blocks},
                            {"bytes", r.bytes},        {"elapsed_s", NsToSec(r.elapsed_ns)},
                            {"throughput_mb_s", r.mb_s}, {"lat_mean_ms", r.lat_mean_ms},
                            {"lat_p99_ms", r.lat_p99_ms}, {"disks", DisksToJson(r.disks)}};
  if (!c.plot.empty()) PlotResult("block-read", j, c.plot);
  if (c.json) {
    std::printf("%s\n", j.dump(2).c_str());
    return;
  }
  std::printf("pool     %s   (profile %s)\n", r.pool.c_str(), r.profile.c_str());
  std::printf("workload %s reads of %s, %d outstanding, %lld blocks\n", c.pattern.c_str(), c.blocksize.c_str(),
              c.depth, static_cast<long long>(r.blocks));
  std::printf("result   %.1f MB/s over %.3f s simulated; block latency mean %.2f ms, p99 %.2f ms\n\n", r.mb_s,
              NsToSec(r.elapsed_ns), r.lat_mean_ms, r.lat_p99_ms);
  std::printf("%s", FormatDiskTable(r.disks).c_str());
  PrintIntervals(r);
}

}  // namespace

void AddBlockReadCommand(CLI::App& app) {
  auto c = std::make_shared<Cli>();
  CLI::App* cmd = app.add_subcommand("block-read", "Read blocks straight at the vdev layer of a pool");
  cmd->add_option("--pool", c->pool, "Pool in zpool syntax, e.g. \"mirror 2xwd-re4-1tb\"")->required();
  cmd->add_option("--pattern", c->pattern, "seq or rand")->capture_default_str();
  cmd->add_option("--priority", c->priority, "sync (demand reads) or async (prefetch reads)")->capture_default_str();
  cmd->add_option("--blocksize,--bs", c->blocksize, "Block size (K/M suffixes)")->capture_default_str();
  cmd->add_option("--depth", c->depth, "Block reads outstanding")->capture_default_str();
  cmd->add_option("--count", c->count, "Blocks to read")->capture_default_str();
  cmd->add_option("--span", c->span, "Random reads fall in this much of the layout (0: whole pool)");
  cmd->add_option("--ashift", c->ashift, "Sector shift of the pool (9 or 12)")->capture_default_str();
  cmd->add_option("--profile", c->profile, "Era profile (see `ziosim profiles`)")->capture_default_str();
  cmd->add_option("--set", c->set, "Tunable NAME=VALUE (repeatable)");
  cmd->add_option("--fault", c->fault, "Fault a disk before the run (d0, d1, ...; repeatable)");
  cmd->add_option("--interval", c->interval_ms, "Interval report every so many ms of simulated time");
  cmd->add_option("--io-log", c->io_log, "Write every leaf I/O to this CSV file");
  cmd->add_option("--seed", c->seed, "Random seed")->capture_default_str();
  cmd->add_flag("--json", c->json, "Print one JSON object");
  cmd->add_option("--plot", c->plot, "Also draw per-disk busy time and MB/s into this PNG");
  cmd->callback([c] { Run(*c); });
}

}  // namespace ziosim::cli
