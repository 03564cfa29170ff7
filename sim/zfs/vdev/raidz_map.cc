// RAID-Z geometry: a transcription of vdev_raidz_asize() and the column
// arithmetic of vdev_raidz_map_alloc() (OpenZFS module/zfs/vdev_raidz.c; the
// same since 2008 for a single-row map). Reference: zfs-read-path.md 3.2, 3.3.
#include "sim/zfs/vdev/raidz_map.h"

#include <algorithm>
#include <stdexcept>
#include <string>
#include <utility>

#include "sim/core/bytes.h"

namespace ziosim {
namespace {

constexpr char kParityRole[3] = {'P', 'Q', 'R'};

void CheckGeometry(int width, int parity, int ashift) {
  if (width < 2 || width > kMaxRaidzWidth || parity < 1 || parity > 3 || parity >= width || ashift < 0 ||
      ashift > 30) {
    throw std::invalid_argument("RAID-Z geometry out of range: width " + std::to_string(width) + ", parity " +
                                std::to_string(parity) + ", ashift " + std::to_string(ashift));
  }
}

}  // namespace

int64_t RaidzAsize(int width, int parity, int ashift, int64_t psize) {
  CheckGeometry(width, parity, ashift);
  if (psize <= 0) throw std::invalid_argument("RaidzAsize: psize " + std::to_string(psize) + " <= 0");
  // asize = ((psize - 1) >> ashift) + 1;
  // asize += nparity * ((asize + cols - nparity - 1) / (cols - nparity));
  // asize = roundup(asize, nparity + 1) << ashift;
  int64_t sectors = ((psize - 1) >> ashift) + 1;
  sectors += parity * ((sectors + width - parity - 1) / (width - parity));
  return RoundUp(sectors, parity + 1) << ashift;
}

RaidzMap MapRaidzBlock(int width, int parity, int ashift, int64_t offset, int64_t psize) {
  CheckGeometry(width, parity, ashift);
  const int64_t sector = int64_t{1} << ashift;
  if (offset < 0 || psize <= 0 || (offset & (sector - 1)) != 0) {
    throw std::invalid_argument("MapRaidzBlock: offset " + std::to_string(offset) + " / psize " +
                                std::to_string(psize) + ": offset not a multiple of 2^" + std::to_string(ashift) +
                                " or psize not positive");
  }
  const int64_t dcols = width;
  const int64_t np = parity;
  const int64_t b = offset >> ashift;  // first vdev sector of the block
  // Data sectors: zio_vdev_io_start pads an I/O to whole sectors of the top-level vdev first.
  const int64_t s = ((psize - 1) >> ashift) + 1;
  const int64_t f = b % dcols;         // child holding column 0
  const int64_t o = (b / dcols) << ashift;
  const int64_t q = s / (dcols - np);  // full rows
  const int64_t r = s - q * (dcols - np);
  const int64_t bc = r == 0 ? 0 : r + np;  // columns with q+1 sectors
  const int64_t tot = s + np * (q + (r == 0 ? 0 : 1));

  int64_t acols = dcols;
  int64_t scols = dcols;
  if (q == 0) {  // small block: fewer columns than children
    acols = bc;
    scols = std::min(dcols, RoundUp(bc, np + 1));
  }

  RaidzMap map;
  map.parity = parity;
  map.columns = static_cast<int>(scols);
  map.skip_start = static_cast<int>(bc);
  for (int64_t c = 0; c < scols; ++c) {
    RaidzColumn& col = map.column[c];
    col.child = static_cast<int>((f + c) % dcols);
    col.offset = o + (f + c >= dcols ? sector : 0);
    col.size = c >= acols ? 0 : (c < bc ? q + 1 : q) << ashift;
    col.role = c < np ? kParityRole[c] : 'D';
  }
  map.asize = RoundUp(tot, np + 1) << ashift;
  map.skip_sectors = static_cast<int>(RoundUp(tot, np + 1) - tot);

  // RAID-Z1 only: every other 1 MiB of vdev space swaps parity with the first
  // data column (same size: both are column < bc or both >= bc).
  if (np == 1 && (offset & (int64_t{1} << 20)) != 0) {
    std::swap(map.column[0].child, map.column[1].child);
    std::swap(map.column[0].offset, map.column[1].offset);
    if (map.skip_start == 0) map.skip_start = 1;
  }
  return map;
}

RaidzColumn RaidzSkipSector(const RaidzMap& map, int i) {
  if (i < 0 || i >= map.skip_sectors || map.columns <= 0) {
    throw std::invalid_argument("RaidzSkipSector: no skip sector " + std::to_string(i));
  }
  int c = map.skip_start;
  for (int k = 0; k < i; ++k) {  // as vdev_raidz_io_start: wrap to column 0 at scols
    ++c;
    if (c == map.columns) c = 0;
  }
  if (c == map.columns) c = 0;
  const RaidzColumn& col = map.column[c];
  return RaidzColumn{col.child, col.offset + col.size, 0, 'S'};
}

int RaidzActiveColumns(const RaidzMap& map) {
  int n = 0;
  for (int c = 0; c < map.columns; ++c) n += map.column[c].size > 0 ? 1 : 0;
  return n;
}

}  // namespace ziosim
