#include "sim/zfs/vdev/block_map_view.h"

namespace ziosim {

BlockMapView ViewRaidzBlock(int width, int parity, int ashift, int64_t offset, int64_t psize) {
  const RaidzMap m = MapRaidzBlock(width, parity, ashift, offset, psize);
  BlockMapView v;
  v.asize = m.asize;
  v.parity = m.parity;
  for (int c = 0; c < m.columns; ++c) {
    v.columns.push_back(m.column[c]);
    v.column_row.push_back(0);
    v.column_index.push_back(c);
  }
  for (int i = 0; i < m.skip_sectors; ++i) {
    RaidzColumn s = RaidzSkipSector(m, i);
    s.size = int64_t{1} << ashift;
    v.pads.push_back(s);
  }
  return v;
}

BlockMapView ViewDraidBlock(const DraidLayout& layout, int ashift, int64_t offset, int64_t psize) {
  const DraidBlockMap m = MapDraidBlock(layout, ashift, offset, psize);
  const int64_t sector = int64_t{1} << ashift;
  BlockMapView v;
  v.asize = m.asize;
  v.parity = layout.config().parity;
  for (int r = 0; r < m.rows; ++r) {
    const DraidRow& row = m.row[static_cast<size_t>(r)];
    const int64_t stripe = DraidStripeColumnBytes(row, ashift);
    for (int i = 0; i < layout.config().group_width(); ++i) {
      const RaidzColumn col = DraidColumnAt(layout, ashift, row, i);
      v.columns.push_back(col);
      v.column_row.push_back(r);
      v.column_index.push_back(i);
      // A data column shorter than the stripe is padded after its data (vdev_draid_map_alloc_write).
      for (int64_t at = col.offset + col.size; at < col.offset + stripe; at += sector) {
        v.pads.push_back(RaidzColumn{col.child, at, sector, 'S'});
      }
    }
  }
  return v;
}

}  // namespace ziosim
