// DiskSim 4.0's dm_layout_g2: a raw layout file as DIXtrac writes it, one line per
// run of LBNs on one track ("lbn L --> cyl C, head H, sect S, seqcnt N"), plus zones
// that give each cylinder range its sectors per track and skews. Here the file
// becomes HddExtentMap's extent list, with each track's start angle computed as
// layout_g2.c's pbn_skew_new computes it.
#ifndef ZIOSIM_MODELS_DISKSIM_DISKSIM_LAYOUT_G2_H_
#define ZIOSIM_MODELS_DISKSIM_DISKSIM_LAYOUT_G2_H_

#include <cstdint>
#include <string>
#include <vector>

#include "models/device/hdd_params.h"
#include "models/disksim/libparam.h"

namespace ziosim::disksim_g2 {

// A dm_layout_g2_zone. Skews are in 2^-32 revolutions.
struct Zone {
  int64_t first_cylinder = 0, last_cylinder = 0;
  int64_t first_lbn = 0, last_lbn = 0;
  int64_t sectors_per_track = 0;
  uint32_t zone_skew = 0;      // "Zone Skew": where the zone's first cylinder starts
  uint32_t track_skew = 0;     // added at each head switch in LBN order
  uint32_t cylinder_skew = 0;  // added at each cylinder switch in LBN order
  libparam::Location where;
};

// A zone's sector width: layout_g2_zone.modspec's 2^32 / spt, rounded down.
uint32_t SectorWidth(int64_t sectors_per_track);

// The extents of LBNs 0 .. blocks-1 ("Block count") from the map file at `path`,
// named at `named_at`. Throws InputError at the line at fault: an unreadable file,
// a malformed line, extents out of LBN order, a gap before `blocks`, a track outside
// the disk or its zone, an LBN in no zone (DiskSim aborts on it).
std::vector<HddExtent> Expand(const std::string& path, const libparam::Location& named_at,
                              const std::vector<Zone>& zones, int64_t blocks, int cylinders, int surfaces);

}  // namespace ziosim::disksim_g2

#endif  // ZIOSIM_MODELS_DISKSIM_DISKSIM_LAYOUT_G2_H_
