#include "sim/zfs/pool_report.h"

#include <cstdio>

namespace ziosim {

namespace {

DiskReport ReportOne(const Pool& pool, size_t i, SimTime elapsed_ns) {
  const LeafVdev& leaf = *pool.leaves()[i];
  const DeviceStats& d = leaf.device().stats();
  const VdevQueueStats& q = leaf.queue().stats();
  const LeafStats& l = leaf.stats();
  const double elapsed = static_cast<double>(elapsed_ns);
  DiskReport r;
  r.name = leaf.name();
  r.drive = pool.leaf_drive(i);
  const Vdev* top = pool.top(pool.leaf_top(i));
  r.vdev = top == &leaf ? leaf.name() : top->name();
  if (pool.leaf_top(i) >= pool.top_count()) r.vdev = "log/" + r.vdev;  // zpool iostat -v's "logs" section
  r.busy_pct = elapsed > 0 ? 100.0 * static_cast<double>(d.busy_ns()) / elapsed : 0;
  r.reads = d.reads();
  r.read_bytes = d.read_bytes();
  r.read_mb_s = elapsed > 0 ? static_cast<double>(d.read_bytes()) / elapsed * 1e3 : 0;
  r.zios = l.zios;
  r.aggregated = q.aggregated;
  r.aggregated_zios = q.aggregated_zios;
  r.gap_bytes = q.gap_bytes;
  r.split = l.split_ios;
  r.mean_active = elapsed > 0 ? l.active_ns_sum / elapsed : 0;
  r.mean_queued = elapsed > 0 ? l.queued_ns_sum / elapsed : 0;
  const uint64_t commands = d.reads() + d.writes();
  r.mean_service_ms = commands > 0 ? NsToMs(d.total_service_ns()) / static_cast<double>(commands) : 0;
  const VdevCacheStats& vc = leaf.cache().stats();
  r.vdev_cache_hits = vc.hits;
  r.vdev_cache_delegations = vc.delegations;
  r.vdev_cache_misses = vc.misses;
  for (int k = 0; k < Log2Histogram::kBuckets; ++k) r.seek_log2_cylinders[k] = d.seek_cylinders().bucket(k);
  const Vdev* parent = leaf.parent();
  for (size_t c = 0; c < parent->children().size(); ++c) {
    if (parent->child(c) == &leaf) r.mirror_chosen = parent->ChildSelections(c);
  }
  return r;
}

}  // namespace

std::vector<DiskReport> ReportDisks(const Pool& pool, SimTime elapsed_ns) {
  std::vector<DiskReport> out;
  for (size_t i = 0; i < pool.leaves().size(); ++i) out.push_back(ReportOne(pool, i, elapsed_ns));
  return out;
}

nlohmann::ordered_json DisksToJson(const std::vector<DiskReport>& disks) {
  nlohmann::ordered_json arr = nlohmann::ordered_json::array();
  for (const DiskReport& r : disks) {
    // Trailing empty buckets carry nothing.
    size_t last = 0;
    for (size_t k = 0; k < r.seek_log2_cylinders.size(); ++k) if (r.seek_log2_cylinders[k] > 0) last = k + 1;
    arr.push_back({{"disk", r.name}, {"drive", r.drive}, {"vdev", r.vdev}, {"busy_pct", r.busy_pct},
                   {"reads", r.reads}, {"read_bytes", r.read_bytes}, {"read_mb_s", r.read_mb_s},
                   {"zios", r.zios}, {"aggregated", r.aggregated}, {"aggregated_zios", r.aggregated_zios},
                   {"gap_bytes", r.gap_bytes}, {"split", r.split}, {"mean_active", r.mean_active},
                   {"mean_queued", r.mean_queued}, {"mean_service_ms", r.mean_service_ms},
                   {"mirror_chosen", r.mirror_chosen}, {"vdev_cache_hits", r.vdev_cache_hits},
                   {"vdev_cache_delegations", r.vdev_cache_delegations},
                   {"vdev_cache_misses", r.vdev_cache_misses},
                   {"seek_log2_cylinders", std::vector<uint64_t>(r.seek_log2_cylinders.begin(),
                                                                 r.seek_log2_cylinders.begin() + last)}});
  }
  return arr;
}

std::string FormatDiskTable(const nlohmann::ordered_json& disks) {
  std::string out;
  char line[256];
  std::snprintf(line, sizeof line, "%-4s %-22s %-12s %6s %8s %9s %8s %7s %6s %7s %7s %8s\n", "disk", "drive",
                "vdev", "busy%", "reads", "MB/s", "zios", "agg", "split", "active", "queued", "svc ms");
  out += line;
  for (const nlohmann::ordered_json& r : disks) {
    std::snprintf(line, sizeof line, "%-4s %-22s %-12s %6.1f %8llu %9.1f %8llu %7llu %6llu %7.2f %7.2f %8.3f\n",
                  r["disk"].get<std::string>().c_str(), r["drive"].get<std::string>().c_str(),
                  r["vdev"].get<std::string>().c_str(), r["busy_pct"].get<double>(), r["reads"].get<unsigned long long>(),
                  r["read_mb_s"].get<double>(), r["zios"].get<unsigned long long>(),
                  r["aggregated"].get<unsigned long long>(), r["split"].get<unsigned long long>(),
                  r["mean_active"].get<double>(), r["mean_queued"].get<double>(), r["mean_service_ms"].get<double>());
    out += line;
  }
  return out;
}

}  // namespace ziosim
