#include "models/device/hdd_geometry.h"

#include <algorithm>
#include <cassert>
#include <cmath>
#include <span>
#include <string>

#include "sim/core/sorted_search.h"
#include "sim/core/status.h"

// The rules follow DiskSim 4.0's dm_layout_g1 (see the glossary, section 4.2). An LBN's
// zone-relative position x counts the zone's reserved front space; slips then push x
// forward over slipped units, and a listed defect is replaced by its spare.
//
// The schemes fall into four families (Family). Spares per track (3), per cylinder
// (2, 5) and per range of cylinders (8) absorb the slips of their own unit: a unit's
// LBNs fill its first usable sectors after the slips (its last ones when the spares
// sit at the front, 5). The slip-to-end schemes (4, 6, 7, 9, 10) let a slip push every
// later LBN of the zone forward: the usable sectors of the zone (every cylinder's less
// its spares for 4 and 6) form one stream from which slipped sectors are removed.
//
// DiskSim walks each slip list in the order given, counting a slip when it lies at or
// before the position reached so far. Here the slips are sorted once, and the count is
// a binary search: slip i (ascending) is passed by position x iff slips[i] - i <= x. The
// two agree for any ascending list. Atlas III's zone 1 lists a few slips out of order;
// there DiskSim's walk puts 87 of the drive's 17.8 M LBNs on a slipped sector or on
// another LBN's sector, where this code skips the slips (none of those LBNs occurs in
// DiskSim's validation trace; every LBN of the other five drives maps identically).
//
// Three places where DiskSim's code and its stated scheme disagree follow the scheme:
// * per-cylinder spares (2, 5) take the cylinder's own slips; DiskSim's ltop wraps the
//   last LBNs of a cylinder with slips onto the next cylinder's first sectors, where
//   other LBNs already live;
// * spares at the cylinder's front (5, 6) are at the front; DiskSim's ltop ignores
//   the placement (its ptol honours it) and maps them as 2 and 4;
// * in the slip-to-end streams (4, 6) a slip on a spare sector takes no LBN's place.
// Slips also rotate every later track by one sector for schemes 2-6, as in DiskSim.

namespace ziosim {
namespace {

[[noreturn]] void Fail(const std::string& what) { throw InputError("HDD layout: " + what); }

bool IsKnown(SparingScheme scheme) {
  const int n = static_cast<int>(scheme);
  return n >= 0 && n <= static_cast<int>(SparingScheme::kZoneEndSlipToEnd);
}

bool IsSlipToEnd(SparingScheme scheme) {
  switch (scheme) {
    case SparingScheme::kSectorsPerCylinderSlipToEnd:
    case SparingScheme::kSectorsPerCylinderAtFrontSlipToEnd:
    case SparingScheme::kDiskEnd:
    case SparingScheme::kZoneEnd:
    case SparingScheme::kZoneEndSlipToEnd:
      return true;
    default:
      return false;
  }
}

bool IsPerCylinder(SparingScheme scheme) {
  const int n = static_cast<int>(scheme);
  return n == 2 || (n >= 4 && n <= 6);
}

bool SparesAtFront(SparingScheme scheme) {
  return scheme == SparingScheme::kSectorsPerCylinderAtFront ||
         scheme == SparingScheme::kSectorsPerCylinderAtFrontSlipToEnd;
}

// DiskSim shifts a track's start by one sector per slip before it for these schemes.
bool SlipsShiftSkew(SparingScheme scheme) {
  return IsPerCylinder(scheme) || scheme == SparingScheme::kSectorsPerTrack;
}

// LBNs in a zone: its sectors less the reserved front space and what the scheme sets
// aside (dm_layout_g1_compute_blksinband).
int64_t ZoneCapacity(const HddZone& zone, int surfaces, SparingScheme sparing, int range_size_cylinders) {
  const int64_t cylinders = zone.last_cylinder - zone.first_cylinder + 1;
  const int64_t sectors = cylinders * surfaces * zone.sectors_per_track - zone.empty_front_sectors;
  const int64_t slips = static_cast<int64_t>(zone.slips.size());
  switch (sparing) {
    case SparingScheme::kNone:
      return sectors;
    case SparingScheme::kTracksPerZone:
      return sectors - zone.spares * zone.sectors_per_track;
    case SparingScheme::kSectorsPerTrack:
      return sectors - zone.spares * cylinders * surfaces;
    case SparingScheme::kSectorsPerCylinder:
    case SparingScheme::kSectorsPerCylinderAtFront:
      return sectors - zone.spares * cylinders;
    case SparingScheme::kSectorsPerCylinderSlipToEnd:
    case SparingScheme::kSectorsPerCylinderAtFrontSlipToEnd:
      return sectors - zone.spares * cylinders - slips;
    case SparingScheme::kDiskEnd:
      return sectors - slips;
    case SparingScheme::kPerRange:
      return sectors - zone.spares * (cylinders / range_size_cylinders);
    case SparingScheme::kZoneEnd:
      return sectors - zone.spares;
    case SparingScheme::kZoneEndSlipToEnd:
      return sectors - zone.spares - slips;
  }
  return 0;
}

void CheckLayout(const HddLayout& layout) {
  if (!IsKnown(layout.sparing)) {
    Fail("sparing scheme " + std::to_string(static_cast<int>(layout.sparing)) + " does not exist (0..10)");
  }
  const int order = static_cast<int>(layout.track_order);
  if (order < 0 || order > 2) Fail("LBN-to-PBN mapping scheme " + std::to_string(order) + " does not exist (0..2)");
  if (layout.surfaces <= 0) Fail("surfaces must be positive");
  if (layout.cylinders <= 0) Fail("cylinders must be positive");
  if (layout.range_size_cylinders <= 0) Fail("range size for sparing must be positive");
  if (layout.zones.empty()) Fail("no zones");
}

}  // namespace

HddGeometry::HddGeometry(const HddLayout& layout)
    : surfaces_(layout.surfaces),
      cylinders_(layout.cylinders),
      sparing_(layout.sparing),
      track_order_(layout.track_order),
      range_size_(layout.range_size_cylinders) {
  CheckLayout(layout);
  if (sparing_ == SparingScheme::kNone) {
    family_ = Family::kPlain;
  } else if (sparing_ == SparingScheme::kTracksPerZone) {
    family_ = Family::kTracks;
  } else {
    family_ = IsSlipToEnd(sparing_) ? Family::kStream : Family::kInRange;
  }
  for (size_t i = 0; i < layout.zones.size(); ++i) {
    const HddZone& zone = layout.zones[i];
    if (i > 0 && zone.first_cylinder <= layout.zones[i - 1].last_cylinder) {
      Fail("zone " + std::to_string(i) + " starts at cylinder " + std::to_string(zone.first_cylinder) +
           ", not after the previous zone's last cylinder");
    }
    zones_.push_back(MakeZone(zone, i, total_blocks_));
    zone_first_lbn_.push_back(total_blocks_);
    zone_first_cylinder_.push_back(zone.first_cylinder);
    total_blocks_ += zones_.back().blocks;
  }
}

HddGeometry::ZoneInfo HddGeometry::MakeZone(const HddZone& zone, size_t index, int64_t first_lbn) const {
  const std::string label = "zone " + std::to_string(index) + ": ";
  if (zone.sectors_per_track <= 0) Fail(label + "sectors per track must be positive");
  if (zone.first_cylinder < 0 || zone.first_cylinder > zone.last_cylinder || zone.last_cylinder >= cylinders_) {
    Fail(label + "cylinders " + std::to_string(zone.first_cylinder) + ".." + std::to_string(zone.last_cylinder) +
         " are not a range within 0.." + std::to_string(cylinders_ - 1));
  }
  if (zone.empty_front_sectors < 0 || zone.spares < 0) Fail(label + "negative front space or spares");
  const bool slips_or_defects = !zone.slips.empty() || !zone.defects.empty();
  if (sparing_ == SparingScheme::kNone && (slips_or_defects || zone.spares != 0)) {
    Fail(label + "slips, defects and spares need a sparing scheme");
  }
  // DiskSim's scheme 7 counts spares in its mapping but not in its capacity.
  if (sparing_ == SparingScheme::kDiskEnd && zone.spares != 0) Fail(label + "sparing scheme 7 needs 0 spares");

  ZoneInfo z;
  z.first_cylinder = zone.first_cylinder;
  z.last_cylinder = zone.last_cylinder;
  z.sectors_per_track = zone.sectors_per_track;
  z.sectors_per_cylinder = static_cast<int64_t>(surfaces_) * zone.sectors_per_track;
  z.first_lbn = first_lbn;
  z.front_sectors = zone.empty_front_sectors;
  z.offset_sectors = zone.first_block_offset_sectors;
  z.track_skew = zone.track_skew_sectors;
  z.cylinder_skew = zone.cylinder_skew_sectors;
  z.track_skew_fraction = zone.track_skew_fraction_sectors;
  z.cylinder_skew_fraction = zone.cylinder_skew_fraction_sectors;
  z.blocks = ZoneCapacity(zone, surfaces_, sparing_, range_size_);
  if (z.blocks <= 0) Fail(label + "holds no blocks after front space and spares");

  // The period whose spares hold the LBNs' slips (kInRange) or that repeats the
  // pattern of slots and spares (kStream; zone-wide spares leave every slot usable).
  z.period_sectors = sparing_ == SparingScheme::kSectorsPerTrack ? zone.sectors_per_track
                     : sparing_ == SparingScheme::kPerRange     ? range_size_ * z.sectors_per_cylinder
                                                                 : z.sectors_per_cylinder;
  const bool spares_per_period = family_ == Family::kInRange || IsPerCylinder(sparing_);
  z.period_usable = z.period_sectors - (spares_per_period ? zone.spares : 0);
  z.period_front = SparesAtFront(sparing_) ? zone.spares : 0;
  if ((family_ == Family::kInRange || family_ == Family::kStream) && z.period_usable <= 0) {
    Fail(label + std::to_string(zone.spares) + " spares leave no sector for LBNs in a " +
         (sparing_ == SparingScheme::kSectorsPerTrack ? "track" : sparing_ == SparingScheme::kPerRange ? "range"
                                                                                                        : "cylinder"));
  }
  AddSlipsAndDefects(zone, label, &z);
  return z;
}

void HddGeometry::AddSlipsAndDefects(const HddZone& zone, const std::string& label, ZoneInfo* z) const {
  const int64_t cylinders = zone.last_cylinder - zone.first_cylinder + 1;
  const bool by_track = family_ == Family::kTracks;
  const int64_t units = cylinders * (by_track ? surfaces_ : z->sectors_per_cylinder);
  const char* unit_name = by_track ? "track" : "sector";
  auto check_unit = [&](int64_t u, const char* what) {
    if (u < 0 || u >= units) {
      Fail(label + what + " " + unit_name + " " + std::to_string(u) + " is outside the zone (0.." +
           std::to_string(units - 1) + ")");
    }
  };

  z->slips = zone.slips;
  std::sort(z->slips.begin(), z->slips.end());
  for (size_t i = 0; i < z->slips.size(); ++i) {
    check_unit(z->slips[i], "slipped");
    if (i > 0 && z->slips[i] == z->slips[i - 1]) Fail(label + "slip " + std::to_string(z->slips[i]) + " listed twice");
  }
  if (family_ == Family::kInRange) {
    // A unit's spares hold its slips; more slips than spares would leave LBNs homeless.
    for (size_t i = 0; i < z->slips.size();) {
      const int64_t period = z->slips[i] / z->period_sectors;
      const size_t j = std::lower_bound(z->slips.begin() + i, z->slips.end(), (period + 1) * z->period_sectors) -
                       z->slips.begin();
      if (static_cast<int64_t>(j - i) > zone.spares) {
        Fail(label + std::to_string(j - i) + " slips from sector " + std::to_string(z->slips[i]) + " on exceed the " +
             std::to_string(zone.spares) + " spares that hold them");
      }
      i = j;
    }
  }
  // In a slip-to-end stream only a slip on a slot takes an LBN's place.
  for (int64_t slip : z->slips) {
    int64_t slot = slip;
    if (family_ == Family::kStream) {
      const int64_t in_period = slip % z->period_sectors - z->period_front;
      if (in_period < 0 || in_period >= z->period_usable) continue;
      slot = slip / z->period_sectors * z->period_usable + in_period;
    }
    z->slip_keys.push_back(slot - static_cast<int64_t>(z->slip_keys.size()));
  }
  for (const auto& [defective, replacement] : zone.defects) {
    check_unit(defective, "defective");
    check_unit(replacement, "replacement");
    if (defective == replacement) continue;  // DiskSim ignores such a pair
    if (sparing_ == SparingScheme::kPerRange && defective / z->period_sectors != replacement / z->period_sectors) {
      Fail(label + "defect " + std::to_string(defective) + " is replaced outside its range");
    }
    z->defects.emplace_back(defective, replacement);
  }
  std::sort(z->defects.begin(), z->defects.end());
  for (size_t i = 1; i < z->defects.size(); ++i) {
    if (z->defects[i].first == z->defects[i - 1].first) {
      Fail(label + "defect " + std::to_string(z->defects[i].first) + " listed twice");
    }
  }
  if (by_track && static_cast<int64_t>(z->slips.size() + z->defects.size()) > zone.spares) {
    Fail(label + "slips and defects outnumber the spare tracks");
  }
}

// Consecutive look-ups mostly stay in one zone, or alternate between two: a
// new command's (mapped at its arrival) and the previous command's read-ahead
// (replayed up to the new command's start). So the last two zones found are
// tried first. An LBN's address is nearly always looked up by cylinder next
// (its rotational position), so the zone found is the cylinder look-up's hint too.
const HddGeometry::ZoneInfo& HddGeometry::ZoneForLbn(int64_t lbn) const {
  const size_t zone = lbn_hints_.Find(
      [&](size_t i) { return lbn >= zones_[i].first_lbn && lbn < zones_[i].first_lbn + zones_[i].blocks; },
      [&] { return UpperBoundIndex<int64_t>(zone_first_lbn_, lbn) - 1; });
  cylinder_hints_.Offer(zone);
  return zones_[zone];
}

const HddGeometry::ZoneInfo& HddGeometry::ZoneForCylinder(int cylinder) const {
  const size_t zone = cylinder_hints_.Find(
      [&](size_t i) {
        return cylinder >= zones_[i].first_cylinder &&
               (i + 1 == zones_.size() || cylinder < zones_[i + 1].first_cylinder);
      },
      [&] { return std::max<size_t>(UpperBoundIndex<int>(zone_first_cylinder_, cylinder), 1) - 1; });
  return zones_[zone];
}

int64_t HddGeometry::PhysicalUnit(const ZoneInfo& z, int64_t x) const {
  const auto& keys = z.slip_keys;
  switch (family_) {
    case Family::kPlain:
      return x;
    case Family::kInRange: {
      // Only slips from x's period on count; the period's spares absorb them. Slip i of
      // those is passed iff slips[i] - start <= y + (i - earlier), i.e. slip_keys[i] <=
      // y + start - earlier, which every earlier slip satisfies too. With the spares at
      // the front, the LBNs fill the period's last usable sectors.
      const int64_t start = x / z.period_usable * z.period_sectors;
      int64_t y = x % z.period_usable;
      const size_t from = LowerBoundIndex<int64_t>(z.slips, start);
      const int64_t earlier = static_cast<int64_t>(from);
      if (z.period_front > 0) {
        const std::span<const int64_t> later = std::span<const int64_t>(z.slips).subspan(from);
        y += z.period_front - static_cast<int64_t>(LowerBoundIndex(later, start + z.period_sectors));
      }
      const int64_t passed = static_cast<int64_t>(UpperBoundIndex<int64_t>(keys, y + start - earlier));
      return start + y + passed - earlier;
    }
    case Family::kTracks:
    case Family::kStream:
      break;
  }
  // Every slip before x's slot counts; slots then map onto the periods' usable sectors.
  const int64_t slot = x + static_cast<int64_t>(UpperBoundIndex<int64_t>(keys, x));
  if (z.period_usable == z.period_sectors) return slot;
  return slot / z.period_usable * z.period_sectors + z.period_front + slot % z.period_usable;
}

int64_t HddGeometry::SlipsIn(const ZoneInfo& z, int64_t from, int64_t to) {
  return static_cast<int64_t>(LowerBoundIndex<int64_t>(z.slips, to) - LowerBoundIndex<int64_t>(z.slips, from));
}

int64_t HddGeometry::Remap(const ZoneInfo& z, int64_t unit) {
  if (z.defects.empty()) return unit;
  const auto it = std::lower_bound(z.defects.begin(), z.defects.end(), std::make_pair(unit, INT64_MIN));
  return it != z.defects.end() && it->first == unit ? it->second : unit;
}

int HddGeometry::Surface(const ZoneInfo& z, int cylinder, int track) const {
  switch (track_order_) {
    case TrackOrder::kConventional:
      return track;
    case TrackOrder::kSerpentineInZone:
      return (cylinder - z.first_cylinder) % 2 != 0 ? surfaces_ - 1 - track : track;
    case TrackOrder::kSerpentine:
      return cylinder % 2 != 0 ? surfaces_ - 1 - track : track;
  }
  return track;
}

PhysicalAddress HddGeometry::AddressOfSector(const ZoneInfo& z, int64_t sector) const {
  const int64_t in_cylinder = sector % z.sectors_per_cylinder;
  const int cylinder = z.first_cylinder + static_cast<int>(sector / z.sectors_per_cylinder);
  return {cylinder, Surface(z, cylinder, static_cast<int>(in_cylinder / z.sectors_per_track)),
          static_cast<int>(in_cylinder % z.sectors_per_track)};
}

PhysicalAddress HddGeometry::AddressOfTrack(const ZoneInfo& z, int64_t track, int sector) const {
  const int cylinder = z.first_cylinder + static_cast<int>(track / surfaces_);
  return {cylinder, Surface(z, cylinder, static_cast<int>(track % surfaces_)), sector};
}

TrackRun HddGeometry::ComputeRun(int64_t lbn, int64_t max_blocks) const {
  const ZoneInfo& z = ZoneForLbn(lbn);
  const int64_t limit = std::min(max_blocks, z.first_lbn + z.blocks - lbn);
  const int64_t x = lbn - z.first_lbn + z.front_sectors;  // lbn's slot in its zone
  if (limit <= 0) return {lbn < total_blocks_ ? MapUnit(z, x) : PhysicalAddress{}, 0, 0, z.sectors_per_track};
  if (family_ == Family::kPlain || family_ == Family::kTracks) {
    // Slips and spares come in whole tracks: the rest of the track is all LBNs.
    const int64_t n = std::min<int64_t>(limit, z.sectors_per_track - x % z.sectors_per_track);
    return {MapUnit(z, x), n, n, z.sectors_per_track};
  }
  return SectorRun(z, x, limit);
}

PhysicalAddress HddGeometry::MapUnit(const ZoneInfo& z, int64_t x) const {
  if (family_ == Family::kTracks) {
    const int spt = z.sectors_per_track;
    return AddressOfTrack(z, Remap(z, PhysicalUnit(z, x / spt)), static_cast<int>(x % spt));
  }
  return AddressOfSector(z, Remap(z, PhysicalUnit(z, x)));
}

TrackRun HddGeometry::SectorRun(const ZoneInfo& z, int64_t x, int64_t limit) const {
  const int64_t first = PhysicalUnit(z, x);
  const int64_t replacement = Remap(z, first);
  if (replacement != first) return {AddressOfSector(z, replacement), 1, 1, z.sectors_per_track};  // stands alone
  if (family_ == Family::kInRange) limit = std::min(limit, z.period_usable - x % z.period_usable);

  // The run ends with the track, or before the spares that end a period's slots.
  int64_t end = (first / z.sectors_per_track + 1) * z.sectors_per_track;
  if (family_ == Family::kStream) {
    end = std::min(end, first / z.period_sectors * z.period_sectors + z.period_front + z.period_usable);
  }
  // The slips ahead on this stretch (rarely more than one): the run's LBNs take the
  // sectors between them in order.
  const auto ahead = z.slips.begin() + static_cast<ptrdiff_t>(LowerBoundIndex<int64_t>(z.slips, first));
  auto beyond = ahead;
  while (beyond != z.slips.end() && *beyond < end) ++beyond;
  int64_t n = std::min(limit, end - first - (beyond - ahead));
  int64_t last = first + n - 1;
  for (auto slip = ahead; slip != beyond && *slip <= last; ++slip) ++last;
  // The run stops before a remapped sector: that LBN lives on a spare elsewhere.
  const auto defect = std::upper_bound(z.defects.begin(), z.defects.end(), std::make_pair(first, INT64_MAX));
  if (defect != z.defects.end() && defect->first <= last) {
    n = defect->first - first - SlipsIn(z, first, defect->first);
    last = PhysicalUnit(z, x + n - 1);
  }
  return {AddressOfSector(z, first), n, last - first + 1, z.sectors_per_track};
}

int64_t HddGeometry::FirstLbnOnTrack(int64_t lbn) const {
  const ZoneInfo& z = ZoneForLbn(lbn);
  const int64_t x = lbn - z.first_lbn + z.front_sectors;
  const int64_t spt = z.sectors_per_track;
  if (family_ == Family::kTracks) return lbn - x % spt;
  // Positions map to physical sectors in increasing order, so the track's first LBN is
  // the smallest position whose sector is on or after the track's first sector; it
  // lies at most a track's sectors (and its slips) before x.
  const int64_t track_start = PhysicalUnit(z, x) / spt * spt;
  int64_t low = std::max(z.front_sectors, x - spt - static_cast<int64_t>(z.slips.size()));
  int64_t high = x;
  while (low < high) {
    const int64_t mid = low + (high - low) / 2;
    if (PhysicalUnit(z, mid) >= track_start) {
      high = mid;
    } else {
      low = mid + 1;
    }
  }
  return z.first_lbn + low - z.front_sectors;
}

int HddGeometry::SectorsPerTrack(int cylinder) const { return ZoneForCylinder(cylinder).sectors_per_track; }

bool HddGeometry::WholeSectorAngles(const ZoneInfo& z) {
  return z.offset_sectors == 0 && z.track_skew_fraction == 0 && z.cylinder_skew_fraction == 0;
}

int64_t HddGeometry::TrackRotation(const ZoneInfo& z, int cylinder, int head) const {
  const int64_t spt = z.sectors_per_track;
  const int64_t c = cylinder - z.first_cylinder;
  // A step to the next track in LBN order adds a track skew; a step to the next cylinder
  // adds the cylinder skew instead, so cylinder c starts (S-1)*c track skews + c cylinder
  // skews on. Schemes 2-6 also rotate a track by one sector per slip on earlier cylinders
  // (earlier tracks for 3).
  const int64_t track = Surface(z, cylinder, head);  // the order is its own inverse
  int64_t skew = (track + (surfaces_ - 1) * c) * z.track_skew + c * z.cylinder_skew;
  if (!z.slips.empty() && SlipsShiftSkew(sparing_)) {
    const int64_t tracks_before = c * surfaces_ + (sparing_ == SparingScheme::kSectorsPerTrack ? track : 0);
    skew += static_cast<int64_t>(LowerBoundIndex<int64_t>(z.slips, tracks_before * spt));
  }
  const int64_t rotation = skew % spt;  // negative skews turn the other way
  return rotation < 0 ? rotation + spt : rotation;
}

double HddGeometry::SkewFraction(const ZoneInfo& z, int cylinder, int head) const {
  if (z.track_skew_fraction == 0 && z.cylinder_skew_fraction == 0) return 0;
  const int64_t c = cylinder - z.first_cylinder;
  const int64_t track = Surface(z, cylinder, head);
  return std::fmod(static_cast<double>(track + (surfaces_ - 1) * c) * z.track_skew_fraction +
                       static_cast<double>(c) * z.cylinder_skew_fraction,
                   static_cast<double>(z.sectors_per_track));
}

double HddGeometry::PositionOnTrack(int64_t whole, double offset, double fraction, int spt) {
  const double s = static_cast<double>(spt);
  const double x = static_cast<double>(whole) + offset + fraction;
  // std::fmod(x, s), which is exact, without its general algorithm where it is
  // plain: x itself below s, and x - s below 2s (exact by Sterbenz's lemma).
  const double r = x >= 0 && x < s ? x : x >= s && x < 2 * s ? x - s : std::fmod(x, s);
  return r < 0 ? r + s : r;
}

double HddGeometry::SectorPosition(const ZoneInfo& z, const PhysicalAddress& a) const {
  const int64_t spt = z.sectors_per_track;
  const int64_t whole = ((TrackRotation(z, a.cylinder, a.head) + a.sector) % spt + spt) % spt;
  if (WholeSectorAngles(z)) return static_cast<double>(whole);  // PositionOnTrack would give `whole`
  return PositionOnTrack(whole, z.offset_sectors, SkewFraction(z, a.cylinder, a.head), z.sectors_per_track);
}

int HddGeometry::AngleSlot(const PhysicalAddress& a) const { return AngleSlotOnTrack(a).slot; }

HddGeometry::SectorSlot HddGeometry::AngleSlotOnTrack(const PhysicalAddress& a) const {
  const RotationMemo& m = rotation_memo_;
  if (a.cylinder != m.cylinder || a.head != m.head) {
    const ZoneInfo& z = ZoneForCylinder(a.cylinder);
    const bool whole_angles = WholeSectorAngles(z);
    rotation_memo_ = {a.cylinder,
                      a.head,
                      TrackRotation(z, a.cylinder, a.head),
                      z.sectors_per_track,
                      whole_angles,
                      z.offset_sectors,
                      whole_angles ? 0 : SkewFraction(z, a.cylinder, a.head)};
  }
  // The sector's whole position, as SectorPosition finds it: the track's rotation
  // and the sector both lie in [0, spt).
  const int spt = m.sectors_per_track;
  assert(a.sector >= 0 && a.sector < spt);
  const int64_t sum = m.sectors + a.sector;
  const int64_t whole = sum < spt ? sum : sum - spt;
  if (m.whole_angles) return {static_cast<int>(whole), spt};
  return {std::min(static_cast<int>(PositionOnTrack(whole, m.offset_sectors, m.skew_fraction, spt)), spt - 1), spt};
}

double HddGeometry::StartAngle(const PhysicalAddress& a) const {
  const ZoneInfo& z = ZoneForCylinder(a.cylinder);
  const double angle = SectorPosition(z, a) / z.sectors_per_track;
  return std::min(angle, std::nextafter(1.0, 0.0));
}

}  // namespace ziosim
