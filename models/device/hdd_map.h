// The interface through which the HDD model asks where a logical block lives: a
// zoned layout computed from a few numbers per zone (HddGeometry, DiskSim's
// dm_layout_g1), or an explicit table of extents (HddExtentMap, DiskSim's
// dm_layout_g2 and g4). MakeHddMap picks the one a layout describes.
#ifndef ZIOSIM_MODELS_DEVICE_HDD_MAP_H_
#define ZIOSIM_MODELS_DEVICE_HDD_MAP_H_

#include <cstdint>
#include <memory>

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
  int sectors_per_track = 0;  // of the run's track: SectorsPerTrack(start.cylinder)
};

class HddMap {
 public:
  virtual ~HddMap() = default;

  virtual int64_t total_blocks() const = 0;
  virtual int surfaces() const = 0;
  virtual int cylinders() const = 0;

  // REQUIRES: 0 <= lbn < total_blocks().
  virtual PhysicalAddress Map(int64_t lbn) const = 0;
  // The run of LBNs starting at `lbn` that stays on lbn's track, at most `max_blocks` long.
  // REQUIRES: 0 <= lbn. The run is empty if max_blocks <= 0 or lbn >= total_blocks().
  virtual TrackRun RunOnTrack(int64_t lbn, int64_t max_blocks) const = 0;
  // The first LBN of the stretch of lbn's track that holds lbn.
  // REQUIRES: 0 <= lbn < total_blocks().
  virtual int64_t FirstLbnOnTrack(int64_t lbn) const = 0;

  virtual int SectorsPerTrack(int cylinder) const = 0;
  // Index (0 .. spt-1) of the angular slot where physical sector `a` starts; slot k
  // spans [k/spt, (k+1)/spt) of a revolution, angle 0 being the platter's index mark.
  virtual int AngleSlot(const PhysicalAddress& a) const = 0;
  // AngleSlot(a) and SectorsPerTrack(a.cylinder) at once, for the rotational wait
  // every access computes: a map that finds both with one look-up says so here.
  struct SectorSlot {
    int slot = 0;
    int sectors_per_track = 0;
  };
  virtual SectorSlot AngleSlotOnTrack(const PhysicalAddress& a) const {
    return {AngleSlot(a), SectorsPerTrack(a.cylinder)};
  }
  // The same as a fraction of a revolution in [0, 1).
  virtual double StartAngle(const PhysicalAddress& a) const = 0;
};

// The map `layout` describes: its extents if it lists any, else its zones.
// Throws InputError if the layout is inconsistent.
std::unique_ptr<HddMap> MakeHddMap(const HddLayout& layout);

}  // namespace ziosim

#endif  // ZIOSIM_MODELS_DEVICE_HDD_MAP_H_
