// Where each logical block lives on the platters: LBN -> (cylinder, head,
// sector) through zones, reserved front space, spares, slipped and remapped
// sectors, and the angle at which each physical sector starts (track and
// cylinder skew). Follows DiskSim's dm_layout_g1 so that DiskSim drive specs
// map exactly as DiskSim maps them. Immutable after construction.
#ifndef ZIOSIM_MODELS_DEVICE_HDD_GEOMETRY_H_
#define ZIOSIM_MODELS_DEVICE_HDD_GEOMETRY_H_

#include <cstdint>
#include <vector>

#include "models/device/hdd_params.h"

namespace ziosim {

struct PhysicalAddress {
  int cylinder = 0;
  int head = 0;
  int sector = 0;  // physical sector index on the track, 0 .. spt-1
  bool operator==(const PhysicalAddress&) const = default;
};

// A stretch of consecutive LBNs that sit on one track, in rotational order.
struct TrackRun {
  PhysicalAddress start;      // physical address of the first LBN of the run
  int64_t blocks = 0;         // LBNs in the run
  int64_t physical_span = 0;  // physical sectors the head passes over (>= blocks: slips inside)
};

class HddGeometry {
 public:
  // Throws InputError if the layout is inconsistent or uses an unsupported sparing scheme.
  explicit HddGeometry(const HddLayout& layout);

  int64_t total_blocks() const { return total_blocks_; }
  int surfaces() const { return surfaces_; }
  int cylinders() const { return cylinders_; }

  // REQUIRES: 0 <= lbn < total_blocks().
  PhysicalAddress Map(int64_t lbn) const;
  // The run of LBNs starting at `lbn` that stays on lbn's track, at most `max_blocks` long.
  TrackRun RunOnTrack(int64_t lbn, int64_t max_blocks) const;

  int SectorsPerTrack(int cylinder) const;
  // Index (0 .. spt-1) of the angular slot where physical sector `a` starts; slot k
  // spans [k/spt, (k+1)/spt) of a revolution, angle 0 being the platter's index mark.
  int AngleSlot(const PhysicalAddress& a) const;
  // The same as a fraction of a revolution in [0, 1), including a fractional zone offset.
  double StartAngle(const PhysicalAddress& a) const;

 private:
  struct ZoneInfo;  // zone parameters plus precomputed first LBN and capacity
  const ZoneInfo& ZoneForLbn(int64_t lbn) const;
  const ZoneInfo& ZoneForCylinder(int cylinder) const;

  std::vector<ZoneInfo> zones_;
  int64_t total_blocks_ = 0;
  int surfaces_ = 0;
  int cylinders_ = 0;
  SparingScheme sparing_ = SparingScheme::kNone;
  int range_size_ = 1;
};

}  // namespace ziosim

#endif  // ZIOSIM_MODELS_DEVICE_HDD_GEOMETRY_H_
