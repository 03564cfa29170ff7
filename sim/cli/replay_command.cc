// `ziosim replay TRACE --target DRIVE|POOL`'s text report, printed from the
// replay result (sim/workload/replay_front.cc): the trace, the target, the
// pacing, the notes, then the simulated latencies beside the measured ones
// (mean error, demerit; all requests, reads, writes, and per traced device
// with --per-device). The command is generated from the workload's option
// table (front_command.h).
#include <algorithm>
#include <cstdio>
#include <string>

#include "sim/cli/front_command.h"
#include "sim/zfs/pool_report.h"

namespace ziosim::cli {
namespace {

std::string Fixed(double v, int decimals) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*f", decimals, v);
  return buf;
}

long long Count(const Json& v) { return static_cast<long long>(v.get<int64_t>()); }

// "16K", "3G": the largest binary unit that divides `bytes` exactly.
std::string BinarySize(int64_t bytes) {
  static constexpr const char* kUnits[] = {"", "K", "M", "G", "T"};
  int unit = 0;
  while (unit < 4 && bytes >= 1024 && bytes % 1024 == 0) {
    bytes /= 1024;
    ++unit;
  }
  return std::to_string(bytes) + kUnits[unit];
}

// The "target" line: the drive, or the pool and its zvol.
std::string TargetText(const Json& r) {
  const std::string target = r["target"].get<std::string>();
  if (r["target_kind"] == "drive") {
    return target + " (" + r["drive_kind"].get<std::string>() + ", " +
           Fixed(r["capacity_bytes"].get<double>() / 1e9, 1) + " GB, queue depth " +
           std::to_string(r["queue_depth"].get<int>()) + ")";
  }
  const std::string pool = "pool \"" + target + "\" (profile " + r["profile"].get<std::string>() + "): ";
  const std::string rest = ", layout " + r["layout"].get<std::string>() + ", primarycache " +
                           r["primarycache"].get<std::string>();
  if (r["data"] == "files") {
    const int64_t files = r["files"].get<int64_t>();
    return pool + std::to_string(files) + (files == 1 ? " file" : " files") + " of " +
           Fixed(r["file_bytes"].get<double>() / 1e6, 2) + " MB in all, recordsize " +
           BinarySize(r["recordsize_bytes"].get<int64_t>()) + rest;
  }
  return pool + "a zvol of " + Fixed(r["volsize_bytes"].get<double>() / 1e9, 2) + " GB, volblocksize " +
         BinarySize(r["volblocksize_bytes"].get<int64_t>()) + rest;
}

// One line of the comparison table: requests, measured and simulated mean, mean error, demerit.
void PrintComparisonRow(const std::string& label, const Json& c) {
  if (c["requests"] == 0) return;
  if (c["measured_requests"] == 0) {
    std::printf("  %-10s %9lld %12s %12s\n", label.c_str(), Count(c["requests"]), "-",
                Fixed(c["sim_mean_ms"].get<double>(), 4).c_str());
    return;
  }
  std::printf("  %-10s %9lld %12s %12s %+11.1f %% %12s\n", label.c_str(), Count(c["requests"]),
              Fixed(c["measured_mean_ms"].get<double>(), 4).c_str(),
              Fixed(c["sim_mean_of_measured_ms"].get<double>(), 4).c_str(), c["mean_error_pct"].get<double>(),
              Fixed(c["demerit_ms"].get<double>(), 4).c_str());
}

void PrintHeader(const Json& r, const Json& run) {
  std::printf("trace      %s (%s): %lld requests (%lld reads, %lld writes)\n", r["trace"].get<std::string>().c_str(),
              r["format"].get<std::string>().c_str(), Count(run["requests"]), Count(run["reads"]),
              Count(run["writes"]));
  if (run["skipped"] > 0 || run["ignored"] > 0 || run["unmatched"] > 0) {
    std::printf("           %lld malformed lines skipped, %lld requests without data or of other kinds ignored, "
                "%lld unmatched events\n",
                Count(run["skipped"]), Count(run["ignored"]), Count(run["unmatched"]));
  }
  if (run["skipped_writes"] > 0) std::printf("           %lld writes passed over (--reads-only)\n", Count(run["skipped_writes"]));
  if (run["other_devices"] > 0) {
    std::printf("           %lld requests of other devices passed over (--device %s)\n", Count(run["other_devices"]),
                r["device"].get<std::string>().c_str());
  }
  std::printf("target     %s\n", TargetText(r).c_str());
  std::printf("mode       %s", r["mode"].get<std::string>().c_str());
  if (r["mode"] == "open") std::printf(" (speed %g)", r["speed"].get<double>());
  std::printf("\n");
  for (const Json& note : r["notes"]) std::printf("note       %s\n", note.get<std::string>().c_str());
  if (run["realigned"] > 0) {
    std::printf("note       %lld requests were widened to whole %lld-byte sectors\n", Count(run["realigned"]),
                Count(r["sector_bytes"]));
  }
  std::printf("simulated  %.3f s: %.2f MB/s, %.1f IOPS (at most %lld requests waiting for the target)\n",
              run["elapsed_s"].get<double>(), run["throughput_mb_s"].get<double>(), run["iops"].get<double>(),
              Count(run["max_waiting"]));
  if (r["target_kind"] == "pool") {
    std::printf("%-10s ARC hits %.1f %% of demand block reads, %.1f MB read from disks for %.1f MB asked\n",
                r["data"].get<std::string>().c_str(), run["arc_hit_pct"].get<double>(),
                run["disk_bytes_read"].get<double>() / 1e6, run["bytes"].get<double>() / 1e6);
  }
  std::printf("\n");
}

void PrintLatencies(const Json& a) {
  const auto ms = [](const Json& v) { return Fixed(v.get<double>(), 4); };
  if (a["measured_requests"] == 0) {
    std::printf("  %-6s %12s\n", "ms", "simulated");
    for (const char* q : {"mean", "p50", "p90", "p99"}) {
      std::printf("  %-6s %12s\n", q, ms(a["sim_" + std::string(q) + "_ms"]).c_str());
    }
    std::printf("\nthe trace carries no measured latencies: nothing to compare\n");
    return;
  }
  std::printf("  %-6s %12s %12s", "ms", "measured", "simulated");
  if (a["measured_requests"] != a["requests"]) {
    std::printf("   (over the %lld requests with a measured latency)", Count(a["measured_requests"]));
  }
  std::printf("\n");
  // Beside the measured figures, the simulated ones of the same requests.
  for (const char* q : {"mean", "p50", "p90", "p99"}) {
    std::printf("  %-6s %12s %12s\n", q, ms(a["measured_" + std::string(q) + "_ms"]).c_str(),
                ms(a["sim_" + std::string(q) + "_of_measured_ms"]).c_str());
  }
  std::printf("\nmean error  %+.2f %%\n", a["mean_error_pct"].get<double>());
  std::printf("demerit     %.4f ms (%.2f %% of the measured mean)\n", a["demerit_ms"].get<double>(),
              a["demerit_pct"].get<double>());
}

// Several instances, or several counts of them: one line per count, as `readers` prints.
void PrintInstances(const Json& r) {
  const Json& first = r["runs"][0];
  std::printf("trace      %s (%s): %lld requests per instance\n", r["trace"].get<std::string>().c_str(),
              r["format"].get<std::string>().c_str(), Count(first["requests"]) / Count(first["readers"]));
  std::printf("target     %s\n", TargetText(r).c_str());
  std::printf("mode       %s", r["mode"].get<std::string>().c_str());
  if (r["mode"] == "open") std::printf(" (speed %g)", r["speed"].get<double>());
  std::printf(", instances %s, started %g s apart\n",
              r["same_data"].get<bool>() ? "all on one copy of the data" : "each on its own copy of the data",
              r["stagger_s"].get<double>());
  for (const Json& note : r["notes"]) std::printf("note       %s\n", note.get<std::string>().c_str());
  std::printf("\n%7s %10s %26s %10s %10s %12s %9s %8s %6s %6s\n", "readers", "MB/s", "per instance MB/s",
              "sim ms", "sim p99", "measured ms", "error", "disk/app", "CPU %", "disk %");
  std::printf("%7s %10s %26s %10s %10s %12s %9s %8s %6s %6s\n", "", "total", "min / mean / max", "mean", "ms",
              "mean", "of mean", "", "", "max");
  for (const Json& run : r["runs"]) {
    double busiest = 0;
    for (const Json& d : run["disks"]) busiest = std::max(busiest, d["busy_pct"].get<double>());
    const bool measured = run["measured_requests"] > 0;
    std::printf("%7lld %10.1f %8.1f / %6.1f / %6.1f %10.3f %10.3f %12s %9s %8.2f %6.1f %6.1f\n", Count(run["readers"]),
                run["throughput_mb_s"].get<double>(), run["per_instance_min_mb_s"].get<double>(),
                run["per_instance_mean_mb_s"].get<double>(), run["per_instance_max_mb_s"].get<double>(),
                run["sim_mean_ms"].get<double>(), run["sim_p99_ms"].get<double>(),
                measured ? Fixed(run["measured_mean_ms"].get<double>(), 3).c_str() : "-",
                measured ? (Fixed(run["mean_error_pct"].get<double>(), 1) + " %").c_str() : "-",
                run["amplification"].get<double>(), run["cpu_busy_pct"].get<double>(), busiest);
  }
  std::printf("\nmeasured ms: the latencies the trace recorded (one instance, as captured); error: the simulated "
              "mean of those requests against them\n");
  std::printf("wall time   %.4f s (the last run)\n", r["runs"].back()["wall_seconds"].get<double>());
}

}  // namespace

void PrintReplayText(const Json& r) {
  if (r["runs"].size() > 1 || r["runs"][0].value("readers", 1) > 1) {
    PrintInstances(r);
    return;
  }
  const Json& run = r["runs"][0];
  PrintHeader(r, run);
  PrintLatencies(run);
  if ((run["reads"] > 0 && run["writes"] > 0) || r["per_device"].get<bool>()) {
    std::printf("\n  %-10s %9s %12s %12s %13s %12s\n", "", "requests", "measured ms", "sim ms", "mean error",
                "demerit ms");
    PrintComparisonRow("reads", run["read"]);
    PrintComparisonRow("writes", run["write"]);
    for (const Json& d : run.value("devices", Json::array())) {
      PrintComparisonRow("dev " + d["device"].get<std::string>(), d);
    }
  }
  if (!run["exact_quantiles"].get<bool>()) std::printf("(quantiles from a log histogram, resolution 0.025 %%)\n");
  if (r["target_kind"] == "pool") std::printf("\n%s", FormatDiskTable(run["disks"]).c_str());
  std::printf("wall time   %.4f s\n", run["wall_seconds"].get<double>());
}

}  // namespace ziosim::cli
