// `ziosim scrub`'s text report, printed from the scrub result
// (sim/workload/scrub_front.cc): a `zpool status`-like summary and progress,
// then the per-disk table.
#include <cstdio>
#include <string>

#include "sim/cli/front_command.h"
#include "sim/core/text.h"
#include "sim/core/units.h"
#include "sim/zfs/pool_report.h"

namespace ziosim::cli {
namespace {

// zpool status's duration: "0 days 01:23:45".
std::string Duration(double seconds) {
  const long long s = static_cast<long long>(seconds + 0.5);
  char buf[64];
  std::snprintf(buf, sizeof buf, "%lld days %02lld:%02lld:%02lld", s / 86400, s % 86400 / 3600, s % 3600 / 60, s % 60);
  return buf;
}

// At most this many progress lines: every k-th slice, and the last.
constexpr size_t kProgressLines = 20;

}  // namespace

void PrintScrubText(const Json& result) {
  const Json& r = result["runs"][0];
  std::printf("pool     %s   (profile %s, %s scan)\n", result["pool"].get<std::string>().c_str(),
              result["profile"].get<std::string>().c_str(), result["scan"].get<std::string>().c_str());
  std::printf("data     %d file(s) of %s, recordsize %s, layout %s; before them: CAP %lld %%, FRAG %lld %%\n",
              result["files"].get<int>(), SizeText(result["file_size_bytes"].get<int64_t>()).c_str(),
              SizeText(result["recordsize_bytes"].get<int64_t>()).c_str(),
              result["layout"].get<std::string>().c_str(), static_cast<long long>(r["cap_pct_before"].get<int64_t>()),
              static_cast<long long>(r["frag_pct_before"].get<int64_t>()));
  const double issued = static_cast<double>(r["issued_bytes"].get<int64_t>());
  const double total = static_cast<double>(r["to_examine_bytes"].get<int64_t>());
  const bool resilver = result["workload"] == "resilver";
  const char* what = resilver ? "resilver" : "scrub";
  if (r["complete"].get<bool>() && resilver) {
    std::printf("scan:    resilvered %s in %s with 0 errors (%s replaced)\n",
                NiceBytes(r["repair_bytes"].get<int64_t>()).c_str(), Duration(r["elapsed_s"].get<double>()).c_str(),
                Join(result["replaced"].get<std::vector<std::string>>(), ", ").c_str());
  } else if (r["complete"].get<bool>()) {
    std::printf("scan:    scrub repaired 0B in %s with 0 errors\n", Duration(r["elapsed_s"].get<double>()).c_str());
  } else {
    std::printf("scan:    %s in progress: %s issued of %s (%.1f %%) after %s; predicted whole %s %s\n", what,
                NiceBytes(static_cast<int64_t>(issued)).c_str(), NiceBytes(static_cast<int64_t>(total)).c_str(),
                total > 0 ? 100.0 * issued / total : 0.0, Duration(r["elapsed_s"].get<double>()).c_str(), what,
                Duration(r["predicted_s"].get<double>()).c_str());
  }
  std::printf("         %s to examine, issued at %.1f MB/s; %lld scan reads, %lld indirect-block reads, %lld txgs",
              NiceBytes(static_cast<int64_t>(total)).c_str(), r["issued_mb_s"].get<double>(),
              static_cast<long long>(r["scan_reads"].get<int64_t>()),
              static_cast<long long>(r["indirect_reads"].get<int64_t>()),
              static_cast<long long>(r["txgs"].get<int64_t>()));
  if (result["scan"] == "sorted") {
    std::printf(" (%lld issuing for memory); queues peaked at %s of %s",
                static_cast<long long>(r["clearing_txgs"].get<int64_t>()),
                NiceBytes(r["peak_queue_bytes"].get<int64_t>()).c_str(),
                NiceBytes(r["queue_limit_bytes"].get<int64_t>()).c_str());
  }
  if (result["readers"].get<int>() > 0) {
    std::printf("\nreaders  %d beside the scan: %.1f MB/s together", result["readers"].get<int>(),
                r["readers_mb_s"].get<double>());
  }
  std::printf("\n\nprogress (zpool status after each txg)\n%10s %14s %14s  %s\n", "t (s)", "examined", "issued",
              "the txg");
  const Json& rows = r["progress"];
  const size_t step = rows.size() / kProgressLines + 1;
  for (size_t i = 0; i < rows.size(); ++i) {
    if (i % step != 0 && i + 1 != rows.size()) continue;
    std::printf("%10.1f %14s %14s  %s\n", rows[i]["t_s"].get<double>(),
                NiceBytes(rows[i]["examined_bytes"].get<int64_t>()).c_str(),
                NiceBytes(rows[i]["issued_bytes"].get<int64_t>()).c_str(),
                rows[i]["phase"].get<std::string>().c_str());
  }
  std::printf("\n%s", FormatDiskTable(r["disks"]).c_str());
}

}  // namespace ziosim::cli
