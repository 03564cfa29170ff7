// RAID-Z geometry (vdev_raidz.c, vdev_raidz_map_alloc and vdev_raidz_asize):
// where the columns of one block land on the children, which are parity, how
// much space the block takes and where its skip (pad) sectors are. The
// arithmetic is OpenZFS's, unchanged from 2008 to today, including the
// RAID-Z1 parity swap on bit 20 of the offset.
#ifndef ZIOSIM_SIM_ZFS_VDEV_RAIDZ_MAP_H_
#define ZIOSIM_SIM_ZFS_VDEV_RAIDZ_MAP_H_

#include <array>
#include <cstdint>

namespace ziosim {

inline constexpr int kMaxRaidzWidth = 64;

// Plain data without defaults, so that a map's 64 columns cost nothing until
// they are filled: a RAID-Z read maps its block on every I/O. A column made by
// hand is value-initialized ({}) or has every field set.
struct RaidzColumn {
  int child;          // child vdev index
  int64_t offset;     // byte offset on the child (vdev space, no label)
  int64_t size;       // bytes; 0 for a column a small block does not touch
  char role;          // 'P', 'Q', 'R' (parity levels), 'D' (data) or 'S' (skip sector)
};

struct RaidzMap {
  int64_t asize = 0;       // bytes allocated in vdev space (data + parity + skip)
  int skip_sectors = 0;    // pad sectors after the block (never read)
  int skip_start = 0;      // column index where skip sectors start (after the bit-20 quirk)
  int columns = 0;         // columns in use (scols). As OpenZFS (rm_cols): a small block
                           // (q == 0) whose data + parity (acols columns) is not a multiple
                           // of parity+1 also lists the columns acols..scols-1 that hold its
                           // skip sectors; they are role 'D' with size 0 and are never read.
  int parity = 0;          // columns [0, parity) are parity; data columns follow in logical order
  std::array<RaidzColumn, kMaxRaidzWidth> column;  // [0, columns) filled; the rest unspecified
};

// Allocated size of a block of `psize` bytes (vdev_raidz_asize); psize need not
// be sector-aligned (it is rounded up to whole sectors). Equals
// MapRaidzBlock(...).asize. Same geometry REQUIRES as below, psize > 0.
int64_t RaidzAsize(int width, int parity, int ashift, int64_t psize);

// Column map of the block at vdev offset `offset` with physical size `psize`.
// psize need not be sector-aligned: as zio_vdev_io_start pads the I/O, it is
// rounded up to whole sectors. REQUIRES: 2 <= width <= kMaxRaidzWidth,
// 1 <= parity <= 3, parity < width, offset a multiple of 2^ashift, psize > 0.
// Throws std::invalid_argument when a REQUIRES is broken (a bug in the caller:
// user input is checked before, with an InputError naming the option).
RaidzMap MapRaidzBlock(int width, int parity, int ashift, int64_t offset, int64_t psize);

// Where skip sector `i` (0 <= i < map.skip_sectors) of a mapped block lies: as
// vdev_raidz_io_start places the optional skip writes, in column
// (skip_start + i) mod columns, just after that column's data. This is always
// the vdev sector (offset >> ashift) + tot + i. The result has role 'S' and
// size 0 (the sector size, 2^ashift, is not in the map).
RaidzColumn RaidzSkipSector(const RaidzMap& map, int i);

// Number of columns holding data or parity (acols): the columns with size > 0.
int RaidzActiveColumns(const RaidzMap& map);

}  // namespace ziosim

#endif  // ZIOSIM_SIM_ZFS_VDEV_RAIDZ_MAP_H_
