// Calibrating an HDD's firmware overheads from a validation trace, with the
// error stated on requests held out from the fit. DiskSim specs extracted by
// DIXtrac can be off in their command overheads (the measured Barracuda reads
// are 0.4 ms slower than its spec, hit or miss alike); the fix is a
// measurement, not a new mechanism. The fit: replay the first half with the
// spec, take the mean residual (measured - simulated) per class -- read hits,
// read misses, writes -- and add it to the overheads of that class.
#ifndef ZIOSIM_SIM_WORKLOAD_OVERHEAD_CALIBRATION_H_
#define ZIOSIM_SIM_WORKLOAD_OVERHEAD_CALIBRATION_H_

#include <span>
#include <vector>

#include "models/device/hdd_params.h"
#include "sim/workload/validate_replay.h"

namespace ziosim {

struct OverheadFit {
  double read_hit_ms = 0, read_miss_ms = 0, write_ms = 0;  // added to the spec's overheads
  int64_t fitted_requests = 0;                              // the first half of the trace
};

struct HeldOutFigures {
  double mean_error_pct = 0;
  double demerit_ms = 0;
};

struct OverheadCalibration {
  OverheadFit fit;
  HeldOutFigures spec_held_out;        // the spec's model on the second half
  HeldOutFigures calibrated_held_out;  // the calibrated model on the second half
  ValidateReplayResult calibrated;     // the calibrated model over the whole trace
};

// Fits on the first half of `records`, replays the whole trace with the fit
// applied, and compares both models on the second half.
OverheadCalibration CalibrateOverheads(const HddParams& spec, std::span<const ValidateRecord> records);

// Mean error and demerit of `r`'s second half: the requests a first-half fit never saw.
HeldOutFigures SecondHalfFigures(const ValidateReplayResult& r);

// `spec` with the fitted offsets added to its overheads (never below zero).
HddParams ApplyOverheadFit(HddParams spec, const OverheadFit& fit);

}  // namespace ziosim

#endif  // ZIOSIM_SIM_WORKLOAD_OVERHEAD_CALIBRATION_H_
