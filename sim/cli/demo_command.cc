// `ziosim demo`'s text report, printed from the demo result
// (sim/workload/demo_front.cc); the command is generated from the front.
#include <cstdio>
#include <string>

#include "sim/cli/front_command.h"

namespace ziosim::cli {
namespace {

void ReadersTable(const Json& rows) {
  std::printf("ziosim demo: N dd readers (bs=1M), each reading its own 1 GiB file, on a 2-way mirror of\n"
              "WD RE4 1 TB drives (zpool create p mirror 2xwd-re4-1tb), under four ZFS eras' mirror policy.\n\n");
  std::vector<std::string> eras;
  for (const Json& r : rows) {
    if (eras.empty() || eras.back() != r["mirror_policy"].get<std::string>()) {
      eras.push_back(r["mirror_policy"].get<std::string>());
    }
  }
  const size_t counts = rows.size() / eras.size();
  std::printf("%8s", "readers");
  for (const std::string& e : eras) std::printf(" %28s", e.c_str());
  std::printf("\n%8s", "");
  for (size_t i = 0; i < eras.size(); ++i) std::printf(" %28s", "MB/s (disk busy %)");
  std::printf("\n");
  for (size_t k = 0; k < counts; ++k) {
    std::printf("%8d", rows[k]["readers"].get<int>());
    for (size_t e = 0; e < eras.size(); ++e) {
      const Json& r = rows[e * counts + k];
      char cell[64];
      std::snprintf(cell, sizeof cell, "%.0f (%.0f/%.0f)", r["throughput_mb_s"].get<double>(),
                    r["d0_busy_pct"].get<double>(), r["d1_busy_pct"].get<double>());
      std::printf(" %28s", cell);
    }
    std::printf("\n");
  }
  std::printf("\nOne drive streams ~128 MB/s. The 2 MiB rotor splits every stream over both disks and seeks;\n"
              "least_pending balances in-device queues; load_locality keeps a stream on the disk that\n"
              "just read its previous block. Try: ziosim readers --pool \"mirror 2xwd-re4-1tb\" --profile zol-0.6.2\n\n");
}

void DrivesTable(const Json& rows) {
  std::printf("The drive catalog, raw (fio-like, 2 s simulated per cell; MB = 10^6 bytes):\n");
  std::printf("%-24s %5s %12s %14s %14s\n", "drive", "kind", "seq 1M MB/s", "rand 4K QD1", "rand 4K QD32");
  for (const Json& d : rows) {
    std::printf("%-24s %5s %12.1f %9.0f IOPS %9.0f IOPS\n", d["drive"].get<std::string>().c_str(),
                d["kind"].get<std::string>().c_str(), d["seq_1m_mb_s"].get<double>(),
                d["rand_4k_qd1_iops"].get<double>(), d["rand_4k_qd32_iops"].get<double>());
  }
}

}  // namespace

void PrintDemoText(const Json& result) {
  ReadersTable(result["runs"]);
  DrivesTable(result["drives"]);
}

}  // namespace ziosim::cli
