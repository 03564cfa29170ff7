#include "models/disksim/disksim_layout_g2.h"

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>

#include "models/device/hdd_extent_map.h"
#include "sim/core/status.h"

// The rules follow layout_g2.c and layout_g2_load.c of DiskSim 4.0.
//
// The map file: two lines ignored, "C cylinders, R rot, H heads", then extent lines
// read with fscanf("lbn %d --> cyl %d, head %d, sect %d, %s %d"): the count is the
// run's length, one more when the word is "seqcnt" (DIXtrac counts the sectors after
// the first). Then "Defect at cyl C, head H, sect S" lines, which only DiskSim's
// defect count (unused by its disk model) reads. DiskSim stops at the first line that
// matches neither; here such a line is an error.
//
// ltop(lbn): the extent holding lbn, found by binary search (so the file lists them
// by LBN), at its sector + (lbn - first LBN); DiskSim aborts on an LBN outside every
// zone's LBN range.
//
// pbn_skew_new(c, h, s) = skew(c) + the track skews and cylinder skews of the zone of
// c met walking the extents from cylinder c's first one to the first on track (c, h),
// + s sector widths. skew(c), from precompute_skews: walking all extents in file
// order with a zone that moves on (by one) when a new cylinder lies past it, the
// first cylinder of a zone gets the zone skew; cylinder c + 1 starts from skew(c)
// when c is first met, unless c is its zone's first; each extent then adds the
// cylinder skew to skew(c + 1) if the next extent is on another cylinder, else the
// track skew if it is on another head. So a zone's second cylinder does not include
// the zone skew, and cylinder 0 starts at 0 (its first extent is preset, so the zone
// skew is never set there).

namespace ziosim::disksim_g2 {
namespace {

using libparam::Location;

[[noreturn]] void Fail(const std::string& file, int line, const std::string& what) {
  throw InputError(file, line, what);
}

std::string N(int64_t v) { return std::to_string(v); }

struct Line {
  int64_t lbn = 0;
  int cylinder = 0;
  int head = 0;
  int sector = 0;
  int64_t length = 0;
  int number = 0;  // line number in the map file
};

struct MapFile {
  std::string path;
  int cylinders = 0;
  int heads = 0;
  std::vector<Line> extents;
};

// The whole line matched `format` (whose last conversion is %n).
template <typename... Args>
bool Matches(const std::string& line, const char* format, int expected, Args*... args) {
  int used = -1;
  const int n = std::sscanf(line.c_str(), format, args..., &used);
  return n == expected && used >= 0 && line.find_first_not_of(" \t\r", used) == std::string::npos;
}

MapFile ReadMapFile(const std::string& path, const Location& named_at) {
  std::ifstream in(path);
  std::error_code error;
  if (!in || !std::filesystem::is_regular_file(path, error)) {
    Fail(named_at.file, named_at.line, "cannot open the layout map file " + path);
  }
  MapFile map;
  map.path = path;
  std::string line;
  int number = 0;
  for (; number < 2 && std::getline(in, line); ++number) {
  }
  ++number;
  if (!std::getline(in, line) || !Matches(line, " %d cylinders, %*d rot, %d heads %n", 2, &map.cylinders, &map.heads) ||
      map.cylinders < 1 || map.heads < 1) {
    Fail(path, number, "expected 'C cylinders, R rot, H heads' with C, H >= 1");
  }
  bool defects = false;
  while (std::getline(in, line)) {
    ++number;
    if (line.find_first_not_of(" \t\r") == std::string::npos) continue;
    Line x;
    x.number = number;
    int lbn = 0, count = 0, c = 0, h = 0, s = 0;
    char word[16] = {};
    if (Matches(line, " lbn %d --> cyl %d, head %d, sect %d, %15s %d %n", 6, &lbn, &x.cylinder, &x.head, &x.sector,
                word, &count)) {
      if (defects) Fail(path, number, "an extent after the defects: DiskSim stops reading at the first defect");
      x.lbn = lbn;
      x.length = std::string(word) == "seqcnt" ? int64_t{count} + 1 : count;
      if (x.lbn < 0 || x.cylinder < 0 || x.head < 0 || x.sector < 0 || x.length < 1) {
        Fail(path, number, "an extent needs a non-negative LBN, cylinder, head and sector and at least one block");
      }
      map.extents.push_back(x);
    } else if (Matches(line, " Defect at cyl %d, head %d, sect %d %n", 3, &c, &h, &s)) {
      defects = true;
    } else {
      Fail(path, number, "expected 'lbn L --> cyl C, head H, sect S, seqcnt N' or 'Defect at cyl C, head H, sect S'");
    }
  }
  if (map.extents.empty()) Fail(path, number, "the layout map lists no extent");
  return map;
}

// find_zone_pbn: the first zone whose cylinders hold `cylinder`, or -1.
int ZoneOfCylinder(const std::vector<Zone>& zones, int64_t cylinder) {
  for (size_t z = 0; z < zones.size(); ++z) {
    if (zones[z].first_cylinder <= cylinder && cylinder <= zones[z].last_cylinder) return static_cast<int>(z);
  }
  return -1;
}

void CheckZones(const std::vector<Zone>& zones, int64_t blocks) {
  for (size_t z = 0; z < zones.size(); ++z) {
    const Zone& zone = zones[z];
    if (zone.first_cylinder > zone.last_cylinder || zone.first_lbn > zone.last_lbn) {
      Fail(zone.where.file, zone.where.line, "the zone's first cylinder and LBN must not exceed its last");
    }
    // precompute_skews moves from zone to zone in list order.
    if (z > 0 && zone.first_cylinder <= zones[z - 1].last_cylinder) {
      Fail(zone.where.file, zone.where.line, "zones must list ascending, disjoint cylinder ranges");
    }
  }
  // ltop looks the zone of every LBN up and aborts when there is none.
  std::vector<std::pair<int64_t, int64_t>> ranges;
  for (const Zone& zone : zones) ranges.emplace_back(zone.first_lbn, zone.last_lbn);
  std::sort(ranges.begin(), ranges.end());
  int64_t covered = 0;
  for (const auto& [low, high] : ranges) {
    if (low > covered) break;
    covered = std::max(covered, high + 1);
  }
  if (covered < blocks) {
    const Location& where = zones.empty() ? Location{} : zones.front().where;
    Fail(where.file, where.line, "LBN " + N(covered) + " lies in no zone's LBN range (DiskSim aborts on it)");
  }
}

// skew(c) for every cylinder, as precompute_skews leaves it.
std::vector<uint32_t> CylinderSkews(const MapFile& map, const std::vector<Zone>& zones) {
  std::vector<uint32_t> skew(map.cylinders + 1, 0);
  std::vector<bool> met(map.cylinders, false);
  met[0] = true;  // preset: first_ltop_extent of cylinder 0 is 0
  size_t z = 0;
  const std::vector<Line>& x = map.extents;
  for (size_t i = 0; i < x.size(); ++i) {
    const int c = x[i].cylinder;
    if (!met[c]) {
      met[c] = true;
      if (zones[z].last_cylinder < c && z + 1 < zones.size()) ++z;
      if (c == zones[z].first_cylinder) {
        skew[c] = zones[z].zone_skew;
      } else {
        skew[c + 1] = skew[c];
      }
    }
    // Past the last extent DiskSim reads a zeroed entry: cylinder 0, head 0.
    const Line next = i + 1 < x.size() ? x[i + 1] : Line{};
    if (next.cylinder != c) {
      skew[c + 1] += zones[z].cylinder_skew;
    } else if (next.head != x[i].head) {
      skew[c + 1] += zones[z].track_skew;
    }
  }
  return skew;
}

}  // namespace

uint32_t SectorWidth(int64_t sectors_per_track) {
  return static_cast<uint32_t>((int64_t{1} << 32) / sectors_per_track);
}

std::vector<HddExtent> Expand(const std::string& path, const Location& named_at, const std::vector<Zone>& zones,
                              int64_t blocks, int cylinders, int surfaces) {
  MapFile map = ReadMapFile(path, named_at);
  CheckZones(zones, blocks);
  // A track must lie within both the map file's disk and the model's.
  map.cylinders = std::min(map.cylinders, cylinders);
  map.heads = std::min(map.heads, surfaces);
  if (int64_t{map.cylinders} * map.heads > HddExtentMap::kMaxTracks) {  // before the tables below
    Fail(path, 3, N(map.cylinders) + " cylinders of " + N(map.heads) + " heads exceed the 2^24 tracks an explicit "
                                                                          "layout may have");
  }
  std::vector<int> zone_of(map.extents.size());
  for (size_t i = 0; i < map.extents.size(); ++i) {
    const Line& x = map.extents[i];
    if (x.cylinder >= map.cylinders || x.head >= map.heads) {
      Fail(path, x.number, "cylinder " + N(x.cylinder) + ", head " + N(x.head) + " is outside the disk (" +
                               N(map.cylinders) + " cylinders, " + N(map.heads) + " heads)");
    }
    zone_of[i] = ZoneOfCylinder(zones, x.cylinder);
    if (zone_of[i] < 0) Fail(path, x.number, "cylinder " + N(x.cylinder) + " lies in no zone (DiskSim aborts on it)");
    if (x.sector + x.length > zones[zone_of[i]].sectors_per_track) {
      Fail(path, x.number, "sectors " + N(x.sector) + ".." + N(x.sector + x.length - 1) + " do not fit the zone's " +
                               N(zones[zone_of[i]].sectors_per_track) + " per track");
    }
    if (i > 0 && x.lbn < map.extents[i - 1].lbn + map.extents[i - 1].length) {
      Fail(path, x.number, "LBN " + N(x.lbn) + " overlaps or precedes the previous extent (ltop searches by LBN)");
    }
  }
  const std::vector<uint32_t> skew = CylinderSkews(map, zones);

  // pbn_skew_new's walk, once per cylinder: each track's angle where the walk from
  // the cylinder's first extent first meets it.
  std::vector<uint32_t> track_angle(static_cast<size_t>(map.cylinders) * map.heads, 0);
  std::vector<int32_t> first_of_cylinder(map.cylinders, -1);
  first_of_cylinder[0] = 0;
  std::vector<int> heads_on(map.cylinders, 0);
  std::vector<bool> seen(track_angle.size(), false);
  for (size_t i = 0; i < map.extents.size(); ++i) {
    const Line& x = map.extents[i];
    if (first_of_cylinder[x.cylinder] < 0) first_of_cylinder[x.cylinder] = static_cast<int32_t>(i);
    const size_t t = static_cast<size_t>(x.cylinder) * map.heads + x.head;
    if (!seen[t]) ++heads_on[x.cylinder];
    seen[t] = true;
  }
  std::fill(seen.begin(), seen.end(), false);
  for (int c = 0; c < map.cylinders; ++c) {
    if (heads_on[c] == 0) continue;
    const Zone& zone = zones[ZoneOfCylinder(zones, c)];
    uint32_t angle = skew[c];
    const Line* last = &map.extents[first_of_cylinder[c]];
    int found = 0;
    for (size_t i = first_of_cylinder[c]; i < map.extents.size() && found < heads_on[c]; ++i) {
      const Line& x = map.extents[i];
      if (x.cylinder != last->cylinder) angle += zone.cylinder_skew;
      if (x.head != last->head) angle += zone.track_skew;
      last = &x;
      const size_t t = static_cast<size_t>(c) * map.heads + x.head;
      if (x.cylinder == c && !seen[t]) {
        seen[t] = true;
        track_angle[t] = angle;
        ++found;
      }
    }
  }

  std::vector<HddExtent> out;
  for (size_t i = 0; i < map.extents.size(); ++i) {
    const Line& x = map.extents[i];
    const int64_t end = std::min(blocks, x.lbn + x.length);
    const int64_t start = out.empty() ? 0 : out.back().first_lbn + out.back().blocks;
    if (x.lbn >= blocks) break;
    if (x.lbn != start) Fail(path, x.number, "LBNs " + N(start) + ".." + N(x.lbn - 1) + " lie in no extent");
    const Zone& zone = zones[zone_of[i]];
    HddExtent e;
    e.first_lbn = x.lbn;
    e.blocks = end - x.lbn;
    e.cylinder = x.cylinder;
    e.head = x.head;
    e.first_sector = x.sector;
    e.sectors_per_track = static_cast<int>(zone.sectors_per_track);
    e.sector_angle = SectorWidth(zone.sectors_per_track);
    e.first_angle = track_angle[static_cast<size_t>(x.cylinder) * map.heads + x.head] +
                    static_cast<uint32_t>(x.sector) * e.sector_angle;
    out.push_back(e);
  }
  const int64_t mapped = out.empty() ? 0 : out.back().first_lbn + out.back().blocks;
  if (mapped < blocks) {
    Fail(path, map.extents.back().number, "the extents end at LBN " + N(mapped - 1) + ", before the disk's " +
                                              N(blocks) + " blocks ('Block count')");
  }
  return out;
}

}  // namespace ziosim::disksim_g2
