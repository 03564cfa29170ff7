// Turns the handful of figures a datasheet (or a benchmark review) gives for a
// hard drive into the full HddParams the HDD model needs: a zoned layout whose
// sustained rates match the stated outer and inner rates, skews that let a
// sequential read cross tracks without losing a revolution, the three-point
// seek curve, a segmented cache, firmware overheads and the SATA bus.
#ifndef ZIOSIM_MODELS_CATALOG_HDD_FROM_DATASHEET_H_
#define ZIOSIM_MODELS_CATALOG_HDD_FROM_DATASHEET_H_

#include <cstdint>
#include <string>

#include "models/device/hdd_params.h"
#include "sim/core/time.h"

namespace ziosim {

struct HddDatasheet {
  int64_t capacity_bytes = 0;
  double rpm = 0;
  int surfaces = 0;  // data heads
  int zones = 0;     // recording zones to model (>= 2)
  // Sustained sequential read rates (MB/s = 10^6 B/s) at the outer and inner
  // edge, as a benchmark measures them: track and cylinder switches included.
  double outer_mb_s = 0;
  double inner_mb_s = 0;
  double seek_single_ms = 0;       // one cylinder
  double seek_average_ms = 0;      // read, over random pairs
  double seek_full_stroke_ms = 0;
  double head_switch_ms = 0;
  int64_t cache_bytes = 0;         // buffer given to the segmented read cache
  int cache_segments = 0;
  int64_t read_ahead_bytes = 0;    // read-ahead past the end of a request
  double read_miss_overhead_us = 0;
  double read_hit_overhead_us = 0;
  double write_overhead_us = 0;
  double completion_overhead_us = 0;
  double sata_gbit_s = 0;          // link rate: 1.5, 3 or 6
  int queue_depth = 0;             // NCQ tags
};

// REQUIRES: the datasheet was checked (positive figures, inner <= outer, zones >= 2,
// capacity a multiple of 512). The layout's usable blocks equal capacity / 512
// exactly: cylinders are the fewest that hold the capacity, and the surplus
// (less than one cylinder) is left unused at the front of the innermost zone.
HddParams DeriveHddParams(const HddDatasheet& sheet, const std::string& name, const std::string& source);

// Usable 512-byte blocks of a layout without sparing (front space subtracted).
int64_t LayoutBlocks(const HddLayout& layout);

// Sequential read rate over whole cylinders of `zone`, in MB/s: each track is
// one revolution of data followed by its skew (the cylinder skew once per cylinder).
double ZoneSustainedMbS(const HddZone& zone, int surfaces, double revolution_ns);

// 60 s / rpm in (fractional) ns.
inline double RevolutionNs(double rpm) { return 60e9 / rpm; }

}  // namespace ziosim

#endif  // ZIOSIM_MODELS_CATALOG_HDD_FROM_DATASHEET_H_
