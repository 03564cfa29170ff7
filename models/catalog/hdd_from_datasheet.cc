#include "models/catalog/hdd_from_datasheet.h"

#include <algorithm>
#include <cmath>
#include <vector>

namespace ziosim {
namespace {

constexpr int64_t kBlockBytes = 512;
// SATA links use 8b/10b coding: ten line bits carry one byte (SATA 3.x, section 6).
constexpr double kSataLineBitsPerByte = 10;

// The same ns -> ps conversion the HDD model applies to the params (HddMechanism).
int64_t PsFromMs(double ms) { return MsToNs(ms) * 1000; }

// The HDD model times the platter in integer ps (HddMechanism): a sector lasts
// period_ps / spt, truncated. Skews are computed the same way so that the skew
// always covers the switch in the model's own arithmetic.
int64_t SectorPs(double rpm, int spt) { return std::llround(60e12 / rpm) / spt; }

int SkewSectors(int64_t switch_ps, int64_t sector_ps) {
  return static_cast<int>((switch_ps + sector_ps - 1) / sector_ps);
}

HddZone ZoneWithSkews(const HddDatasheet& s, int sectors_per_track) {
  const int64_t sector_ps = SectorPs(s.rpm, sectors_per_track);
  const int64_t head_switch_ps = PsFromMs(s.head_switch_ms);
  // Moving to the next cylinder ends at the later of the one-cylinder seek and the head switch.
  const int64_t cylinder_step_ps = std::max(PsFromMs(s.seek_single_ms), head_switch_ps);
  HddZone z;
  z.sectors_per_track = sectors_per_track;
  z.track_skew_sectors = SkewSectors(head_switch_ps, sector_ps);
  z.cylinder_skew_sectors = SkewSectors(cylinder_step_ps, sector_ps);
  return z;
}

// The sectors per track whose sustained rate (skews included) is nearest `mb_s`.
int SectorsPerTrackForRate(const HddDatasheet& s, double mb_s) {
  const double rev_ns = RevolutionNs(s.rpm);
  auto rate = [&](int spt) { return ZoneSustainedMbS(ZoneWithSkews(s, spt), s.surfaces, rev_ns); };
  // The raw media rate (no skews) is an upper bound on the sustained one: start below.
  int spt = std::max(1, static_cast<int>(mb_s * 1e-3 * rev_ns / kBlockBytes));
  while (rate(spt) < mb_s) ++spt;
  if (spt > 1 && mb_s - rate(spt - 1) < rate(spt) - mb_s) --spt;
  return spt;
}

// Cylinders of zone `k` when `cylinders` are shared as evenly as possible among
// `zones`, the outer zones taking the remainder.
int ZoneCylinders(int cylinders, int zones, int k) {
  return cylinders / zones + (k < cylinders % zones ? 1 : 0);
}

int64_t BlocksForCylinders(const std::vector<int>& spt, int surfaces, int cylinders) {
  const int zones = static_cast<int>(spt.size());
  int64_t blocks = 0;
  for (int k = 0; k < zones; ++k) {
    blocks += int64_t{ZoneCylinders(cylinders, zones, k)} * surfaces * spt[k];
  }
  return blocks;
}

// The fewest cylinders whose blocks reach `target` (blocks grow with cylinders).
int CylindersFor(const std::vector<int>& spt, int surfaces, int64_t target) {
  const int64_t smallest_cylinder = int64_t{surfaces} * *std::min_element(spt.begin(), spt.end());
  int lo = static_cast<int>(spt.size());
  int hi = static_cast<int>(target / smallest_cylinder) + lo + 1;
  while (lo < hi) {
    const int mid = lo + (hi - lo) / 2;
    if (BlocksForCylinders(spt, surfaces, mid) >= target) hi = mid;
    else lo = mid + 1;
  }
  return lo;
}

HddLayout DeriveLayout(const HddDatasheet& s) {
  // Constant linear density and constant angular velocity: sectors per track grow
  // with radius, and cylinders are evenly spaced in radius, so sectors per track
  // fall linearly with the cylinder number from the outer edge to the inner one.
  const int outer_spt = SectorsPerTrackForRate(s, s.outer_mb_s);
  const int inner_spt = SectorsPerTrackForRate(s, s.inner_mb_s);
  std::vector<int> spt(static_cast<size_t>(s.zones));
  for (int k = 0; k < s.zones; ++k) {
    const double f = static_cast<double>(k) / (s.zones - 1);
    spt[k] = static_cast<int>(std::lround(outer_spt + (inner_spt - outer_spt) * f));
  }
  const int64_t target = s.capacity_bytes / kBlockBytes;
  const int cylinders = CylindersFor(spt, s.surfaces, target);

  HddLayout layout;
  layout.surfaces = s.surfaces;
  layout.cylinders = cylinders;
  layout.sparing = SparingScheme::kNone;
  int first = 0;
  for (int k = 0; k < s.zones; ++k) {
    HddZone z = ZoneWithSkews(s, spt[k]);
    z.first_cylinder = first;
    z.last_cylinder = first + ZoneCylinders(cylinders, s.zones, k) - 1;
    first = z.last_cylinder + 1;
    layout.zones.push_back(std::move(z));
  }
  // Real drives keep such space for their own use; here it only trims the capacity to the stated one.
  layout.zones.back().empty_front_sectors = BlocksForCylinders(spt, s.surfaces, cylinders) - target;
  return layout;
}

HddSeekModel DeriveSeek(const HddDatasheet& s) {
  HddSeekModel seek;
  seek.kind = HddSeekModel::Kind::kThreePoint;
  seek.single_cylinder_ns = MsToNs(s.seek_single_ms);
  seek.average_ns = MsToNs(s.seek_average_ms);
  seek.full_stroke_ns = MsToNs(s.seek_full_stroke_ms);
  return seek;
}

HddInterface DeriveInterface(const HddDatasheet& s) {
  HddInterface io;
  const SimTime block_ns = std::llround(kBlockBytes * kSataLineBitsPerByte / s.sata_gbit_s);
  io.bus_read_block_ns = block_ns;
  io.bus_write_block_ns = block_ns;
  const SimTime miss = std::llround(s.read_miss_overhead_us * kNsPerUs);
  const SimTime hit = std::llround(s.read_hit_overhead_us * kNsPerUs);
  const SimTime write = std::llround(s.write_overhead_us * kNsPerUs);
  // Datasheet-level figures do not depend on the previous command's type.
  io.read_miss_ns[0] = io.read_miss_ns[1] = miss;
  io.read_hit_ns[0] = io.read_hit_ns[1] = hit;
  io.write_hit_ns[0] = io.write_hit_ns[1] = write;
  io.write_miss_ns[0] = io.write_miss_ns[1] = write;
  io.read_completion_ns = io.write_completion_ns = std::llround(s.completion_overhead_us * kNsPerUs);
  return io;
}

HddCache DeriveCache(const HddDatasheet& s) {
  HddCache c;
  c.enabled = true;
  c.segments = s.cache_segments;
  c.segment_blocks = static_cast<int>(s.cache_bytes / s.cache_segments / kBlockBytes);
  c.read_ahead_scheme = 3;  // to the request's end plus max_read_ahead_blocks
  c.min_read_ahead_blocks = 0;
  c.max_read_ahead_blocks = static_cast<int>(s.read_ahead_bytes / kBlockBytes);
  // Modern drives stream sequential reads at media speed: a read arriving for
  // a block the read-ahead is about to read joins it, and a hit keeps the
  // read-ahead going.
  c.join_read_ahead_window = true;
  c.read_ahead_on_idle_hit = true;
  // SATA drives ship with the volatile write cache on (ATA "write cache
  // enabled" default): a write completes once its data are in the buffer.
  c.fast_write_level = 1;
  return c;
}

}  // namespace

double ZoneSustainedMbS(const HddZone& zone, int surfaces, double revolution_ns) {
  const double sector_ns = revolution_ns / zone.sectors_per_track;
  const double skew_sectors = (surfaces - 1.0) * zone.track_skew_sectors + zone.cylinder_skew_sectors;  // no int overflow
  const double cylinder_ns = surfaces * revolution_ns + skew_sectors * sector_ns;
  const double cylinder_bytes = static_cast<double>(surfaces) * zone.sectors_per_track * kBlockBytes;
  return cylinder_bytes / cylinder_ns * 1e3;  // B/ns -> MB/s
}

int64_t LayoutBlocks(const HddLayout& layout) {
  int64_t blocks = 0;
  for (const HddZone& z : layout.zones) {
    blocks += int64_t{z.last_cylinder - z.first_cylinder + 1} * layout.surfaces * z.sectors_per_track -
              z.empty_front_sectors;
  }
  return blocks;
}

HddParams DeriveHddParams(const HddDatasheet& sheet, const std::string& name, const std::string& source) {
  HddParams p;
  p.name = name;
  p.source = source;
  p.queue_depth = sheet.queue_depth;
  p.layout = DeriveLayout(sheet);
  p.mechanics.rpm = sheet.rpm;
  p.mechanics.seek = DeriveSeek(sheet);
  p.mechanics.head_switch_ns = MsToNs(sheet.head_switch_ms);
  p.interface = DeriveInterface(sheet);
  p.cache = DeriveCache(sheet);
  return p;
}

}  // namespace ziosim
