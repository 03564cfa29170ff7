// Fitting a hard drive to a measured trace: given only the drive's capacity
// and rpm, and requests served one at a time with their measured service
// times (a DiskSim validate trace), estimate the catalog's datasheet figures
// -- command overheads, media rate, seek curve, read-ahead -- and write them as
// a catalog drive file whose every figure says how it was obtained.
//
// The method (docs/calibration.md):
//  * cache hits: reads that continue the previous request and cost no more
//    than a line in size allows; latency = overhead + blocks * per-block cost,
//    fitted on a trimmed lower envelope (the misses among such reads lie a
//    rotation above it);
//  * misses: latency - overhead - half a revolution = seek(u) + blocks * t(f),
//    u the seek distance as a fraction of the stroke, f the radial position,
//    seek(u) = a + b sqrt(u) + c u (Ruemmler & Wilkes 1994) and t(f) the
//    per-block media time, linear from the outer to the inner edge; solved by
//    least squares twice, first in LBN fractions, then in the cylinders of the
//    layout the first pass implies;
//  * writes: a write-back cache (median write under a quarter revolution) is
//    fitted like the hits, a write-through one by its mean;
//  * read-ahead: the longest run of sequential hits it has to explain.
#ifndef ZIOSIM_SIM_CALIBRATION_HDD_TRACE_FIT_H_
#define ZIOSIM_SIM_CALIBRATION_HDD_TRACE_FIT_H_

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "models/catalog/catalog.h"
#include "models/device/hdd_params.h"
#include "sim/trace/disksim_validate_trace.h"
#include "sim/workload/overhead_calibration.h"

namespace ziosim {

struct HddTraceFitOptions {
  std::string trace_label;  // the trace's file name, quoted in every figure's source
  int64_t capacity_bytes = 0;
  double rpm = 0;
  std::string inputs_source = "given to the fit";  // where capacity and rpm come from
};

struct HddTraceFit {
  std::vector<CatalogValue> figures;  // the catalog's [hdd] keys, in its order
  int64_t fitted_requests = 0;
  int64_t read_hits = 0, read_misses = 0, writes = 0;
  double hit_share = 0;  // of the fitted reads
  bool write_back = false;
  // Root-mean-square residuals of the three fits. The miss residual is
  // dominated by rotational latency, which no fit can predict per request:
  // uniform over a revolution, its own rms is rev / sqrt(12).
  double hit_rms_ms = 0, miss_rms_ms = 0, write_rms_ms = 0;
  // seek(u) = a + b sqrt(u) + c u in ms, u in fractions of the full stroke.
  double seek_a_ms = 0, seek_b_ms = 0, seek_c_ms = 0;
  int cylinders = 0;  // of the layout the fitted figures build
};

// Throws InputError(trace, line, ...) for the first record that runs past `capacity_bytes`.
void CheckTraceFitsCapacity(std::span<const ValidateRecord> records, int64_t capacity_bytes,
                            const std::string& trace);

// Fits every record of `records` (pass the first half to keep the second for
// validation). Throws InputError naming the trace when the records cannot
// support a fit (too few sequential reads, misses or a bad capacity or rpm).
HddTraceFit FitHddTrace(std::span<const ValidateRecord> records, const HddTraceFitOptions& options);

// A catalog drive file (models/catalog format) holding `fit`'s figures.
std::string HddDriveToml(const HddTraceFit& fit, const std::string& name, const std::string& description);

// The fit's figures and held-out errors side by side, for the CLI's table.
struct HddTraceCheck {
  HeldOutFigures fitted;               // the drive built from the fit, on the second half
  std::optional<HeldOutFigures> spec;  // a reference model (a DiskSim spec), when given
  int64_t held_out_requests = 0;
};

// Replays all of `records` on the fitted drive (and on `spec` if given) in
// validate mode and reports both on the second half. Throws InputError
// (trace_path:line) for a record that does not fit either drive.
HddTraceCheck CheckOnSecondHalf(const HddParams& fitted, const HddParams* spec,
                                std::span<const ValidateRecord> records, const std::string& trace_path);

}  // namespace ziosim

#endif  // ZIOSIM_SIM_CALIBRATION_HDD_TRACE_FIT_H_
