// `demo`: a few seconds that show the product's main job: how fast 1 to 10 dd
// readers read from a 2-way HDD mirror under the mirror balancing policy of
// four ZFS eras, then what the drive catalog's devices do raw. No options; its
// result is one JSON value, as every workload's.
#include "models/catalog/catalog.h"
#include "sim/workload/disk_bench.h"
#include "sim/workload/readers.h"
#include "sim/workload/workload_front.h"

namespace ziosim {
namespace demo_front {

struct Era {
  const char* profile;
  const char* label;
};
constexpr Era kEras[] = {
    {"freebsd-9", "rotor (FreeBSD 9)"},
    {"zol-0.6.2", "least_pending (ZoL 0.6.2)"},
    {"freebsd-10", "load_locality (FreeBSD 10)"},
    {"openzfs-2.2", "load_locality (OpenZFS 2.2)"},
};
constexpr char kPool[] = "mirror 2xwd-re4-1tb";

struct DemoOptions {};

// One row per era and reader count.
Json ReadersRows() {
  Json rows = Json::array();
  for (const Era& e : kEras) {
    ReadersOptions o;
    o.pool = kPool;
    o.profile = e.profile;
    o.readers = {1, 2, 5, 10};
    o.file_size = int64_t{1} << 30;
    for (const ReadersRun& r : RunReaders(o)) {
      rows.push_back({{"profile", e.profile},
                      {"mirror_policy", e.label},
                      {"readers", r.readers},
                      {"throughput_mb_s", r.throughput_mb_s},
                      {"d0_busy_pct", r.disks[0].busy_pct},
                      {"d1_busy_pct", r.disks[1].busy_pct}});
    }
  }
  return rows;
}

// One row per catalog drive: fio-like, 2 s simulated per figure.
Json DriveRows() {
  Json rows = Json::array();
  for (const DriveSpec& d : CatalogDrives()) {
    auto bench = [&](BenchPattern pattern, int64_t bs, int qd) {
      DiskBenchOptions o;
      o.pattern = pattern;
      o.block_bytes = bs;
      o.queue_depth = qd;
      o.runtime_ns = 2 * kNsPerSec;
      return RunDiskBench(d, o);
    };
    rows.push_back({{"drive", d.name},
                    {"kind", d.kind == DriveSpec::Kind::kHdd ? "hdd" : "ssd"},
                    {"seq_1m_mb_s", bench(BenchPattern::kSequential, 1 << 20, 1).mb_s},
                    {"rand_4k_qd1_iops", bench(BenchPattern::kRandom, 4096, 1).iops},
                    {"rand_4k_qd32_iops", bench(BenchPattern::kRandom, 4096, 32).iops}});
  }
  return rows;
}

Json Run(const DemoOptions&) {
  return {{"workload", "demo"}, {"pool", kPool}, {"runs", ReadersRows()}, {"drives", DriveRows()}};
}

}  // namespace demo_front

const WorkloadFront& DemoFront() {
  using demo_front::DemoOptions;
  static const TableWorkload<DemoOptions> front("A few seconds that show what ziosim does",
                                                OptionTable<DemoOptions>("demo", {}), demo_front::Run,
                                                [](const DemoOptions&) {});
  return front;
}

}  // namespace ziosim
