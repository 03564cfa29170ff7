// `ziosim calibrate`: fits a drive's catalog figures to measurements of the
// real device and writes a catalog drive file, reporting the fit's residuals
// and its error on measurements held out of the fit. Three sources:
//
//   --kind hdd --trace TRACE (--spec PARV | --capacity SIZE --rpm N) -o DRIVE.toml
//       a trace with measured service times (DiskSim validate format): fit on
//       the first half, replay the second (next to the DiskSim spec's model);
//   --kind hdd|ssd FIO_JSON... [--base DRIVE] [--holdout TEXT]... -o DRIVE.toml
//       fio results (scripts/calibration-kit): fit on the files whose names
//       contain no --holdout text, simulate every run;
//   --pool SPEC --measured READERS.csv --fit-readers 1,2,4 [--seeds N] -o DRIVE.toml
//       a pool's measured readers,mb_s: fit the drive's rate and overhead on
//       the chosen reader counts (each simulated N times, mean), predict the others.
//
// And one mode that fits no drive:
//
//   --kind host -o HOST.toml
//       microbenchmarks of this machine's CPU (sim/calibration/host_bench.h)
//       written as a host profile of ziosim_cpu_* tunables (--host FILE).
//
// The front (sim/workload/workload_front.h): its options are the table below, and
// its result is the JSON value `--json` prints, one object per mode; `ziosim
// calibrate`'s text report (sim/cli/calibrate_command.cc) is printed from it.
// See docs/calibration.md.

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "sim/calibration/calibrate_front.h"

#include "models/catalog/catalog.h"
#include "models/device/hdd.h"
#include "models/disksim/disksim_import.h"
#include "sim/calibration/drive_toml.h"
#include "sim/calibration/fio_fit.h"
#include "sim/calibration/fio_results.h"
#include "sim/calibration/hdd_trace_fit.h"
#include "sim/calibration/host_bench.h"
#include "sim/calibration/host_figures.h"
#include "sim/calibration/host_toml.h"
#include "sim/calibration/pool_fit.h"
#include "sim/core/output_file.h"
#include "sim/core/simulation.h"
#include "sim/core/status.h"
#include "sim/core/text.h"
#include "sim/core/units.h"
#include "sim/trace/disksim_validate_trace.h"
#include "sim/workload/option_groups.h"
#include "sim/workload/readers.h"
#include "sim/workload/validate_replay.h"
#include "sim/workload/workload_front.h"
#include "sim/zfs/host_profile.h"
#include "sim/zfs/tunables.h"

namespace ziosim {
namespace {

struct CalibrateOptions {
  std::string output;
  std::string kind;
  std::vector<std::string> fio_files;
  std::string trace_path;
  std::string spec_path;
  std::string capacity;
  double rpm = 0;
  std::string base;
  std::vector<std::string> holdout;
  int64_t ios = 5000;
  std::string pool;
  std::string measured;
  std::vector<int> fit_readers;
  std::string bs = "1M", file_size = "128M", recordsize = "128K", profile = std::string(kDefaultProfile);
  std::string layout = "sequential";
  Settings settings;
  int ashift = 12;
  uint64_t seed = 1;
  int seeds = 1;
  std::string name;
};

using O = CalibrateOptions;

OptionTable<O> Table() {
  return OptionTable<O>(
      "calibrate",
      {
          Required(Flags({"-o", "--output"}, TextOption("output", &O::output,
                                                        "Drive file (.toml) to write; with --kind host, the host "
                                                        "profile"))),
          Flags({"fio_json"}, TextListOption("fio_json", &O::fio_files,
                                             "fio JSON results (--output-format=json), e.g. from "
                                             "scripts/calibration-kit")),
          TextOption("kind", &O::kind,
                     "Drive kind to fit: hdd or ssd (trace and fio modes); host: measure this machine's CPU "
                     "costs instead (a few seconds) and write a host profile"),
          TextOption("name", &O::name, "Drive name in the file (default: the output's file name)"),
          Flags({"--trace"}, TextOption("trace", &O::trace_path,
                                        "Trace mode: a DiskSim validate trace with measured service times")),
          Flags({"--spec"}, TextOption("spec", &O::spec_path,
                                       "Trace mode: DiskSim .parv of the drive; only its capacity and rpm are used, "
                                       "and its model is compared")),
          TextOption("capacity", &O::capacity, "Trace mode: drive capacity (e.g. 2147483648, 4T)"),
          RealOption("rpm", &O::rpm, "Trace mode: spindle speed"),
          TextOption("base", &O::base,
                     "fio mode: drive whose other figures are kept (default generic-ssd / generic-7200-hdd)"),
          TextListOption("holdout", &O::holdout,
                         "fio mode: hold out files whose name contains this text (repeatable)"),
          IntOption("ios", &O::ios, "fio mode: completions simulated per run"),
          TextOption("pool", &O::pool,
                     "Pool mode: the measured pool in zpool syntax, e.g. \"raidz2 6xhgst-nas-4tb\""),
          TextOption("measured", &O::measured, "Pool mode: CSV with header readers,mb_s"),
          IntListOption("fit_readers", &O::fit_readers,
                        "Pool mode: reader counts to fit (default: every other point)"),
          TextOption("bs", &O::bs, "Pool mode: bytes per read() call"),
          TextOption("file_size", &O::file_size, "Pool mode: each reader's file"),
          TextOption("recordsize", &O::recordsize, "Pool mode: dataset recordsize"),
          TextOption("profile", &O::profile, "Pool mode: era profile"),
          [] {
            Option<O> o = TunablesOption(&O::settings);
            o.info.doc = "Pool mode: tunable NAME=VALUE (repeatable)";
            o.info.section.clear();
            o.info.key.clear();
            return o;
          }(),
          TextOption("layout", &O::layout, "Pool mode: on-disk layout preset"),
          IntOption("ashift", &O::ashift, "Pool mode: sector shift"),
          IntOption("seed", &O::seed, "Pool mode: random seed"),
          IntOption("seeds", &O::seeds,
                    "Pool mode: runs per simulated point, seeds --seed, --seed + 1, ...: the fit matches their "
                    "mean (each seed draws other spindle angles)"),
      });
}

std::string DriveName(const CalibrateOptions& opt) {
  return opt.name.empty() ? std::filesystem::path(opt.output).stem().string() : opt.name;
}

// Writes the drive file and loads it back through the catalog, exactly as
// `--drive FILE.toml` or a pool spec naming the file would.
DriveSpec WriteDrive(const CalibrateOptions& opt, std::string_view kind, const std::string& description,
                     std::span<const CatalogValue> figures) {
  AtomicFile out(opt.output);
  out.stream() << DriveToml(kind, DriveName(opt), description, figures);
  out.Commit();
  return LoadDriveFile(opt.output);
}

Json FiguresJson(std::span<const CatalogValue> figures) {
  Json j = Json::object();
  for (const CatalogValue& v : figures) j[v.key] = {{"value", v.value}, {v.estimated ? "estimated" : "source", v.provenance}};
  return j;
}

// ---------------------------------------------------------------- trace mode

// Capacity and rpm: from --spec (its blocks x 512 and its rpm, nothing else),
// overridden by --capacity / --rpm.
HddTraceFitOptions FitInputs(const CalibrateOptions& opt, const HddParams* spec) {
  HddTraceFitOptions in;
  in.trace_label = std::filesystem::path(opt.trace_path).filename().string();
  if (spec != nullptr) {
    Simulation sim;
    in.capacity_bytes = HddDevice(&sim, spec->name, *spec).capacity_bytes();
    in.rpm = spec->mechanics.rpm;
    in.inputs_source = "DiskSim spec " + std::filesystem::path(opt.spec_path).filename().string() +
                       " (only capacity and rpm are taken from it)";
  }
  if (!opt.capacity.empty()) {
    in.capacity_bytes = ParsePositiveSize(opt.capacity, "--capacity");
    in.inputs_source = "given on the command line";
  }
  if (opt.rpm != 0) {
    if (!(opt.rpm > 0)) throw InputError("calibrate: --rpm must be positive");
    in.rpm = opt.rpm;
    in.inputs_source = "given on the command line";
  }
  if (in.capacity_bytes == 0 || in.rpm == 0) {
    throw InputError("calibrate: --trace needs the drive's capacity and rpm: --capacity and --rpm, or --spec");
  }
  return in;
}

Json HeldJson(const HeldOutFigures& h) {
  return Json{{"mean_error_pct", h.mean_error_pct}, {"demerit_ms", h.demerit_ms}};
}

Json RunTrace(const CalibrateOptions& opt) {
  if (opt.kind != "hdd") throw InputError("calibrate: --trace fits an HDD (--kind hdd), not --kind " + opt.kind);
  DisksimValidateTrace trace(opt.trace_path);
  const std::vector<ValidateRecord> records = ReadValidateRecords(trace);
  std::optional<HddParams> spec;
  if (!opt.spec_path.empty()) spec = ImportDisksimDrive(opt.spec_path, DisksimHost::kInTimes).params;
  const HddTraceFitOptions inputs = FitInputs(opt, spec ? &*spec : nullptr);
  CheckTraceFitsCapacity(records, inputs.capacity_bytes, opt.trace_path);  // all of it, before anything is written
  const HddTraceFit fit = FitHddTrace(std::span(records).first(records.size() / 2), inputs);
  const DriveSpec drive = WriteDrive(opt, "hdd",
                                     "Fitted by ziosim calibrate to " + inputs.trace_label + " (first half of " +
                                         std::to_string(records.size()) + " requests)",
                                     fit.figures);
  const HddTraceCheck check = CheckOnSecondHalf(drive.hdd, spec ? &*spec : nullptr, records, opt.trace_path);
  Json j;
  j["trace"] = opt.trace_path;
  j["output"] = opt.output;
  j["fitted_requests"] = fit.fitted_requests;
  j["read_hits"] = fit.read_hits;
  j["read_misses"] = fit.read_misses;
  j["writes"] = fit.writes;
  j["hit_share"] = fit.hit_share;
  j["write_back"] = fit.write_back;
  j["residual_rms_ms"] = {{"hit", fit.hit_rms_ms}, {"miss", fit.miss_rms_ms}, {"write", fit.write_rms_ms}};
  j["seek_curve_ms"] = {{"a", fit.seek_a_ms}, {"b_sqrt_u", fit.seek_b_ms}, {"c_u", fit.seek_c_ms},
                        {"cylinders", fit.cylinders}};
  j["figures"] = FiguresJson(fit.figures);
  j["held_out"] = {{"requests", check.held_out_requests}, {"fitted", HeldJson(check.fitted)}};
  if (check.spec) j["held_out"]["spec"] = HeldJson(*check.spec);
  return j;
}

// ---------------------------------------------------------------- fio mode

bool HeldOut(const std::string& file, const std::vector<std::string>& holdout) {
  const std::string name = std::filesystem::path(file).filename().string();
  for (const std::string& h : holdout) {
    if (name.find(h) != std::string::npos) return true;
  }
  return false;
}

Json RunFio(const CalibrateOptions& opt) {
  if (opt.kind != "hdd" && opt.kind != "ssd") throw InputError("calibrate: --kind must be hdd or ssd, got " + opt.kind);
  if (opt.ios <= 0) throw InputError("calibrate: --ios must be positive");
  const DriveSpec base = ResolveDrive(opt.base.empty() ? (opt.kind == "ssd" ? "generic-ssd" : "generic-7200-hdd") : opt.base);
  if ((base.kind == DriveSpec::Kind::kSsd) != (opt.kind == "ssd")) {
    throw InputError("calibrate: --base " + base.name + " is not an " + opt.kind + " drive");
  }
  std::vector<FioRun> runs, fit_runs;
  std::vector<bool> held;
  for (const std::string& f : opt.fio_files) {
    for (FioRun& r : ReadFioJson(f)) {
      held.push_back(HeldOut(f, opt.holdout));
      if (!held.back()) fit_runs.push_back(r);
      runs.push_back(std::move(r));
    }
  }
  std::string label = std::to_string(fit_runs.size()) + " runs";
  if (!opt.holdout.empty()) label += " (files without: " + Join(opt.holdout, " or ") + ")";
  const FioFit fit = FitFio(base, fit_runs, label);
  const DriveSpec drive = WriteDrive(opt, opt.kind, "Fitted by ziosim calibrate to fio results over base " + base.name,
                                     fit.figures);
  const std::vector<FioPrediction> predictions = PredictFio(drive, runs, held, opt.ios);
  Json j;
  j["base"] = base.name;
  j["output"] = opt.output;
  j["fitted_keys"] = fit.fitted;
  j["residual_rms_us"] = {{"random_latency", fit.random_rms_us}, {"sequential_time", fit.sequential_rms_us}};
  j["figures"] = FiguresJson(fit.figures);
  Json runs_json = Json::array();
  for (const FioPrediction& p : predictions) {
    runs_json.push_back({{"file", p.run->file}, {"run", p.run->Label()}, {"held_out", p.held_out},
                         {"measured_mb_s", p.run->mb_s}, {"simulated_mb_s", p.simulated_mb_s},
                         {"error_pct", p.error_pct}});
  }
  j["runs"] = runs_json;
  // How many of the fitted runs each fit used (the text report's first line).
  j["random_runs"] = fit.random_runs;
  j["sequential_runs"] = fit.sequential_runs;
  return j;
}

// ---------------------------------------------------------------- pool mode

Json RunPool(const CalibrateOptions& opt) {
  if (opt.measured.empty()) throw InputError("calibrate: --pool needs --measured READERS.csv");
  const std::vector<MeasuredPoint> measured = ReadMeasuredThroughput(opt.measured);
  std::vector<int> fit_readers = opt.fit_readers;
  if (fit_readers.empty()) {
    // Default: every other point, starting with the first, so that some are held out.
    for (size_t i = 0; i < measured.size(); i += 2) fit_readers.push_back(measured[i].readers);
  }
  ReadersOptions o;
  o.pool = opt.pool;
  o.ashift = opt.ashift;
  o.profile = opt.profile;
  o.settings = opt.settings;
  o.bs = ParsePositiveSize(opt.bs, "--bs");
  o.file_size = ParsePositiveSize(opt.file_size, "--file-size");
  o.recordsize = ParsePositiveSize(opt.recordsize, "--recordsize");
  o.layout = opt.layout;
  o.seed = opt.seed;
  const std::filesystem::path out_dir = std::filesystem::absolute(opt.output).parent_path();
  const PoolFitResult fit = FitPool(o, measured, fit_readers, out_dir.string(),
                                    std::filesystem::path(opt.measured).filename().string(), opt.seeds);
  const std::string kind = fit.kind == DriveSpec::Kind::kSsd ? "ssd" : "hdd";
  WriteDrive(opt, kind, "Fitted by ziosim calibrate --pool from drive " + fit.drive, fit.figures);
  Json j;
  j["drive"] = fit.drive;
  j["output"] = opt.output;
  j["rate_scale"] = fit.rate_scale;
  j["overhead_delta_us"] = fit.overhead_fitted ? Json(fit.overhead_delta_us) : Json(nullptr);
  j["iterations"] = fit.iterations;
  j["simulations"] = fit.simulations;
  j["fit_rms_pct"] = fit.fit_rms_pct;
  Json points = Json::array();
  for (const PoolFitResult::Point& p : fit.points) {
    points.push_back({{"readers", p.measured.readers}, {"held_out", p.held_out}, {"measured_mb_s", p.measured.mb_s},
                      {"simulated_mb_s", p.simulated_mb_s}, {"error_pct", p.error_pct}});
  }
  j["points"] = points;
  return j;
}

// ---------------------------------------------------------------- host mode

Json SizesJson(const HostBench& bench) {
  Json rows = Json::array();
  for (const HostSizeRow& r : bench.sizes) {
    Json row = {{"bytes", r.bytes}};
    auto rate = [&](const std::string& what, const OpTiming* t) {
      row[what + "_mb_s"] = t != nullptr ? Json(RateMbS(r.bytes, *t)) : Json();
      row[what + "_spread_pct"] = t != nullptr ? Json(t->spread_pct) : Json();
    };
    auto cost = [&](const std::string& what, const OpTiming& t) {
      row[what + "_ns"] = t.median_ns;
      row[what + "_spread_pct"] = t.spread_pct;
    };
    rate("memset", &r.memset);
    rate("memcpy", &r.memcpy);
    rate("fletcher4", &r.fletcher4);
    rate("lz4", r.lz4 ? &*r.lz4 : nullptr);
    cost("malloc_free", r.malloc_free);
    cost("page_alloc", r.page_alloc);
    rows.push_back(row);
  }
  return rows;
}

// Figures as the drive modes list them; one not measured shows the default it keeps.
Json HostFiguresJson(std::span<const HostFigure> figures) {
  const Tunables defaults;
  Json j = Json::object();
  for (const HostFigure& f : figures) {
    j[f.tunable] = f.measured ? Json{{"value", f.value}, {"source", f.source}}
                              : Json{{"value", defaults.Int(f.tunable)}, {"estimated", f.source}};
  }
  return j;
}

// Measures, writes the profile and loads it back exactly as --host FILE would.
Json RunHost(const CalibrateOptions& opt) {
  const HostBench bench = RunHostBench();
  const std::vector<HostFigure> figures = HostFigures(bench);
  AtomicFile out(opt.output);
  out.stream() << HostToml(bench, figures);
  out.Commit();
  LoadHostFile(opt.output);
  const PageAllocFit fit = FitPageAlloc(bench);
  Json j;
  j["host"] = HostLabel(bench);
  j["cpu_model"] = bench.cpu_model;
  j["cores"] = bench.cores;
  j["virtual_machine"] = bench.virtual_machine;
  j["date"] = bench.date;
  j["output"] = opt.output;
  j["repeats"] = kHostRepeats;
  j["syscall_ns"] = {{"pread_tmpfs", bench.pread_tmpfs ? Json(bench.pread_tmpfs->median_ns) : Json()},
                     {"read_dev_zero", bench.read_dev_zero.median_ns}};
  j["page_alloc_fit"] = {{"per_call_ns", fit.per_call_ns}, {"per_page_ns", fit.per_page_ns},
                         {"rms_pct", fit.rms_pct}, {"zero_page_ns", fit.zero_page_ns}};
  j["figures"] = HostFiguresJson(figures);
  j["sizes"] = SizesJson(bench);
  return j;
}

// Which mode, or InputError; `run` false: only the checks made before any file is read.
Json Calibrate(const CalibrateOptions& opt, bool run) {
  if (opt.kind == "host") {
    if (!opt.trace_path.empty() || !opt.fio_files.empty() || !opt.pool.empty()) {
      throw InputError("calibrate: --kind host measures this machine and takes no --trace, fio JSON or --pool");
    }
    return run ? RunHost(opt) : Json();
  }
  const int modes = !opt.trace_path.empty() + !opt.fio_files.empty() + !opt.pool.empty();
  if (modes != 1) {
    throw InputError("calibrate: give one of --trace TRACE, fio JSON files, or --pool SPEC (got " +
                     std::to_string(modes) + ")");
  }
  if (!opt.pool.empty()) return run ? RunPool(opt) : Json();
  if (opt.kind.empty()) throw InputError("calibrate: --kind hdd or ssd is required with --trace or fio files");
  if (!opt.trace_path.empty()) return run ? RunTrace(opt) : Json();
  return run ? RunFio(opt) : Json();
}

}  // namespace

const WorkloadFront& CalibrateFront() {
  static const TableWorkload<CalibrateOptions> front(
      "Fit a drive's catalog figures to measurements of the real device (a trace with service times, fio "
      "results, or a pool's readers,mb_s), write a catalog drive file, and report the error on held-out data",
      Table(), [](const O& o) { return Calibrate(o, true); }, [](const O& o) { Calibrate(o, false); });
  return front;
}

}  // namespace ziosim
