#include "sim/calibration/pool_fit.h"

#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>

#include "sim/calibration/drive_toml.h"
#include "sim/calibration/least_squares.h"
#include "sim/core/status.h"
#include "sim/core/text.h"
#include "sim/trace/line_reader.h"
#include "sim/zfs/pool_spec.h"

namespace ziosim {
namespace {

// Rate grid: 2^(k/8) for k = -8..8 (0.5x to 2x), then coarse x 2^(k/64) for k = -4..4.
constexpr int kCoarseSteps = 8;
constexpr double kCoarseStepsPerOctave = 8;
constexpr int kFineSteps = 4;
constexpr double kFineStepsPerOctave = 64;
constexpr int kMaxIterations = 8;
// Levenberg-Marquardt damping: start nearly Gauss-Newton, up to 4 tenfold increases per iteration.
constexpr double kInitialDamping = 1e-3;
constexpr int kDampingAttempts = 4;
// Forward-difference steps: 5 % of the rate, half the overhead (at least
// 50 us), large enough to step over the simulation's event-level granularity.
constexpr double kScaleStep = 0.05;
constexpr double kOverheadStepFraction = 0.5;
constexpr double kMinOverheadStepUs = 50;
// Converged when a step moves the rate by under 0.5 % and the overhead by under 1 us.
constexpr double kScaleTolerance = 0.005;
constexpr double kOverheadToleranceUs = 1;

double ParseField(std::string_view text, const std::string& file, int line, const char* field) {
  const std::string s(Trim(text));
  try {
    size_t used = 0;
    const double v = std::stod(s, &used);
    if (used == s.size() && std::isfinite(v)) return v;
  } catch (const std::exception&) {
  }
  throw InputError(file, line, std::string("field ") + field + ": expected a number, got \"" + s + "\"");
}

// The keys a fit moves, by drive kind.
struct Knobs {
  std::vector<std::string> rates;
  std::vector<std::string> overheads;
};

Knobs KnobsFor(DriveSpec::Kind kind) {
  if (kind == DriveSpec::Kind::kSsd) return {{"channel_mb_s", "interface_mb_s"}, {"controller_overhead_us"}};
  return {{"outer_mb_s", "inner_mb_s"}, {"read_miss_overhead_us", "read_hit_overhead_us"}};
}

class PoolModel {
 public:
  PoolModel(const ReadersOptions& options, const std::string& scratch_dir, int seeds)
      : options_(options), seeds_(seeds) {
    spec_ = ParsePoolSpec(options.pool, options.ashift);
    std::set<std::string> drives;
    for (const PoolSpecVdev& v : spec_.vdevs) {
      for (const PoolSpecLeaf& leaf : v.leaves) drives.insert(leaf.drive);
    }
    if (drives.size() != 1) {
      throw InputError("calibrate --pool: the pool's data disks use " + std::to_string(drives.size()) +
                       " different drives; the fit needs one");
    }
    drive_name_ = *drives.begin();
    base_ = ResolveDrive(drive_name_);
    if (base_.values.empty()) {
      throw InputError("calibrate --pool: drive " + drive_name_ + " is a DiskSim spec; the fit needs a catalog drive");
    }
    knobs_ = KnobsFor(base_.kind);
    min_overhead_us_ = 1e300;
    for (const std::string& k : knobs_.overheads) min_overhead_us_ = std::min(min_overhead_us_, Value(base_.values, k));
    scratch_ = (std::filesystem::path(scratch_dir) / ("ziosim-pool-fit-" + std::to_string(::getpid()) + ".toml")).string();
  }
  ~PoolModel() { std::remove(scratch_.c_str()); }
  PoolModel(const PoolModel&) = delete;
  PoolModel& operator=(const PoolModel&) = delete;

  const DriveSpec& base() const { return base_; }
  const std::string& drive_name() const { return drive_name_; }
  double min_overhead_us() const { return min_overhead_us_; }
  int simulations() const { return simulations_; }

  // The base's figures with the rates scaled and the overheads shifted; with
  // `how`, each changed figure's source says so.
  std::vector<CatalogValue> Figures(double scale, double delta_us, const std::string& how = "") const {
    std::vector<CatalogValue> values = base_.values;
    for (CatalogValue& v : values) {
      const bool rate = std::find(knobs_.rates.begin(), knobs_.rates.end(), v.key) != knobs_.rates.end();
      const bool overhead = std::find(knobs_.overheads.begin(), knobs_.overheads.end(), v.key) != knobs_.overheads.end();
      if (rate) v.value *= scale;
      if (overhead) v.value = std::max(0.0, v.value + delta_us);
      if (how.empty() || !(rate || (overhead && delta_us != 0))) continue;
      v.provenance = how + (rate ? FormatFigure("%.4f x (", scale) : FormatFigure("%+.1f us + (", delta_us)) + v.provenance + ")";
      v.estimated = false;
    }
    return values;
  }

  // Throughput in MB/s for each reader count with the drive's rates scaled and
  // overheads shifted: the mean over the seeds' runs.
  std::map<int, double> Simulate(double scale, double delta_us, const std::vector<int>& readers) {
    const std::string kind = base_.kind == DriveSpec::Kind::kSsd ? "ssd" : "hdd";
    std::ofstream(scratch_) << DriveToml(kind, base_.name, base_.description, Figures(scale, delta_us));
    PoolSpec spec = spec_;
    for (PoolSpecVdev& v : spec.vdevs) {
      for (PoolSpecLeaf& leaf : v.leaves) leaf.drive = scratch_;
    }
    ReadersOptions o = options_;
    o.pool = FormatPoolSpec(spec);
    o.readers = readers;
    std::map<int, double> out;
    for (int k = 0; k < seeds_; ++k) {
      o.seed = options_.seed + static_cast<uint64_t>(k);
      ++simulations_;
      for (const ReadersRun& run : RunReaders(o)) out[run.readers] += run.throughput_mb_s / seeds_;
    }
    return out;
  }

 private:
  static double Value(const std::vector<CatalogValue>& values, const std::string& key) {
    for (const CatalogValue& v : values) {
      if (v.key == key) return v.value;
    }
    throw std::logic_error("internal error: pool fit: drive has no " + key);
  }

  ReadersOptions options_;
  int seeds_;  // runs averaged per simulated point
  PoolSpec spec_;
  std::string drive_name_;
  DriveSpec base_;
  Knobs knobs_;
  double min_overhead_us_ = 0;
  std::string scratch_;
  int simulations_ = 0;
};

// Relative residuals simulated / measured - 1 of the fit points.
Eigen::VectorXd Residuals(const std::map<int, double>& sim, const std::vector<MeasuredPoint>& fit) {
  Eigen::VectorXd r(static_cast<Eigen::Index>(fit.size()));
  for (size_t i = 0; i < fit.size(); ++i) r(static_cast<Eigen::Index>(i)) = sim.at(fit[i].readers) / fit[i].mb_s - 1;
  return r;
}

}  // namespace

std::vector<MeasuredPoint> ReadMeasuredThroughput(const std::string& path) {
  LineReader in(path);
  std::string_view line;
  bool header = false;
  std::vector<MeasuredPoint> points;
  std::set<int> seen;
  while (in.Next(line)) {
    const int number = in.line_number();
    const std::string_view text = Trim(line);
    if (text.empty()) continue;
    if (!header) {
      if (Lower(std::string(text)) != "readers,mb_s") {
        throw InputError(path, number, "expected the header \"readers,mb_s\", got \"" + std::string(text) + "\"");
      }
      header = true;
      continue;
    }
    const size_t comma = text.find(',');
    if (comma == std::string_view::npos || text.find(',', comma + 1) != std::string_view::npos) {
      throw InputError(path, number, "expected two fields \"readers,mb_s\", got \"" + std::string(text) + "\"");
    }
    const double readers = ParseField(text.substr(0, comma), path, number, "readers");
    const double mb_s = ParseField(text.substr(comma + 1), path, number, "mb_s");
    if (readers < 1 || readers != std::floor(readers) || readers > 1e6) {
      throw InputError(path, number, "field readers: expected a whole number of readers >= 1");
    }
    if (!(mb_s > 0)) throw InputError(path, number, "field mb_s: must be positive");
    const int n = static_cast<int>(readers);
    if (!seen.insert(n).second) throw InputError(path, number, "field readers: " + std::to_string(n) + " given twice");
    points.push_back({n, mb_s, number});
  }
  if (points.empty()) throw InputError(path + ": no measured points (expected \"readers,mb_s\" lines after the header)");
  return points;
}

PoolFitResult FitPool(const ReadersOptions& options, const std::vector<MeasuredPoint>& measured,
                      const std::vector<int>& fit_readers, const std::string& scratch_dir,
                      const std::string& measured_label, int seeds) {
  if (seeds < 1) throw InputError("calibrate --pool: --seeds " + std::to_string(seeds) + ": must be at least 1");
  std::vector<MeasuredPoint> fit;
  for (int n : fit_readers) {
    auto it = std::find_if(measured.begin(), measured.end(), [n](const MeasuredPoint& p) { return p.readers == n; });
    if (it == measured.end()) {
      throw InputError("calibrate --pool: --fit-readers " + std::to_string(n) + ": no measured point for it");
    }
    if (std::none_of(fit.begin(), fit.end(), [n](const MeasuredPoint& p) { return p.readers == n; })) fit.push_back(*it);
  }
  if (fit.empty()) throw InputError("calibrate --pool: --fit-readers names no point to fit");
  std::vector<int> fit_counts;
  for (const MeasuredPoint& p : fit) fit_counts.push_back(p.readers);

  PoolModel model(options, scratch_dir, seeds);
  PoolFitResult out;
  out.drive = model.drive_name();
  out.kind = model.base().kind;
  out.overhead_fitted = fit.size() >= 2;
  const double overhead_step = std::max(kMinOverheadStepUs, kOverheadStepFraction * model.min_overhead_us());

  // Throughput is a rough, even locally non-monotonic function of the media
  // rate (sectors per track and skews move in whole sectors, and the stream
  // meets track and zone boundaries at other points), so the rate is first
  // bracketed by a geometric grid, then refined, and only then polished by
  // Levenberg-Marquardt: Gauss-Newton steps, damped towards gradient steps by
  // lambda (scaled by each column's norm) whenever a step fails to lower the
  // residual.
  double scale = 1, delta = 0, lambda = kInitialDamping;
  Eigen::VectorXd r = Residuals(model.Simulate(scale, delta, fit_counts), fit);
  auto try_scale = [&](double candidate) {
    const Eigen::VectorXd rc = Residuals(model.Simulate(candidate, delta, fit_counts), fit);
    if (rc.squaredNorm() < r.squaredNorm()) {
      scale = candidate;
      r = rc;
    }
  };
  for (int k = -kCoarseSteps; k <= kCoarseSteps; ++k) {
    if (k != 0) try_scale(std::exp2(static_cast<double>(k) / kCoarseStepsPerOctave));
  }
  const double coarse = scale;
  for (int k = -kFineSteps; k <= kFineSteps; ++k) {
    if (k != 0) try_scale(coarse * std::exp2(static_cast<double>(k) / kFineStepsPerOctave));
  }
  for (out.iterations = 0; out.iterations < kMaxIterations; ++out.iterations) {
    const int params = out.overhead_fitted ? 2 : 1;
    Eigen::MatrixXd jac(r.size(), params);
    jac.col(0) = (Residuals(model.Simulate(scale * (1 + kScaleStep), delta, fit_counts), fit) - r) / (scale * kScaleStep);
    if (out.overhead_fitted) {
      jac.col(1) = (Residuals(model.Simulate(scale, delta + overhead_step, fit_counts), fit) - r) / overhead_step;
    }
    bool improved = false;
    double next_scale = scale, next_delta = delta;
    Eigen::VectorXd next_r = r;
    for (int attempt = 0; attempt < kDampingAttempts && !improved; ++attempt, lambda *= 10) {
      // min |J step + r|^2 + lambda |D step|^2, D = the columns' norms, as one least-squares system.
      Eigen::MatrixXd a(r.size() + params, params);
      a.topRows(r.size()) = jac;
      a.bottomRows(params) = (std::sqrt(lambda) * jac.colwise().norm().cwiseMax(1e-12)).asDiagonal();
      Eigen::VectorXd b = Eigen::VectorXd::Zero(r.size() + params);
      b.head(r.size()) = -r;
      const Eigen::VectorXd step = FitLinear(a, b).coefficients;
      next_scale = std::clamp(scale + step(0), 0.5 * scale, 2 * scale);
      next_delta = params > 1 ? std::max(delta + step(1), -model.min_overhead_us()) : delta;
      next_r = Residuals(model.Simulate(next_scale, next_delta, fit_counts), fit);
      improved = next_r.squaredNorm() < r.squaredNorm();
    }
    if (!improved) break;
    lambda = std::max(kInitialDamping, lambda / 100);  // undo this round's last x10, then relax
    const bool small = std::abs(next_scale - scale) < kScaleTolerance * scale &&
                       std::abs(next_delta - delta) < kOverheadToleranceUs;
    scale = next_scale;
    delta = next_delta;
    r = next_r;
    if (small) break;
  }
  out.rate_scale = scale;
  out.overhead_delta_us = delta;
  out.fit_rms_pct = 100 * std::sqrt(r.squaredNorm() / static_cast<double>(r.size()));
  std::vector<std::string> counts;
  for (int n : fit_counts) counts.push_back(std::to_string(n));
  out.figures = model.Figures(scale, delta,
                              "calibrated: pool \"" + options.pool + "\" readers " + Join(counts, ", ") + " of " +
                                  measured_label + FormatFigure(", residual %.2f %% rms: ", out.fit_rms_pct));

  std::vector<int> all;
  for (const MeasuredPoint& p : measured) all.push_back(p.readers);
  const std::map<int, double> sim = model.Simulate(scale, delta, all);
  for (const MeasuredPoint& p : measured) {
    const bool held = std::find(fit_counts.begin(), fit_counts.end(), p.readers) == fit_counts.end();
    const double s = sim.at(p.readers);
    out.points.push_back({p, held, s, 100 * (s - p.mb_s) / p.mb_s});
  }
  out.simulations = model.simulations();
  return out;
}

}  // namespace ziosim
