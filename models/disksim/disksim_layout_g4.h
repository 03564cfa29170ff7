// DiskSim 4.0's dm_layout_g4, the layout DIXtrac's g4 tools write: track patterns
// (TP: a run of a track's sectors), index nodes (IDX: entries that repeat a child
// pattern over runs of LBNs and cylinders, the last node being the root), slips
// (LBN positions the tree skips) and remaps (LBN runs moved elsewhere). Here the
// tables become the explicit extent list of HddExtentMap, each LBN placed and each
// sector's start angle computed as layout_g4.c's ltop and g4_skew compute them.
#ifndef ZIOSIM_MODELS_DISKSIM_DISKSIM_LAYOUT_G4_H_
#define ZIOSIM_MODELS_DISKSIM_DISKSIM_LAYOUT_G4_H_

#include <cstdint>
#include <vector>

#include "models/device/hdd_params.h"
#include "models/disksim/libparam.h"

namespace ziosim::disksim_g4 {

// One TP entry: LBN L of the range low..high lies on sector low + L (layout_g4.c
// adds low to an LBN it has already checked against low; the g4 tools write low 0).
struct TrackPattern {
  int64_t low = 0;
  int64_t high = 0;
  int64_t sectors_per_track = 0;
  libparam::Location where;
};

// One IDX entry. Angles are fractions of a revolution.
struct Entry {
  int64_t lbn = 0;         // first LBN of the first instance, relative to the parent's
  int64_t cylinder = 0;    // its first cylinder, relative to the parent's
  double offset = 0;       // angle of the first instance, relative to the parent's
  int64_t length = 0;      // LBNs in one instance of the child
  int64_t cylinders = 0;   // cylinders one instance covers
  double angle_step = 0;   // angle from one instance to the next
  int64_t run = 0;         // LBNs all instances cover
  int64_t cylinder_run = 0;  // cylinders all instances cover; negative: instances go down
  bool child_is_track = false;
  int64_t child = 0;       // index into the TP list or the IDX list
  int64_t head = 0;        // child_is_track only
  libparam::Location where;
};

struct Slip {
  int64_t lbn = 0;    // the position in the tree's LBN space where the slip sits
  int64_t count = 0;  // positions slipped (negative: spares given back)
  libparam::Location where;
};

struct Remap {
  int64_t lbn = 0;
  int64_t count = 0;
  int64_t cylinder = 0, head = 0, sector = 0, sectors_per_track = 0;
  libparam::Location where;
};

struct Tables {
  std::vector<TrackPattern> tracks;
  std::vector<std::vector<Entry>> indexes;  // the last one is the root
  std::vector<Slip> slips;
  std::vector<Remap> remaps;
  libparam::Location where;  // the dm_layout_g4 block
};

// The extents of LBNs 0 .. blocks-1 ("Block count"). REQUIRES: each field within the
// range its reader checks (non-negative but for cylinders and runs and slip counts;
// lengths, runs, spt and remap counts positive). Throws InputError at the entry at
// fault if the tables are inconsistent or leave an LBN without a sector (DiskSim would
// answer DM_NX for it, or abort). The tables define the disk's cylinders, as in
// DiskSim, which never checks them against "Number of cylinders".
std::vector<HddExtent> Expand(const Tables& tables, int64_t blocks, int surfaces);

}  // namespace ziosim::disksim_g4

#endif  // ZIOSIM_MODELS_DISKSIM_DISKSIM_LAYOUT_G4_H_
