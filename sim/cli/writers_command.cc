// `ziosim writers`: N concurrent dd-like writers through the whole write path.
#include <cstdio>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "sim/cli/commands.h"
#include "sim/cli/plot_file.h"
#include "sim/cli/settings.h"
#include "sim/core/status.h"
#include "sim/core/units.h"
#include "sim/workload/writers.h"

namespace ziosim::cli {
namespace {

struct Cli {
  std::string pool;
  std::vector<int> writers = {1, 2, 5, 10};
  std::string bs = "1M", file_size = "1G", recordsize = "128K";
  bool fsync_at_end = false, read_back = false, json = false;
  std::string profile = std::string(kDefaultProfile);
  int ashift = 12;
  std::vector<std::string> set;
  uint64_t seed = 1;
  std::string plot;
};

nlohmann::json WritersJson(const WritersOptions& o, const std::vector<WritersRun>& runs) {
  nlohmann::json arr = nlohmann::json::array();
  for (const WritersRun& r : runs) {
    nlohmann::json run = {{"writers", r.writers},
                          {"throughput_mb_s", r.throughput_mb_s},
                          {"per_writer_mb_s", r.per_writer_mb_s},
                          {"elapsed_s", NsToSec(r.elapsed_ns)},
                          {"final_sync_s", NsToSec(r.final_sync_ns)},
                          {"app_bytes_written", r.app_bytes_written},
                          {"write_calls_per_s", r.write_calls_per_s},
                          {"disk_bytes_written", r.disk_bytes_written},
                          {"disk_write_iops", r.disk_write_iops},
                          {"txgs", r.txgs},
                          {"txg_sync_mean_ms", r.txg_sync_mean_ms},
                          {"txg_sync_max_ms", r.txg_sync_max_ms},
                          {"throttle_pct", r.throttle_pct},
                          {"dirty_max_bytes", r.dirty_max_bytes},
                          {"max_dirty_bytes", r.max_dirty_bytes},
                          {"cpu_busy_pct", r.cpu_busy_pct},
                          {"txg", {{"data_blocks", r.txg.data_blocks}, {"data_asize_bytes", r.txg.data_asize_bytes},
                                   {"indirect_blocks", r.txg.indirect_blocks},
                                   {"indirect_asize_bytes", r.txg.indirect_asize_bytes},
                                   {"uberblock_bytes", r.txg.uberblock_bytes}}},
                          {"dmu", {{"calls", r.dmu.calls}, {"delayed_calls", r.dmu.delayed_calls},
                                   {"delay_s", NsToSec(r.dmu.delay_ns)}, {"dirty_wait_s", NsToSec(r.dmu.dirty_wait_ns)},
                                   {"rmw_reads", r.dmu.rmw_reads}}},
                          {"disk_written_bytes", r.disk_written_bytes},
                          {"disks", DisksToJson(r.disks)}};
    if (r.read_back_mb_s >= 0) run["read_back_mb_s"] = r.read_back_mb_s;
    arr.push_back(run);
  }
  return {{"pool", o.pool},         {"profile", o.profile}, {"bs", o.bs}, {"file_size", o.file_size},
          {"recordsize", o.recordsize}, {"fsync_at_end", o.fsync_at_end}, {"runs", arr}};
}

void PrintWriters(const WritersOptions& o, const std::vector<WritersRun>& runs) {
  std::printf("pool %s, profile %s; one new file per writer of %lld MiB, recordsize %lld KiB, writes of %lld KiB%s\n",
              o.pool.c_str(), o.profile.c_str(), static_cast<long long>(o.file_size >> 20),
              static_cast<long long>(o.recordsize >> 10), static_cast<long long>(o.bs >> 10),
              o.fsync_at_end ? ", fsync at end" : "");
  std::printf("\n%7s %9s %11s %9s %8s %10s %5s %13s %10s %10s%s   %s\n", "writers", "MB/s", "per writer", "time s",
              "sync s", "disk IOPS", "txgs", "txg ms mean", "txg ms max", "throttle %",
              o.read_back ? " read MB/s" : "", "disk busy % (d0 d1 ...)");
  for (const WritersRun& r : runs) {
    std::printf("%7d %9.1f %11.1f %9.2f %8.2f %10.0f %5llu %13.0f %10.0f %10.1f", r.writers, r.throughput_mb_s,
                r.throughput_mb_s / r.writers, NsToSec(r.elapsed_ns), NsToSec(r.final_sync_ns), r.disk_write_iops,
                static_cast<unsigned long long>(r.txgs), r.txg_sync_mean_ms, r.txg_sync_max_ms, r.throttle_pct);
    if (o.read_back) std::printf(" %10.1f", r.read_back_mb_s);
    std::printf("  ");
    for (const DiskReport& d : r.disks) std::printf(" %3.0f", d.busy_pct);
    std::printf("\n");
  }
  if (!runs.empty()) {
    const WritersRun& last = runs.back();
    std::printf("\ndirty data: zfs_dirty_data_max %lld MiB, at most %lld MiB held (%d writer%s)\n",
                static_cast<long long>(last.dirty_max_bytes >> 20), static_cast<long long>(last.max_dirty_bytes >> 20),
                last.writers, last.writers == 1 ? "" : "s");
    std::printf("per-disk detail, %d writer%s:\n%s", last.writers, last.writers == 1 ? "" : "s",
                FormatDiskTable(last.disks).c_str());
  }
}

void Run(const Cli& c) {
  WritersOptions o;
  SetFileSweepOptions(c, &o);
  o.writers = c.writers;
  o.fsync_at_end = c.fsync_at_end;
  o.read_back = c.read_back;
  const std::vector<WritersRun> runs = RunWriters(o);
  if (c.json) {
    std::printf("%s\n", WritersJson(o, runs).dump(2).c_str());
  } else {
    PrintWriters(o, runs);
  }
  if (!c.plot.empty()) PlotResult("writers", WritersJson(o, runs), c.plot);
}

}  // namespace

void AddWritersCommand(CLI::App& app) {
  auto c = std::make_shared<Cli>();
  CLI::App* cmd = app.add_subcommand("writers", "N concurrent dd-like writers through the whole write path");
  cmd->add_option("--pool", c->pool, "Pool in zpool syntax, e.g. \"raidz2 5xwd-re4-1tb\"")->required();
  cmd->add_option("--writers", c->writers, "Writer counts to sweep, e.g. 1,2,5,10")->delimiter(',')->capture_default_str();
  cmd->add_option("--bs", c->bs, "Bytes per write() call")->capture_default_str();
  cmd->add_option("--file-size", c->file_size, "Size of each writer's new file")->capture_default_str();
  cmd->add_option("--recordsize", c->recordsize, "Dataset recordsize")->capture_default_str();
  cmd->add_flag("--fsync-at-end", c->fsync_at_end, "Each writer waits until its data is on disk (dd conv=fsync)");
  cmd->add_flag("--read-back", c->read_back, "Then read the files back (cold) with the layout the writers left");
  cmd->add_option("--profile", c->profile, "Era profile (see `ziosim profiles`)")->capture_default_str();
  cmd->add_option("--set", c->set, "Tunable NAME=VALUE (repeatable)");
  cmd->add_option("--ashift", c->ashift, "Sector shift of the pool")->capture_default_str();
  cmd->add_option("--seed", c->seed, "Random seed")->capture_default_str();
  cmd->add_flag("--json", c->json, "Print one JSON object");
  cmd->add_option("--plot", c->plot, "Also draw MB/s vs writers and per-disk busy time into this PNG");
  cmd->callback([c] { Run(*c); });
}

}  // namespace ziosim::cli
