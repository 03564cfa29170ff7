#include "models/device/hdd_geometry.h"

#include <algorithm>
#include <cassert>
#include <cmath>
#include <string>

#include "sim/core/status.h"

// The rules follow DiskSim 4.0's dm_layout_g1 (see the glossary, section 4.2). An LBN's
// zone-relative position x counts the zone's reserved front space; slips then push x
// forward over slipped units, and a listed defect is replaced by its spare.
//
// DiskSim walks each slip list in the order given, counting a slip when it lies at or
// before the position reached so far. Here the slips are sorted once, and the count is
// a binary search: slip i (ascending) is passed by position x iff slips[i] - i <= x. The
// two agree for any ascending list. Atlas III's zone 1 lists a few slips out of order;
// there DiskSim's walk puts 87 of the drive's 17.8 M LBNs on a slipped sector or on
// another LBN's sector, where this code skips the slips (none of those LBNs occurs in
// DiskSim's validation trace; every LBN of the other five drives maps identically).

namespace ziosim {
namespace {

[[noreturn]] void Fail(const std::string& what) { throw InputError("HDD layout: " + what); }

bool IsSupported(SparingScheme scheme) {
  switch (scheme) {
    case SparingScheme::kNone:
    case SparingScheme::kTracksPerZone:
    case SparingScheme::kDiskEnd:
    case SparingScheme::kPerRange:
    case SparingScheme::kZoneEnd:
      return true;
  }
  return false;
}

// LBNs in a zone: its sectors less the reserved front space and what the scheme sets
// aside (dm_layout_g1's capacity rule; kDiskEnd gives up one sector per slip).
int64_t ZoneCapacity(const HddZone& zone, int surfaces, SparingScheme sparing, int range_size_cylinders) {
  const int64_t cylinders = zone.last_cylinder - zone.first_cylinder + 1;
  const int64_t sectors = cylinders * surfaces * zone.sectors_per_track - zone.empty_front_sectors;
  switch (sparing) {
    case SparingScheme::kNone:
      return sectors;
    case SparingScheme::kTracksPerZone:
      return sectors - zone.spares * zone.sectors_per_track;
    case SparingScheme::kDiskEnd:
      return sectors - static_cast<int64_t>(zone.slips.size());
    case SparingScheme::kPerRange:
      return sectors - zone.spares * (cylinders / range_size_cylinders);
    case SparingScheme::kZoneEnd:
      return sectors - zone.spares;
  }
  return 0;
}

void CheckLayout(const HddLayout& layout) {
  if (!IsSupported(layout.sparing)) {
    Fail("sparing scheme " + std::to_string(static_cast<int>(layout.sparing)) +
         " is not supported (supported: 0 none, 1, 7, 8, 9)");
  }
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
      range_size_(layout.range_size_cylinders) {
  CheckLayout(layout);
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
  z.range_sectors = range_size_ * z.sectors_per_cylinder;
  z.range_blocks = z.range_sectors - zone.spares;
  z.offset_sectors = zone.first_block_offset_sectors;
  z.track_skew = zone.track_skew_sectors;
  z.cylinder_skew = zone.cylinder_skew_sectors;
  z.blocks = ZoneCapacity(zone, surfaces_, sparing_, range_size_);
  if (z.blocks <= 0) Fail(label + "holds no blocks after front space and spares");
  if (sparing_ == SparingScheme::kPerRange && z.range_blocks <= 0) Fail(label + "spares fill whole ranges");

  const int64_t cylinders = zone.last_cylinder - zone.first_cylinder + 1;
  const bool by_track = sparing_ == SparingScheme::kTracksPerZone;
  const int64_t units = cylinders * (by_track ? surfaces_ : z.sectors_per_cylinder);
  const char* unit_name = by_track ? "track" : "sector";
  auto check_unit = [&](int64_t u, const char* what) {
    if (u < 0 || u >= units) {
      Fail(label + what + " " + unit_name + " " + std::to_string(u) + " is outside the zone (0.." +
           std::to_string(units - 1) + ")");
    }
  };

  z.slips = zone.slips;
  std::sort(z.slips.begin(), z.slips.end());
  for (size_t i = 0; i < z.slips.size(); ++i) {
    check_unit(z.slips[i], "slipped");
    if (i > 0 && z.slips[i] == z.slips[i - 1]) Fail(label + "slip " + std::to_string(z.slips[i]) + " listed twice");
    z.slip_keys.push_back(z.slips[i] - static_cast<int64_t>(i));
  }
  for (const auto& [defective, replacement] : zone.defects) {
    check_unit(defective, "defective");
    check_unit(replacement, "replacement");
    if (defective == replacement) continue;  // DiskSim ignores such a pair
    if (sparing_ == SparingScheme::kPerRange && defective / z.range_sectors != replacement / z.range_sectors) {
      Fail(label + "defect " + std::to_string(defective) + " is replaced outside its range");
    }
    z.defects.emplace_back(defective, replacement);
  }
  std::sort(z.defects.begin(), z.defects.end());
  for (size_t i = 1; i < z.defects.size(); ++i) {
    if (z.defects[i].first == z.defects[i - 1].first) {
      Fail(label + "defect " + std::to_string(z.defects[i].first) + " listed twice");
    }
  }
  if (by_track && static_cast<int64_t>(z.slips.size() + z.defects.size()) > zone.spares) {
    Fail(label + "slips and defects outnumber the spare tracks");
  }
  return z;
}

const HddGeometry::ZoneInfo& HddGeometry::ZoneForLbn(int64_t lbn) const {
  if (zones_.size() == 1) return zones_[0];
  const auto it = std::upper_bound(zone_first_lbn_.begin(), zone_first_lbn_.end(), lbn);
  return zones_[it - zone_first_lbn_.begin() - 1];
}

const HddGeometry::ZoneInfo& HddGeometry::ZoneForCylinder(int cylinder) const {
  const auto it = std::upper_bound(zone_first_cylinder_.begin(), zone_first_cylinder_.end(), cylinder);
  return zones_[std::max<ptrdiff_t>(it - zone_first_cylinder_.begin() - 1, 0)];
}

int64_t HddGeometry::PhysicalUnit(const ZoneInfo& z, int64_t x) const {
  const auto& keys = z.slip_keys;
  switch (sparing_) {
    case SparingScheme::kNone:
      return x;
    case SparingScheme::kPerRange: {
      // Only slips from x's range on count; the spares at the range's end absorb them.
      // Slip i of those is passed iff slips[i] - range_start <= y + (i - earlier), i.e.
      // slip_keys[i] <= y + range_start - earlier, which every earlier slip satisfies too.
      const int64_t range_start = x / z.range_blocks * z.range_sectors;
      const int64_t y = x % z.range_blocks;
      const int64_t earlier = std::lower_bound(z.slips.begin(), z.slips.end(), range_start) - z.slips.begin();
      const int64_t passed = std::upper_bound(keys.begin(), keys.end(), y + range_start - earlier) - keys.begin();
      return range_start + y + passed - earlier;
    }
    case SparingScheme::kTracksPerZone:
    case SparingScheme::kDiskEnd:
    case SparingScheme::kZoneEnd:
      break;
  }
  // Every slip before x's position counts. (For kDiskEnd DiskSim counts the slips on
  // earlier cylinders and then those on x's own; with no spares per cylinder that is the same.)
  return x + (std::upper_bound(keys.begin(), keys.end(), x) - keys.begin());
}

int64_t HddGeometry::SlipsIn(const ZoneInfo& z, int64_t from, int64_t to) {
  return std::lower_bound(z.slips.begin(), z.slips.end(), to) - std::lower_bound(z.slips.begin(), z.slips.end(), from);
}

int64_t HddGeometry::Remap(const ZoneInfo& z, int64_t unit) {
  if (z.defects.empty()) return unit;
  const auto it = std::lower_bound(z.defects.begin(), z.defects.end(), std::make_pair(unit, INT64_MIN));
  return it != z.defects.end() && it->first == unit ? it->second : unit;
}

PhysicalAddress HddGeometry::AddressOfSector(const ZoneInfo& z, int64_t sector) const {
  const int64_t in_cylinder = sector % z.sectors_per_cylinder;
  return {z.first_cylinder + static_cast<int>(sector / z.sectors_per_cylinder),
          static_cast<int>(in_cylinder / z.sectors_per_track), static_cast<int>(in_cylinder % z.sectors_per_track)};
}

PhysicalAddress HddGeometry::AddressOfTrack(const ZoneInfo& z, int64_t track, int sector) const {
  return {z.first_cylinder + static_cast<int>(track / surfaces_), static_cast<int>(track % surfaces_), sector};
}

PhysicalAddress HddGeometry::Map(int64_t lbn) const {
  assert(lbn >= 0 && lbn < total_blocks_);
  const ZoneInfo& z = ZoneForLbn(lbn);
  const int64_t x = lbn - z.first_lbn + z.front_sectors;
  if (sparing_ == SparingScheme::kTracksPerZone) {
    const int spt = z.sectors_per_track;
    return AddressOfTrack(z, Remap(z, PhysicalUnit(z, x / spt)), static_cast<int>(x % spt));
  }
  return AddressOfSector(z, Remap(z, PhysicalUnit(z, x)));
}

TrackRun HddGeometry::RunOnTrack(int64_t lbn, int64_t max_blocks) const {
  const ZoneInfo& z = ZoneForLbn(lbn);
  const int64_t limit = std::min(max_blocks, z.first_lbn + z.blocks - lbn);
  if (limit <= 0) return {lbn < total_blocks_ ? Map(lbn) : PhysicalAddress{}, 0, 0};
  if (sparing_ == SparingScheme::kNone || sparing_ == SparingScheme::kTracksPerZone) {
    // Slips and spares come in whole tracks: the rest of the track is all LBNs.
    const int64_t x = lbn - z.first_lbn + z.front_sectors;
    const int64_t n = std::min<int64_t>(limit, z.sectors_per_track - x % z.sectors_per_track);
    return {Map(lbn), n, n};
  }
  return SectorRun(z, lbn, limit);
}

TrackRun HddGeometry::SectorRun(const ZoneInfo& z, int64_t lbn, int64_t limit) const {
  const int64_t x = lbn - z.first_lbn + z.front_sectors;
  const int64_t first = PhysicalUnit(z, x);
  const int64_t replacement = Remap(z, first);
  if (replacement != first) return {AddressOfSector(z, replacement), 1, 1};  // a spare sector stands alone
  if (sparing_ == SparingScheme::kPerRange) limit = std::min(limit, z.range_blocks - x % z.range_blocks);

  const int64_t track_end = (first / z.sectors_per_track + 1) * z.sectors_per_track;
  int64_t n = std::min(limit, track_end - first - SlipsIn(z, first, track_end));
  int64_t last = PhysicalUnit(z, x + n - 1);
  // The run stops before a remapped sector: that LBN lives on a spare elsewhere.
  const auto defect = std::upper_bound(z.defects.begin(), z.defects.end(), std::make_pair(first, INT64_MAX));
  if (defect != z.defects.end() && defect->first <= last) {
    n = defect->first - first - SlipsIn(z, first, defect->first);
    last = PhysicalUnit(z, x + n - 1);
  }
  return {AddressOfSector(z, first), n, last - first + 1};
}

int HddGeometry::SectorsPerTrack(int cylinder) const { return ZoneForCylinder(cylinder).sectors_per_track; }

double HddGeometry::SectorPosition(const ZoneInfo& z, const PhysicalAddress& a) const {
  const int64_t spt = z.sectors_per_track;
  const int64_t c = a.cylinder - z.first_cylinder;
  // A head step within a cylinder adds a track skew; a step to the next cylinder adds
  // the cylinder skew instead, so cylinder c starts (S-1)*c track skews + c cylinder skews on.
  const int64_t skew = (a.head + (surfaces_ - 1) * c) * z.track_skew + c * z.cylinder_skew;
  const int64_t whole = ((skew + a.sector) % spt + spt) % spt;
  const double position = std::fmod(static_cast<double>(whole) + z.offset_sectors, static_cast<double>(spt));
  return position < 0 ? position + static_cast<double>(spt) : position;
}

int HddGeometry::AngleSlot(const PhysicalAddress& a) const {
  const ZoneInfo& z = ZoneForCylinder(a.cylinder);
  return std::min(static_cast<int>(SectorPosition(z, a)), z.sectors_per_track - 1);
}

double HddGeometry::StartAngle(const PhysicalAddress& a) const {
  const ZoneInfo& z = ZoneForCylinder(a.cylinder);
  const double angle = SectorPosition(z, a) / z.sectors_per_track;
  return std::min(angle, std::nextafter(1.0, 0.0));
}

}  // namespace ziosim
