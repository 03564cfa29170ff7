// `ziosim calibrate`'s text report, printed from the calibrate result
// (sim/calibration/calibrate_front.cc, one object per mode: a drive fit, or
// the host's measurements); the command is
// generated from the front.
#include <cstdio>
#include <string>
#include <vector>

#include "models/catalog/catalog.h"
#include "sim/calibration/drive_toml.h"
#include "sim/cli/front_command.h"
#include "sim/core/units.h"

namespace ziosim::cli {
namespace {

std::string Fixed(double v, int decimals) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*f", decimals, v);
  return buf;
}

long long Count(const Json& v) { return v.get<long long>(); }
double Real(const Json& v) { return v.get<double>(); }
const char* Text(const Json& v) { return v.get_ref<const std::string&>().c_str(); }

// The figures as the result lists them: {"key": {"value": v, "source" | "estimated": why}}.
void PrintFigures(const Json& figures) {
  for (const auto& [key, f] : figures.items()) {
    CatalogValue v{.key = key, .value = Real(f["value"]), .estimated = f.contains("estimated")};
    v.provenance = f[v.estimated ? "estimated" : "source"].get<std::string>();
    std::printf("  %-24s %14s  %s\n", v.key.c_str(), CatalogNumber(v).c_str(),
                v.estimated ? "(estimated)" : v.provenance.starts_with("calibrated") ? "(calibrated)" : "");
  }
}

void PrintTrace(const Json& j) {
  const Json& rms = j["residual_rms_ms"];
  const Json& seek = j["seek_curve_ms"];
  std::printf("fitted on %s requests 1..%lld: %lld read hits (%.1f %% of reads), %lld misses, %lld writes (%s)\n",
              Text(j["trace"]), Count(j["fitted_requests"]), Count(j["read_hits"]), 100 * Real(j["hit_share"]),
              Count(j["read_misses"]), Count(j["writes"]), j["write_back"].get<bool>() ? "buffered" : "written through");
  std::printf("residuals  hit %.3f ms rms, miss %.3f ms rms, write %.3f ms rms\n", Real(rms["hit"]), Real(rms["miss"]),
              Real(rms["write"]));
  std::printf("seek(u)    %.3f + %.3f sqrt(u) + %.3f u ms, u = distance / stroke of %d cylinders\n\n", Real(seek["a"]),
              Real(seek["b_sqrt_u"]), Real(seek["c_u"]), seek["cylinders"].get<int>());
  PrintFigures(j["figures"]);
  const Json& held = j["held_out"];
  std::printf("\nwrote %s\nheld-out second half (%lld requests)\n", Text(j["output"]), Count(held["requests"]));
  std::printf("  fitted: mean error %+.2f %%, demerit %.4f ms\n", Real(held["fitted"]["mean_error_pct"]),
              Real(held["fitted"]["demerit_ms"]));
  if (held.contains("spec")) {
    std::printf("  spec:   mean error %+.2f %%, demerit %.4f ms\n", Real(held["spec"]["mean_error_pct"]),
                Real(held["spec"]["demerit_ms"]));
  }
}

void PrintFio(const Json& j) {
  size_t fitted = 0;
  for (const Json& r : j["runs"]) fitted += r["held_out"].get<bool>() ? 0 : 1;
  std::printf("fitted %zu of %zu runs over base %s: %d random, %d sequential\n", fitted, j["runs"].size(),
              Text(j["base"]), j["random_runs"].get<int>(), j["sequential_runs"].get<int>());
  std::printf("residuals  random latency(q) %.1f us rms, sequential t(q) %.1f us rms\n\n",
              Real(j["residual_rms_us"]["random_latency"]), Real(j["residual_rms_us"]["sequential_time"]));
  PrintFigures(j["figures"]);
  std::printf("\nwrote %s\n\n  %-48s %9s %11s %11s %8s\n", Text(j["output"]), "run", "", "measured", "simulated",
              "error");
  for (const Json& r : j["runs"]) {
    std::printf("  %-48s %9s %11s %11s %+7.1f%%\n", Text(r["run"]), r["held_out"].get<bool>() ? "held out" : "fitted",
                Fixed(Real(r["measured_mb_s"]), 1).c_str(), Fixed(Real(r["simulated_mb_s"]), 1).c_str(),
                Real(r["error_pct"]));
  }
}

void PrintPool(const Json& j) {
  std::printf("drive %s: rate x %.4f", Text(j["drive"]), Real(j["rate_scale"]));
  if (!j["overhead_delta_us"].is_null()) std::printf(", overhead %+.1f us", Real(j["overhead_delta_us"]));
  std::printf(" (%d iterations, %d simulations; fit residual %.2f %% rms)\nwrote %s\n\n", j["iterations"].get<int>(),
              j["simulations"].get<int>(), Real(j["fit_rms_pct"]), Text(j["output"]));
  std::printf("  %7s %9s %11s %11s %8s\n", "readers", "", "measured", "simulated", "error");
  for (const Json& p : j["points"]) {
    std::printf("  %7d %9s %11s %11s %+7.1f%%\n", p["readers"].get<int>(), p["held_out"].get<bool>() ? "held out" : "fitted",
                Fixed(Real(p["measured_mb_s"]), 1).c_str(), Fixed(Real(p["simulated_mb_s"]), 1).c_str(),
                Real(p["error_pct"]));
  }
}

// A rate or a time of the size table, "-" where not measured.
std::string Cell(const Json& v) { return v.is_null() ? "-" : Fixed(Real(v), 0); }

void PrintHost(const Json& j) {
  std::printf("host %s, %s; median of %d timed loops per figure\n\n", Text(j["host"]), Text(j["date"]),
              j["repeats"].get<int>());
  const char* row = "  %8s %10s %10s %10s %10s %12s %12s\n";
  std::printf(row, "size", "memset", "memcpy", "fletcher4", "lz4", "malloc+free", "mmap+fault");
  std::printf(row, "", "MB/s", "MB/s", "MB/s", "MB/s", "ns", "ns");
  for (const Json& r : j["sizes"]) {
    std::printf(row, SizeText(r["bytes"].get<int64_t>()).c_str(), Cell(r["memset_mb_s"]).c_str(),
                Cell(r["memcpy_mb_s"]).c_str(), Cell(r["fletcher4_mb_s"]).c_str(), Cell(r["lz4_mb_s"]).c_str(),
                Cell(r["malloc_free_ns"]).c_str(), Cell(r["page_alloc_ns"]).c_str());
  }
  const Json& fit = j["page_alloc_fit"];
  std::printf("\npage allocation %.0f ns + %.1f ns/page (rms %.0f %%); read() of /dev/zero %.0f ns, "
              "pread() on tmpfs %s ns\n\n",
              Real(fit["per_call_ns"]), Real(fit["per_page_ns"]), Real(fit["rms_pct"]),
              Real(j["syscall_ns"]["read_dev_zero"]), Cell(j["syscall_ns"]["pread_tmpfs"]).c_str());
  for (const auto& [key, f] : j["figures"].items()) {
    std::printf("  %-38s %10lld  %s\n", key.c_str(), Count(f["value"]), f.contains("estimated") ? "(estimated)" : "");
  }
  std::printf("\nwrote %s\n", Text(j["output"]));
}

}  // namespace

void PrintCalibrateText(const Json& result) {
  if (result.contains("sizes")) return PrintHost(result);
  if (result.contains("trace")) return PrintTrace(result);
  if (result.contains("base")) return PrintFio(result);
  PrintPool(result);
}

}  // namespace ziosim::cli
