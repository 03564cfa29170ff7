// Fitting a drive to fio results (the calibration kit's job set, or any fio
// 3.x JSON of read jobs). The measurements are means per run, so the fits are
// of a few figures on top of a base drive whose other figures are kept:
//
//   Times per request are q / IOPS (Little's law, q = iodepth x numjobs), so
//   that they include the host's time between I/Os, as throughput does.
//   SSD: random reads, t(q) = a + b q: QD1 time L1 = a + b, and past
//        saturation each further command adds b = 1 / IOPS_max, which is
//        taken as the controller's (cores x b per command); tR is what L1
//        leaves after the controller, link and transfer costs;
//        sequential reads, t(q) = c + d q: the host link's ceiling block / d,
//        one stream's rate past the fixed costs block / (t1 - L1) (t1 from
//        the single-stream runs, else the line's t(1)) spread over the
//        channels, and as many dies as keep the link busy.
//   HDD: sequential single-stream reads -> the outer zone's rate (the inner
//        one keeps the base's ratio); random QD1 latency - rev/2 - the base's
//        overheads - transfer -> the average seek (single and full stroke
//        scaled with it); deeper queues are left to the model's reordering,
//        and the held-out runs show how well it does.
//
// Every fit is least squares (Eigen) over the runs given; runs held out of
// the fit are then predicted by simulating each as `ziosim disk-bench` would.
#ifndef ZIOSIM_SIM_CALIBRATION_FIO_FIT_H_
#define ZIOSIM_SIM_CALIBRATION_FIO_FIT_H_

#include <span>
#include <string>
#include <vector>

#include "models/catalog/catalog.h"
#include "sim/calibration/fio_results.h"

namespace ziosim {

struct FioFit {
  std::vector<CatalogValue> figures;  // the base's figures, the fitted ones replaced
  std::vector<std::string> fitted;    // keys that were fitted
  double random_rms_us = 0;           // residual of latency(q) over the random runs
  double sequential_rms_us = 0;       // residual of t(q) over the sequential runs
  int random_runs = 0, sequential_runs = 0;
};

// Throws InputError when `runs` hold too little to fit `base`'s kind: an SSD
// needs random 4 KiB-class reads (block <= 64 KiB) at two or more depths and
// sequential reads; an HDD needs a random QD1 run and a sequential one.
// `label` (e.g. "rep1 files") goes into each fitted figure's source.
FioFit FitFio(const DriveSpec& base, std::span<const FioRun> runs, const std::string& label);

struct FioPrediction {
  const FioRun* run = nullptr;
  bool held_out = false;
  double simulated_mb_s = 0;
  double error_pct = 0;  // (simulated - measured) / measured
};

// Simulates every run on `drive` (a disk-bench job of the same pattern, block
// size, depth and jobs; `ios_per_run` completions).
std::vector<FioPrediction> PredictFio(const DriveSpec& drive, std::span<const FioRun> runs,
                                      const std::vector<bool>& held_out, int64_t ios_per_run);

}  // namespace ziosim

#endif  // ZIOSIM_SIM_CALIBRATION_FIO_FIT_H_
