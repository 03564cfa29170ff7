// One block's map as `ziosim raidz-map` and Python's ziosim.raidz_map show it,
// for RAID-Z and dRAID alike: the columns (child, child offset, size, role) in
// map order, the row each belongs to (dRAID: 1 when the block runs into the
// next group), and the sectors that pad the block (RAID-Z's skip sectors,
// dRAID's zero-filled sectors of the full stripe).
#ifndef ZIOSIM_SIM_ZFS_VDEV_BLOCK_MAP_VIEW_H_
#define ZIOSIM_SIM_ZFS_VDEV_BLOCK_MAP_VIEW_H_

#include <cstdint>
#include <vector>

#include "sim/zfs/vdev/draid_layout.h"
#include "sim/zfs/vdev/raidz_map.h"

namespace ziosim {

struct BlockMapView {
  int64_t asize = 0;  // bytes allocated: data + parity + padding
  int parity = 0;     // the first `parity` columns of each row are P, Q, R
  std::vector<RaidzColumn> columns;  // role P/Q/R/D; size 0: a column the block leaves empty
  std::vector<int> column_row;       // per column: its row (0, or 1 for dRAID's second)
  std::vector<int> column_index;     // per column: its index in its row
  std::vector<RaidzColumn> pads;     // one per padding sector: role 'S', size = the sector
};

// MapRaidzBlock's map (same REQUIRES).
BlockMapView ViewRaidzBlock(int width, int parity, int ashift, int64_t offset, int64_t psize);

// MapDraidBlock's map (same REQUIRES).
BlockMapView ViewDraidBlock(const DraidLayout& layout, int ashift, int64_t offset, int64_t psize);

}  // namespace ziosim

#endif  // ZIOSIM_SIM_ZFS_VDEV_BLOCK_MAP_VIEW_H_
