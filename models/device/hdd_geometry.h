// Where each logical block lives on the platters: LBN -> (cylinder, head,
// sector) through zones, reserved front space, the track order within a
// cylinder, spares, slipped and remapped sectors, and the angle at which each
// physical sector starts (track and cylinder skew). Follows DiskSim's
// dm_layout_g1, every mapping and sparing scheme, so that DiskSim drive specs
// map as DiskSim maps them. Immutable after construction, but for the zone look-up
// hints, the memo of track rotations and HddMap's memo of runs: one geometry
// serves one thread (its drive's).
#ifndef ZIOSIM_MODELS_DEVICE_HDD_GEOMETRY_H_
#define ZIOSIM_MODELS_DEVICE_HDD_GEOMETRY_H_

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "models/device/hdd_map.h"
#include "models/device/hdd_params.h"

namespace ziosim {

class HddGeometry final : public HddMap {
 public:
  // Throws InputError if the layout is inconsistent or names an unknown scheme.
  explicit HddGeometry(const HddLayout& layout);

  int surfaces() const override { return surfaces_; }
  int cylinders() const override { return cylinders_; }

  // The first LBN on lbn's track (its zone's first LBN at most).
  // REQUIRES: 0 <= lbn < total_blocks().
  int64_t FirstLbnOnTrack(int64_t lbn) const override;

  int SectorsPerTrack(int cylinder) const override;
  // Index (0 .. spt-1) of the angular slot where physical sector `a` starts; slot k
  // spans [k/spt, (k+1)/spt) of a revolution, angle 0 being the platter's index mark.
  int AngleSlot(const PhysicalAddress& a) const override;
  // AngleSlot and SectorsPerTrack with one zone look-up.
  SectorSlot AngleSlotOnTrack(const PhysicalAddress& a) const override;
  // The same as a fraction of a revolution in [0, 1), including a fractional zone offset.
  double StartAngle(const PhysicalAddress& a) const override;

 private:
  // How a scheme places LBNs around its spares and slips.
  enum class Family {
    kPlain,    // no spares: LBN position = physical sector
    kTracks,   // spare tracks at the zone's end; slips and defects are whole tracks
    kInRange,  // spares in every track, cylinder or range absorb that unit's slips
    kStream,   // slips push every later LBN of the zone forward (slip to end)
  };

  // One zone with everything Map() needs precomputed. Positions inside a zone are
  // counted in physical sectors from the zone's first track (head 0 of its first
  // cylinder), reserved front space included; "units" are sectors, or tracks for
  // Family::kTracks. LBN positions fill `period_usable` of every `period_sectors`
  // physical sectors, starting `period_front` sectors in (kInRange, kStream).
  struct ZoneInfo {
    int first_cylinder = 0;
    int last_cylinder = 0;
    int sectors_per_track = 0;
    int64_t sectors_per_cylinder = 0;
    int64_t first_lbn = 0;
    int64_t blocks = 0;         // LBNs in the zone
    int64_t front_sectors = 0;  // reserved space before the zone's first LBN
    int64_t period_sectors = 0;  // kInRange: the track, cylinder or range; kStream: the cylinder
    int64_t period_usable = 0;   // LBN slots per period (period_sectors less its spares)
    int64_t period_front = 0;    // spares before the slots (spares at the front)
    double offset_sectors = 0;
    int track_skew = 0;
    int cylinder_skew = 0;
    double track_skew_fraction = 0;  // sectors, from skews given in revolutions
    double cylinder_skew_fraction = 0;
    std::vector<int64_t> slips;  // physical units, ascending, distinct
    // slip_keys[i] = (slot of the i-th slip that takes a slot) - i: an LBN at slot x lies
    // past that slip iff x >= slip_keys[i] (nondecreasing, so a binary search counts the
    // slips passed). Slots are physical units for kTracks and kInRange.
    std::vector<int64_t> slip_keys;
    std::vector<std::pair<int64_t, int64_t>> defects;  // (defective, replacement), by defective
  };

  // Checks `zone` (the index-th) against the layout and precomputes its ZoneInfo.
  ZoneInfo MakeZone(const HddZone& zone, size_t index, int64_t first_lbn) const;
  // Checks the slips and defects of `zone` and stores them in `z`.
  void AddSlipsAndDefects(const HddZone& zone, const std::string& label, ZoneInfo* z) const;
  const ZoneInfo& ZoneForLbn(int64_t lbn) const;
  // The zone holding `cylinder`, or the nearest one before it (a cylinder between zones).
  const ZoneInfo& ZoneForCylinder(int cylinder) const;
  // Zone-relative physical unit (sector, or track for kTracks) of zone-relative LBN
  // position `x`, after slips and before defect remapping.
  int64_t PhysicalUnit(const ZoneInfo& z, int64_t x) const;
  // Slips in [from, to).
  static int64_t SlipsIn(const ZoneInfo& z, int64_t from, int64_t to);
  // The replacement of `unit` if it is a listed defect, else `unit`.
  static int64_t Remap(const ZoneInfo& z, int64_t unit);
  // The head that reads the `track`-th track (in LBN order) of `cylinder`, and back.
  int Surface(const ZoneInfo& z, int cylinder, int track) const;
  PhysicalAddress AddressOfSector(const ZoneInfo& z, int64_t sector) const;
  PhysicalAddress AddressOfTrack(const ZoneInfo& z, int64_t track, int sector) const;
  TrackRun ComputeRun(int64_t lbn, int64_t max_blocks) const override;
  // Where slot x of zone z (an LBN's offset in it plus the zone's front sectors)
  // lives: Map without the memo.
  PhysicalAddress MapUnit(const ZoneInfo& z, int64_t x) const;
  // ComputeRun from slot x of zone z, at most `limit` blocks, for the families
  // whose slips and spares are sectors.
  TrackRun SectorRun(const ZoneInfo& z, int64_t x, int64_t limit) const;
  // Where sector `a` starts, in sector widths from the index mark: [0, spt).
  double SectorPosition(const ZoneInfo& z, const PhysicalAddress& a) const;
  // The part of a sector that the skews given in revolutions add to every sector
  // of the track of (cylinder, head), reduced modulo spt (0 without such skews).
  double SkewFraction(const ZoneInfo& z, int cylinder, int head) const;
  // (whole + offset + fraction) modulo spt, in [0, spt): a sector's position from
  // its whole sectors (rotation + sector, in [0, spt)), the zone's offset and the
  // track's SkewFraction, in that order of additions.
  static double PositionOnTrack(int64_t whole, double offset, double fraction, int spt);
  // Whole sectors from the index mark to the start of sector 0 of the track of
  // (cylinder, head), skews and slips included, offsets and fractions not: [0, spt).
  int64_t TrackRotation(const ZoneInfo& z, int cylinder, int head) const;
  // True if the zone's skews and offset are whole sectors: positions are then whole.
  static bool WholeSectorAngles(const ZoneInfo& z);

  std::vector<ZoneInfo> zones_;
  std::vector<int64_t> zone_first_lbn_;  // zones_[i].first_lbn, for binary search
  std::vector<int> zone_first_cylinder_;
  // The last two zones a look-up found, tried before a search.
  struct ZoneHints {
    size_t last = 0;
    size_t earlier = 0;
    // The zone `holds` accepts: one of the two, else the one `search` finds.
    template <typename Holds, typename Search>
    size_t Find(Holds holds, Search search) {
      if (!holds(last)) {
        std::swap(last, earlier);
        if (!holds(last)) last = search();
      }
      return last;
    }
    // Makes `zone` the last one found.
    void Offer(size_t zone) {
      if (zone == last) return;
      earlier = last;
      last = zone;
    }
  };
  mutable ZoneHints lbn_hints_;       // ZoneForLbn's
  mutable ZoneHints cylinder_hints_;  // ZoneForCylinder's, and each zone ZoneForLbn finds
  // What AngleSlot needs of the track it saw last: the next command's first
  // track is often the read-ahead's, positioned (and its angle found) before. A
  // hit needs no zone: the memo holds the track's rotation (TrackRotation), its
  // zone's sectors per track and, where angles are not whole sectors, the zone's
  // offset and the track's SkewFraction.
  struct RotationMemo {
    int cylinder = -1;
    int head = -1;
    int64_t sectors = 0;
    int sectors_per_track = 0;
    bool whole_angles = true;
    double offset_sectors = 0;
    double skew_fraction = 0;
  };
  mutable RotationMemo rotation_memo_;
  int surfaces_ = 0;
  int cylinders_ = 0;
  SparingScheme sparing_ = SparingScheme::kNone;
  Family family_ = Family::kPlain;
  TrackOrder track_order_ = TrackOrder::kConventional;
  int range_size_ = 1;
};

}  // namespace ziosim

#endif  // ZIOSIM_MODELS_DEVICE_HDD_GEOMETRY_H_
