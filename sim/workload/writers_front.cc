// `writers`: its options, declared once, and its result, one JSON value.
#include "sim/core/units.h"
#include "sim/workload/option_groups.h"
#include "sim/workload/placement_json.h"
#include "sim/workload/workload_front.h"
#include "sim/workload/writers.h"
#include "sim/zfs/pool_report.h"
#include "sim/zfs/pool_spec.h"
#include "sim/zfs/tunables.h"

namespace ziosim {
namespace writers_front {

using O = WritersOptions;

OptionTable<O> Table() {
  return {"writers",
          Concat<O>({
              {PoolOption<O>("raidz2 5xwd-re4-1tb"),
               In("workload", IntListOption("writers", &O::writers, "Writer counts to sweep, e.g. 1,2,5,10: one run each")),
               In("workload", SizeOption("bs", &O::bs, "Bytes per write() call")),
               In("workload", SizeOption("file_size", &O::file_size, "Size of each writer's new file"))},
              FileDatasetGroup<O>(),
              {In("workload", FlagOption("fsync_at_end", &O::fsync_at_end,
                                         "Each writer waits until its data is on disk (dd conv=fsync)")),
               In("workload", FlagOption("read_back", &O::read_back,
                                         "Then read the files back (cold) with the layout the writers left")),
               PoolStateOption<O>()},
              EraGroup<O>(),
          })};
}

Json RunJson(const WritersRun& r) {
  Json run = {{"writers", r.writers},
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
              {"dirty_data_max_bytes", r.dirty_max_bytes},
              {"dirty_peak_bytes", r.max_dirty_bytes},
              {"cpu_busy_pct", r.cpu_busy_pct},
              {"read_back_mb_s", r.read_back_mb_s >= 0 ? Json(r.read_back_mb_s) : Json()},
              {"txg", {{"data_blocks", r.txg.data_blocks}, {"data_asize_bytes", r.txg.data_asize_bytes},
                       {"indirect_blocks", r.txg.indirect_blocks}, {"indirect_asize_bytes", r.txg.indirect_asize_bytes},
                       {"uberblock_bytes", r.txg.uberblock_bytes}}},
              {"dmu", {{"calls", r.dmu.calls}, {"delayed_calls", r.dmu.delayed_calls},
                       {"delay_s", NsToSec(r.dmu.delay_ns)}, {"dirty_wait_s", NsToSec(r.dmu.dirty_wait_ns)},
                       {"rmw_reads", r.dmu.rmw_reads}}},
              {"placement", PlacementJson(r.placement, r.pool_before)},
              {"disk_written_bytes", r.disk_written_bytes},
              {"disks", DisksToJson(r.disks)}};
  return run;
}

Json Run(const O& o) {
  const std::vector<WritersRun> runs = RunWriters(o);
  const Tunables t = RunTunables(o.profile, o.settings);
  Json result = {{"workload", "writers"},
                 {"pool", FormatPoolSpec(ParsePoolSpec(o.pool, o.ashift))},
                 {"profile", o.profile},
                 {"mirror_policy", t.Text("mirror_policy")},
                 {"bs_bytes", o.bs},
                 {"file_size_bytes", o.file_size},
                 {"recordsize_bytes", o.recordsize},
                 {"fsync_at_end", o.fsync_at_end},
                 {"read_back", o.read_back},
                 {"pool_state", o.pool_state.empty() ? Json() : Json(ParsePoolState(o.pool_state, o.pool_state_label).text)},
                 {"seed", o.seed},
                 {"runs", Json::array()}};
  for (const WritersRun& r : runs) result["runs"].push_back(RunJson(r));
  return result;
}

}  // namespace writers_front

const WorkloadFront& WritersFront() {
  static const TableWorkload<writers_front::O> front("N concurrent dd-like writers through the whole write path",
                                                    writers_front::Table(), writers_front::Run, CheckWritersOptions);
  return front;
}

}  // namespace ziosim
