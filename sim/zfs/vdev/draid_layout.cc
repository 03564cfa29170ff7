// dRAID geometry: transcriptions of vdev_draid_asize, vdev_draid_open's
// capacity, vdev_draid_logical_to_physical and vdev_draid_map_alloc_row
// (OpenZFS 2.1.11 module/zfs/vdev_draid.c), and of the checks and defaults of
// zpool create's draid_config_by_type (cmd/zpool/zpool_vdev.c).
#include "sim/zfs/vdev/draid_layout.h"

#include <algorithm>
#include <stdexcept>

#include "sim/core/status.h"
#include "sim/zfs/vdev/draid_map.h"

namespace ziosim {
namespace {

constexpr char kParityRole[3] = {'P', 'Q', 'R'};
// zpool's default data columns per group: "a reasonable tradeoff between capacity and performance".
constexpr int kDraidDefaultData = 8;

std::string N(int64_t v) { return std::to_string(v); }

}  // namespace

std::string DraidConfig::Name() const {
  return "draid" + N(parity) + ":" + N(data) + "d:" + N(children) + "c:" + N(spares) + "s";
}

DraidConfig MakeDraidConfig(int children, int parity, int data, int spares) {
  if (parity < 1 || parity > kDraidMaxParity) {
    throw InputError("invalid dRAID parity level " + N(parity) + "; must be between 1 and " + N(kDraidMaxParity));
  }
  if (children < kDraidMinChildren || children > kDraidMaxChildren) {
    throw InputError(N(children) + " disks were provided, but dRAID needs " + N(kDraidMinChildren) + " to " +
                     N(kDraidMaxChildren));
  }
  if (spares < 0) throw InputError("invalid number of dRAID spares " + N(spares));
  if (data == 0) {
    if (children <= spares + parity) {
      throw InputError("requested number of distributed spares " + N(spares) + " and parity level " + N(parity) +
                       " leaves no disks available for data");
    }
    data = std::min(children - spares - parity, kDraidDefaultData);
  }
  if (data < 1 || data + parity > children - spares) {
    throw InputError("requested number of dRAID data disks per group " + N(data) + " is too high, at most " +
                     N(std::max(children - spares - parity, 0)) + " disks are available for data");
  }
  if (spares > kDraidMaxSpares || spares > children - (data + parity)) {
    throw InputError("invalid number of dRAID spares " + N(spares) + "; additional disks would be required");
  }
  DraidConfig c{children, parity, data, spares, 1};
  // The fewest groups that fill whole rows of a slice: LCM(group width, disks) / group width.
  while (c.groups * c.group_width() % c.disks() != 0) ++c.groups;
  return c;
}

DraidLayout::DraidLayout(const DraidConfig& config) : config_(config) {
  const DraidMapSeed* seed = FindDraidMapSeed(config.children);
  if (seed == nullptr) throw InternalError("no dRAID map for " + N(config.children) + " children");
  perms_ = DraidPermutations(*seed);
  nperms_ = seed->nperms;
}

int DraidLayout::Child(uint64_t perm, int index) const {
  const uint64_t children = static_cast<uint64_t>(config_.children);
  const uint64_t poff = perm % (static_cast<uint64_t>(nperms_) * children);
  const uint8_t* base = perms_.data() + (poff / children) * children;
  return static_cast<int>((base[index] + poff % children) % children);
}

int DraidLayout::SpareChild(int spare, int64_t offset) const {
  const uint64_t perm = static_cast<uint64_t>(offset / config_.device_slice_bytes());
  return Child(perm, config_.children - 1 - spare);
}

int64_t DraidAsize(const DraidConfig& config, int ashift, int64_t psize) {
  const int64_t rows = (psize - 1) / (int64_t{config.data} << ashift) + 1;
  return (rows * config.group_width()) << ashift;
}

int64_t DraidVdevAsize(const DraidConfig& config, int64_t child_asize) {
  if (child_asize < kDraidReflowReserveBytes) return 0;
  const int64_t rows = (child_asize - kDraidReflowReserveBytes) / kDraidRowHeightBytes * kDraidRowHeightBytes;
  return rows * config.disks() / config.group_bytes() * config.group_bytes();
}

namespace {

// vdev_draid_map_alloc_row for the part of a block at `offset` with at most
// `psize` bytes; the row takes what fits before the end of the group.
DraidRow MapRow(const DraidConfig& c, int ashift, int64_t offset, int64_t psize) {
  const int64_t group = offset / c.group_bytes();
  const int64_t group_end = (group + 1) * c.group_bytes();
  if (offset + DraidAsize(c, ashift, psize) > group_end) {
    psize = (group_end - offset) / c.group_width() * c.data;  // vdev_draid_asize_to_psize
  }
  DraidRow r;
  r.offset = offset;
  r.psize = psize;
  const int64_t gw = c.group_width();
  r.group_start = static_cast<int>(group * gw % c.disks());
  r.wrap = static_cast<int>(r.group_start + gw > c.disks() ? c.disks() - r.group_start : gw);
  // vdev_draid_logical_to_physical: the row of the slice where the group starts.
  const int64_t row_sectors = kDraidRowHeightBytes >> ashift;
  const int64_t b = (offset >> ashift) % (row_sectors * gw);
  r.perm = group / c.groups;
  const int64_t slice_row = r.perm * (gw * c.groups / c.disks()) + (group % c.groups) * gw / c.disks();
  r.physical_offset = (row_sectors * slice_row + b / gw) << ashift;
  const int64_t sectors = psize >> ashift;
  r.q = sectors / c.data;
  const int64_t rem = sectors - r.q * c.data;
  r.bc = rem == 0 ? 0 : rem + c.parity;
  const int64_t tot = sectors + c.parity * (r.q + (rem == 0 ? 0 : 1));
  r.empty_sectors = (tot + gw - 1) / gw * gw - tot;
  return r;
}

}  // namespace

DraidBlockMap MapDraidBlock(const DraidLayout& layout, int ashift, int64_t offset, int64_t psize) {
  const DraidConfig& c = layout.config();
  const int64_t sector = int64_t{1} << ashift;
  if (offset < 0 || psize <= 0 || offset % (c.group_width() * sector) != 0 || psize > kDraidRowHeightBytes) {
    throw std::invalid_argument("MapDraidBlock: offset " + N(offset) + " / psize " + N(psize) +
                                ": offset not a multiple of the group width's sectors or psize not in 1..16 MiB");
  }
  // zio_vdev_io_start pads the I/O to whole sectors of the top-level vdev.
  const int64_t padded = (psize + sector - 1) / sector * sector;
  DraidBlockMap m;
  m.asize = DraidAsize(c, ashift, padded);
  m.row[0] = MapRow(c, ashift, offset, padded);
  m.rows = 1;
  if (m.row[0].psize < padded) {
    m.row[1] = MapRow(c, ashift, offset + DraidAsize(c, ashift, m.row[0].psize), padded - m.row[0].psize);
    m.rows = 2;
  }
  return m;
}

RaidzColumn DraidColumnAt(const DraidLayout& layout, int ashift, const DraidRow& row, int i) {
  const DraidConfig& c = layout.config();
  RaidzColumn col;
  col.child = layout.Child(static_cast<uint64_t>(row.perm), (row.group_start + i) % c.disks());
  col.offset = row.physical_offset + (i >= row.wrap ? kDraidRowHeightBytes : 0);
  if (row.q == 0 && i >= row.bc) {
    col.size = 0;
  } else {
    col.size = (i < row.bc ? row.q + 1 : row.q) << ashift;
  }
  col.role = i < c.parity ? kParityRole[i] : 'D';
  return col;
}

int64_t DraidStripeColumnBytes(const DraidRow& row, int ashift) {
  return (row.bc > 0 ? row.q + 1 : row.q) << ashift;
}

}  // namespace ziosim
