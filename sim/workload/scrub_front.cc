// `scrub`: its options, declared once, and its result, one JSON value.
#include "sim/core/units.h"
#include "sim/workload/option_groups.h"
#include "sim/workload/scrub.h"
#include "sim/workload/workload_front.h"
#include "sim/zfs/pool_spec.h"

namespace ziosim {
namespace scrub_front {

using O = ScrubOptions;

// The options a scrub and a resilver share, but the pool.
std::vector<Option<O>> ScanGroup() {
  return Concat<O>({
      {In("workload", IntOption("files", &O::files, "Files written before the scan (objects 2, 3, ...)")),
       Flags({"--fault"}, In("workload", TextListOption("faulted", &O::faulted,
                                                        "Disks failed and not replaced: the scan reads around them "
                                                        "(d0, d1, ...)"))),
       In("workload", IntOption("readers", &O::readers,
                                "dd-like readers of files 0, 1, ... while the scan runs, each its own file")),
       In("workload", SizeOption("bs", &O::bs, "Bytes per read() call of the readers")),
       In("workload", SizeOption("file_size", &O::file_size, "Size of each file")),
       In("workload", SizeOption("stop_after", &O::stop_after,
                                 "Stop once this many bytes were read and predict the rest from the rates so far, "
                                 "as zpool status does; 0: scan everything",
                                 false))},
      FileDatasetGroup<O>(),
      {In("pool", TextOption("layout", &O::layout,
                             "On-disk layout of the files: sequential, writers:N, shuffle:K, fragmented:PCT, "
                             "sendrecv")),
       PoolStateOption<O>()},
      EraGroup<O>(),
  });
}

OptionTable<O> Table() { return {"scrub", Concat<O>({{PoolOption<O>("raidz2 6xhgst-nas-4tb")}, ScanGroup()})}; }

OptionTable<O> ResilverTable() {
  return {"resilver",
          Concat<O>({{PoolOption<O>("raidz2 6xhgst-nas-4tb"),
                      Required(Flags({"--replace", "--fail"},
                                     In("workload", TextListOption("replaced", &O::replaced,
                                                                   "Disks that failed, each replaced by a new disk of "
                                                                   "the same drive (zpool replace POOL dN)")))),
                      In("workload", FlagOption("sequential", &O::sequential,
                                                "The sequential rebuild (zpool replace -s): the disk, of a dRAID, "
                                                "rebuilt onto the vdev's next free distributed spare"))},
                     ScanGroup()})};
}

// One line per txg slice: what `zpool status` shows then.
Json SamplesJson(const ScrubResult& r) {
  Json rows = Json::array();
  for (const ScanSample& s : r.scan.samples) {
    rows.push_back({{"t_s", NsToSec(s.t_ns)},
                    {"examined_bytes", s.examined_bytes},
                    {"issued_bytes", s.issued_bytes},
                    {"phase", s.traversing ? "scanning" : "issuing"}});
  }
  return rows;
}

// One line per txg slice and disk: what `zpool iostat -v` shows over it.
Json DiskSamplesJson(const ScrubResult& r) {
  Json rows = Json::array();
  SimTime prev_t = 0;
  const ScanSample* prev = nullptr;
  for (const ScanSample& s : r.scan.samples) {
    const double dt = NsToSec(s.t_ns - prev_t);
    for (size_t i = 0; i < s.disk_read_bytes.size() && i < r.disks.size(); ++i) {
      const int64_t read = s.disk_read_bytes[i] - (prev ? prev->disk_read_bytes[i] : r.disk_read_bytes_before[i]);
      const int64_t written =
          s.disk_written_bytes[i] - (prev ? prev->disk_written_bytes[i] : r.disk_written_bytes_before[i]);
      rows.push_back({{"t_start_s", NsToSec(prev_t)},
                      {"t_end_s", NsToSec(s.t_ns)},
                      {"disk", r.disks[i].name},
                      {"read_mb_s", dt > 0 ? static_cast<double>(read) / dt / 1e6 : 0.0},
                      {"write_mb_s", dt > 0 ? static_cast<double>(written) / dt / 1e6 : 0.0}});
    }
    prev_t = s.t_ns;
    prev = &s;
  }
  return rows;
}

Json Run(const O& o) {
  const ScrubResult r = RunScrub(o);
  const ScanResult& s = r.scan;
  return {{"workload", o.replaced.empty() ? "scrub" : "resilver"},
          {"pool", r.pool},
          {"profile", r.profile},
          {"scan", r.sequential ? "sequential" : s.legacy ? "legacy" : "sorted"},
          {"files", o.files},
          {"file_size_bytes", o.file_size},
          {"recordsize_bytes", o.recordsize},
          {"layout", o.layout},
          {"pool_state", o.pool_state.empty() ? Json() : Json(ParsePoolState(o.pool_state, o.pool_state_label).text)},
          {"seed", o.seed},
          {"replaced", o.replaced},
          {"faulted", o.faulted},
          {"readers", o.readers},
          {"bs_bytes", o.bs},
          {"runs", Json::array({{{"complete", s.complete},
                                 {"to_examine_bytes", s.to_examine_bytes},
                                 {"examined_bytes", s.examined_bytes},
                                 {"issued_bytes", s.issued_bytes},
                                 {"skipped_bytes", s.skipped_bytes},
                                 {"elapsed_s", NsToSec(s.elapsed_ns)},
                                 {"predicted_s", r.predicted_s},
                                 {"issued_mb_s", r.issued_mb_s},
                                 {"scan_reads", s.blocks_read},
                                 {"indirect_reads", s.indirect_reads},
                                 {"repair_writes", s.repair_writes},
                                 {"repair_bytes", s.repair_bytes},
                                 {"txgs", s.txgs},
                                 {"clearing_txgs", s.clearing_txgs},
                                 {"peak_queue_bytes", s.peak_queue_bytes},
                                 {"queue_limit_bytes", s.queue_limit_bytes},
                                 {"readers_mb_s", r.readers_mb_s},
                                 {"per_reader_mb_s", r.per_reader_mb_s},
                                 {"size_bytes", r.size_bytes},
                                 {"usable_bytes", r.usable_bytes},
                                 {"cap_pct_before", r.pool_before.cap_pct},
                                 {"frag_pct_before", r.pool_before.frag_pct},
                                 {"disks", DisksToJson(r.disks)},
                                 {"progress", SamplesJson(r)},
                                 {"disk_progress", DiskSamplesJson(r)}}})}};
}

}  // namespace scrub_front

const WorkloadFront& ScrubFront() {
  static const TableWorkload<scrub_front::O> front(
      "Scrub a pool: how long, how fast per disk, in the era's scan order", scrub_front::Table(), scrub_front::Run,
      CheckScrubOptions);
  return front;
}

const WorkloadFront& ResilverFront() {
  static const TableWorkload<scrub_front::O> front(
      "Resilver replaced disks (the healing resilver): how long the pool runs without its redundancy",
      scrub_front::ResilverTable(), scrub_front::Run, CheckScrubOptions);
  return front;
}

}  // namespace ziosim
