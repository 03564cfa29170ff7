// Fitting a pool's drive to the throughput measured on a real pool: given
// `readers,mb_s` points (N concurrent streaming readers, as `ziosim readers`
// runs them), scale the drive's media rate and shift its per-command overhead
// until RunReaders reproduces the chosen points, then predict the others.
//
// Streaming reads of a pool are set by how fast the disks move data (rate)
// and how much each command costs (overhead, which grows with the readers'
// interleaving); these are the two shared figures fitted, on the relative
// errors. Simulated throughput is rough in the rate, so the rate scale is
// first found on a geometric grid (0.5x to 2x, then refined), then both are
// polished by Levenberg-Marquardt with a forward-difference Jacobian (one
// RunReaders of the fit points per parameter per iteration), each step solved
// by Eigen least squares. One fit point fits the rate scale alone.
//
// A pool's HDDs start at spindle angles drawn from the run seed, and on short
// runs the angles alone move a point by several percent; a fit over `seeds`
// seeds (options.seed, options.seed + 1, ...) matches the mean of their runs.
#ifndef ZIOSIM_SIM_CALIBRATION_POOL_FIT_H_
#define ZIOSIM_SIM_CALIBRATION_POOL_FIT_H_

#include <string>
#include <vector>

#include "models/catalog/catalog.h"
#include "sim/workload/readers.h"

namespace ziosim {

struct MeasuredPoint {
  int readers = 0;
  double mb_s = 0;
  int line = 0;  // in the CSV
};

// A CSV with the header `readers,mb_s` and one point per line (blank lines
// skipped). Throws InputError "FILE:LINE: field NAME: ..." for a bad line, a
// repeated reader count, or a file with no points.
std::vector<MeasuredPoint> ReadMeasuredThroughput(const std::string& path);

struct PoolFitResult {
  std::string drive;            // the pool's data drive that was fitted
  double rate_scale = 1;        // applied to the media (HDD) or channel and link (SSD) rates
  double overhead_delta_us = 0; // added to the per-command overheads
  bool overhead_fitted = false;
  int iterations = 0;
  int simulations = 0;          // RunReaders calls
  double fit_rms_pct = 0;       // relative residual over the fit points
  // The drive's figures after the fit; the fitted ones say so in their source.
  std::vector<CatalogValue> figures;
  DriveSpec::Kind kind = DriveSpec::Kind::kHdd;
  struct Point {
    MeasuredPoint measured;
    bool held_out = false;
    double simulated_mb_s = 0;
    double error_pct = 0;
  };
  std::vector<Point> points;  // every measured point, predicted with the fitted drive
};

// `options.pool` must use one catalog (.toml or named) drive for all its data
// disks; `options.readers` is ignored (the points' counts are used).
// `fit_readers` picks the points to fit (each must be in `measured`); the
// rest are held out. Temporary drive files go under `scratch_dir`.
// `measured_label` (the CSV's name) goes into the fitted figures' sources.
// Each simulated point is the mean throughput of `seeds` runs (>= 1).
PoolFitResult FitPool(const ReadersOptions& options, const std::vector<MeasuredPoint>& measured,
                      const std::vector<int>& fit_readers, const std::string& scratch_dir,
                      const std::string& measured_label, int seeds = 1);

}  // namespace ziosim

#endif  // ZIOSIM_SIM_CALIBRATION_POOL_FIT_H_
