// `ziosim demo`: a few seconds that show the product's main job: how fast 1 to
// 10 dd readers read from a 2-way HDD mirror under the mirror balancing policy
// of four ZFS eras, then what the drive catalog's devices do raw.
#include <cstdio>
#include <string>
#include <vector>

#include "models/catalog/catalog.h"
#include "sim/cli/commands.h"
#include "sim/workload/disk_bench.h"
#include "sim/workload/readers.h"

namespace ziosim::cli {
namespace {

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

void ReadersTable() {
  const std::vector<int> counts = {1, 2, 5, 10};
  std::vector<std::vector<ReadersRun>> results;
  for (const Era& e : kEras) {
    ReadersOptions o;
    o.pool = "mirror 2xwd-re4-1tb";
    o.profile = e.profile;
    o.readers = counts;
    o.file_size = int64_t{1} << 30;
    results.push_back(RunReaders(o));
  }
  std::printf("ziosim demo: N dd readers (bs=1M), each reading its own 1 GiB file, on a 2-way mirror of\n"
              "WD RE4 1 TB drives (zpool create p mirror 2xwd-re4-1tb), under four ZFS eras' mirror policy.\n\n");
  std::printf("%8s", "readers");
  for (const Era& e : kEras) std::printf(" %28s", e.label);
  std::printf("\n%8s", "");
  for (size_t i = 0; i < std::size(kEras); ++i) std::printf(" %28s", "MB/s (disk busy %)");
  std::printf("\n");
  for (size_t r = 0; r < counts.size(); ++r) {
    std::printf("%8d", counts[r]);
    for (const auto& runs : results) {
      const ReadersRun& run = runs[r];
      char cell[64];
      std::snprintf(cell, sizeof cell, "%.0f (%.0f/%.0f)", run.throughput_mb_s, run.disks[0].busy_pct,
                    run.disks[1].busy_pct);
      std::printf(" %28s", cell);
    }
    std::printf("\n");
  }
  std::printf("\nOne drive streams ~128 MB/s. The 2 MiB rotor splits every stream over both disks and seeks;\n"
              "least_pending balances in-device queues; load_locality keeps a stream on the disk that\n"
              "just read its previous block. Try: ziosim readers --pool \"mirror 2xwd-re4-1tb\" --profile zol-0.6.2\n\n");
}

void DrivesTable() {
  std::printf("The drive catalog, raw (fio-like, 2 s simulated per cell; MB = 10^6 bytes):\n");
  std::printf("%-24s %5s %12s %14s %14s\n", "drive", "kind", "seq 1M MB/s", "rand 4K QD1", "rand 4K QD32");
  for (const DriveSpec& d : CatalogDrives()) {
    auto bench = [&](BenchPattern pattern, int64_t bs, int qd) {
      DiskBenchOptions o;
      o.pattern = pattern;
      o.block_bytes = bs;
      o.queue_depth = qd;
      o.runtime_ns = 2 * kNsPerSec;
      return RunDiskBench(d, o);
    };
    std::printf("%-24s %5s %12.1f %9.0f IOPS %9.0f IOPS\n", d.name.c_str(),
                d.kind == DriveSpec::Kind::kHdd ? "hdd" : "ssd", bench(BenchPattern::kSequential, 1 << 20, 1).mb_s,
                bench(BenchPattern::kRandom, 4096, 1).iops, bench(BenchPattern::kRandom, 4096, 32).iops);
  }
}

}  // namespace

void AddDemoCommand(CLI::App& app) {
  CLI::App* cmd = app.add_subcommand("demo", "A few seconds that show what ziosim does");
  cmd->callback([] {
    ReadersTable();
    DrivesTable();
  });
}

}  // namespace ziosim::cli
