// `readers`: its options, declared once, and its result, one JSON value.
#include <algorithm>
#include <numeric>

#include "sim/core/units.h"
#include "sim/workload/option_groups.h"
#include "sim/workload/placement_json.h"
#include "sim/workload/readers.h"
#include "sim/workload/workload_front.h"
#include "sim/zfs/pool_spec.h"
#include "sim/zfs/tunables.h"

namespace ziosim {
namespace readers_front {

using O = ReadersOptions;

OptionTable<O> Table() {
  return {"readers",
          Concat<O>({
              {PoolOption<O>("mirror 2xwd-re4-1tb"),
               In("workload", IntListOption("readers", &O::readers, "Reader counts to sweep, e.g. 1,2,5,10: one run each")),
               In("workload", SizeOption("bs", &O::bs, "Bytes per read() call")),
               In("workload", SizeOption("file_size", &O::file_size, "Size of each reader's file"))},
              FileDatasetGroup<O>(),
              ReadPathGroup<O>(),
              {In("workload", FlagOption("sparse", &O::sparse, "Files are truncated, never written: every block a hole")),
               In("workload", FlagOption("same_file", &O::same_file, "All readers read one file")),
               In("workload", FlagOption("random", &O::random, "Read at random bs-aligned offsets")),
               In("workload", SizeOption("read_offset", &O::read_offset,
                                         "Each reader starts at this byte of its file (dd skip=)", false)),
               Flags({"--read-length", "--read-bytes"},
                     In("workload", SizeOption("read_length", &O::read_length,
                                               "Each reader reads this many bytes (dd count=); 0: to the end", false))),
               In("workload", FlagOption("warm", &O::warm, "Read every file once before measuring")),
               In("workload", TextOption("io_log", &O::io_log_path, "Write every leaf I/O of the last run to this CSV file"))},
              EraGroup<O>(),
          })};
}

Json ArcJson(const ArcStats& a) {
  return {{"hits", a.hits},
          {"misses", a.misses},
          {"prefetch_hits", a.prefetch_hits},
          {"l2_hits", a.l2_hits},
          {"l2_misses", a.l2_misses},
          {"evictions", a.evictions},
          {"dropped_on_release", a.dropped_on_release},
          {"decompressions", a.decompressions},
          {"size_bytes", a.size_bytes},
          {"l2_size_bytes", a.l2_size_bytes}};
}

Json DmuJson(const DmuStats& d) {
  return {{"calls", d.calls},
          {"demand_blocks", d.demand_blocks},
          {"demand_misses", d.demand_misses},
          {"prefetch_reads", d.prefetch_reads},
          {"indirect_reads", d.indirect_reads},
          {"hole_blocks", d.hole_blocks},
          {"waited_on_inflight", d.waited_on_inflight},
          {"promoted", d.promoted},
          {"l2_reads", d.l2_reads},
          {"l2_read_bytes", d.l2_read_bytes}};
}

Json RunJson(const ReadersRun& r) {
  const std::vector<double>& per = r.per_reader_mb_s;
  const double mean = std::accumulate(per.begin(), per.end(), 0.0) / static_cast<double>(per.size());
  return {{"readers", r.readers},
          {"throughput_mb_s", r.throughput_mb_s},
          {"per_reader_mb_s", per},
          {"per_reader_min_mb_s", *std::min_element(per.begin(), per.end())},
          {"per_reader_mean_mb_s", mean},
          {"per_reader_max_mb_s", *std::max_element(per.begin(), per.end())},
          {"app_bytes_read", r.app_bytes_read},
          {"disk_bytes_read", r.disk_bytes_read},
          {"amplification", r.app_bytes_read > 0 ? static_cast<double>(r.disk_bytes_read) /
                                                       static_cast<double>(r.app_bytes_read)
                                                 : 0.0},
          {"cpu_busy_pct", r.cpu_busy_pct},
          {"elapsed_s", NsToSec(r.elapsed_ns)},
          {"arc", ArcJson(r.arc)},
          {"dmu", DmuJson(r.dmu)},
          {"placement", PlacementJson(r.placement, r.pool_before)},
          {"disks", DisksToJson(r.disks)}};
}

// The run's identification: the options as the run used them (the pool
// normalised, the mirror policy and ARC size the tunables resolved to).
Json RunIdentity(const O& o) {
  const Tunables t = RunTunables(o.profile, o.settings, o.arc_max);
  return {{"workload", "readers"},
          {"pool", FormatPoolSpec(ParsePoolSpec(o.pool, o.ashift))},
          {"profile", o.profile},
          {"mirror_policy", t.Text("mirror_policy")},
          {"layout", o.layout},
          {"pool_state", o.pool_state.empty() ? Json() : Json(ParsePoolState(o.pool_state, o.pool_state_label).text)},
          {"primarycache", o.primarycache},
          {"bs_bytes", o.bs},
          {"file_size_bytes", o.file_size},
          {"recordsize_bytes", o.recordsize},
          {"compression", o.compressed ? "lz4" : "off"},
          {"compressratio", o.compression},
          {"sparse", o.sparse},
          {"same_file", o.same_file},
          {"random", o.random},
          {"read_offset_bytes", o.read_offset},
          {"read_length_bytes", o.read_length},
          {"arc_max_bytes", ParseSize(t.Text("zfs_arc_max"), "zfs_arc_max")},
          {"l2arc", o.l2arc.empty() ? Json() : Json(o.l2arc)},
          {"warm", o.warm},
          {"seed", o.seed}};
}

Json Run(const O& o) {
  const std::vector<ReadersRun> runs = RunReaders(o);
  Json result = RunIdentity(o);
  result["runs"] = Json::array();
  for (const ReadersRun& r : runs) result["runs"].push_back(RunJson(r));
  return result;
}

}  // namespace readers_front

const WorkloadFront& ReadersFront() {
  static const TableWorkload<readers_front::O> front("N concurrent dd-like readers through the whole read path",
                                                    readers_front::Table(), readers_front::Run, CheckReadersOptions);
  return front;
}

}  // namespace ziosim
