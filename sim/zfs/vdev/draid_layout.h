// dRAID geometry (OpenZFS 2.1 module/zfs/vdev_draid.c): fixed-width redundancy
// groups of `data + parity` columns, written as full stripes (a block's asize
// is padded to whole rows of the group), laid over the children 16 MiB row by
// row and permuted slice by slice with the map of draid_map.h; the last
// `spares` positions of every permutation are distributed spare space.
//
// A block maps to one row of columns, or two when it runs past the end of its
// group into the next (vdev_draid_map_alloc). A row is a handful of integers
// and its columns are computed on demand (DraidColumnAt), so mapping a block
// allocates nothing and may nest (a child completing inside IoStart).
#ifndef ZIOSIM_SIM_ZFS_VDEV_DRAID_LAYOUT_H_
#define ZIOSIM_SIM_ZFS_VDEV_DRAID_LAYOUT_H_

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "sim/zfs/vdev/raidz_map.h"

namespace ziosim {

// VDEV_DRAID_ROWHEIGHT = 1 << SPA_MAXBLOCKSHIFT: what each child holds of a
// group in one row (a 16 MiB block must fit one data column).
inline constexpr int64_t kDraidRowHeightBytes = int64_t{1} << 24;
// VDEV_DRAID_REFLOW_RESERVE: scratch kept at the end of every child for expansion.
inline constexpr int64_t kDraidReflowReserveBytes = 2 * kDraidRowHeightBytes;
inline constexpr int kDraidMaxParity = 3;   // VDEV_DRAID_MAXPARITY
inline constexpr int kDraidMaxSpares = 100; // zpool's "arbitrary limit of 100 distributed spares"

struct DraidConfig {
  int children = 0;  // leaves of the vdev, spare space included
  int parity = 1;    // vdc_nparity
  int data = 0;      // vdc_ndata: data columns per group
  int spares = 0;    // vdc_nspares: distributed spares
  int groups = 1;    // vdc_ngroups: groups per slice, the least multiple of
                     // group_width() that disks() divides, over group_width()

  int group_width() const { return data + parity; }
  int disks() const { return children - spares; }  // vdc_ndisks
  int64_t group_bytes() const { return group_width() * kDraidRowHeightBytes; }  // vdc_groupsz
  // What every child holds of one slice (vdev_draid_init's vdc_devslicesz).
  int64_t device_slice_bytes() const { return group_bytes() * groups / disks(); }
  // As `zpool status` names it, less the "-N" suffix: "draid2:8d:12c:1s".
  std::string Name() const;
};

// A dRAID of `children` leaves with `parity` (1-3); `data` 0 takes zpool's
// default (min(children - spares - parity, 8)); `spares` distributed spares.
// Checks what zpool create's draid_config_by_type and vdev_draid_init check and
// throws InputError with zpool's reason otherwise.
DraidConfig MakeDraidConfig(int children, int parity, int data, int spares);

// A configuration with its permutation rows.
class DraidLayout {
 public:
  explicit DraidLayout(const DraidConfig& config);

  const DraidConfig& config() const { return config_; }
  int nperms() const { return nperms_; }
  // Child at position `index` (0 .. children-1) of permutation `perm`
  // (vdev_draid_get_perm + vdev_draid_permute_id: rows repeat every
  // nperms * children permutations, each row rotated by perm % children).
  int Child(uint64_t perm, int index) const;
  // The child whose space distributed spare `spare` (0-based) uses at child
  // offset `offset` (vdev_draid_spare_get_child): the permutation's position
  // children - 1 - spare.
  int SpareChild(int spare, int64_t offset) const;

 private:
  DraidConfig config_;
  std::vector<uint8_t> perms_;
  int nperms_;
};

// Bytes a block of `psize` occupies (vdev_draid_asize): whole rows of the group.
int64_t DraidAsize(const DraidConfig& config, int ashift, int64_t psize);

// Allocatable bytes of the vdev when its smallest child has `child_asize`
// (vdev_draid_open): reserve off, whole 16 MiB rows, whole groups.
int64_t DraidVdevAsize(const DraidConfig& config, int64_t child_asize);

// One row of a block's map (raidz_row_t of vdev_draid_map_alloc_row).
struct DraidRow {
  int64_t offset = 0;           // logical (vdev) offset of this row's part of the block
  int64_t psize = 0;            // data bytes in this row
  int64_t q = 0;                // data sectors of every data column
  int64_t bc = 0;               // "big" columns: one sector more (parity included)
  int64_t empty_sectors = 0;    // rr_nempty: zero-filled sectors padding the full stripe
  int64_t physical_offset = 0;  // child offset of the group's first column in this row
  int64_t perm = 0;             // permutation number (group / groups)
  int group_start = 0;          // first permutation position of the group
  int wrap = 0;                 // columns at or past this one are one row height lower
};

struct DraidBlockMap {
  int rows = 0;  // 1, or 2 when the block spans two groups
  std::array<DraidRow, 2> row{};
  int64_t asize = 0;  // DraidAsize of the block
};

// Maps the block at vdev offset `offset` (a multiple of group_width sectors,
// as the allocator aligns dRAID blocks) of `psize` bytes (rounded up to whole
// sectors). Throws std::invalid_argument when offset or psize are out of range.
DraidBlockMap MapDraidBlock(const DraidLayout& layout, int ashift, int64_t offset, int64_t psize);

// Column `i` (0 .. group_width-1) of `row`: child, child offset, data size
// (0 for a column the block leaves empty) and role ('P', 'Q', 'R' or 'D').
RaidzColumn DraidColumnAt(const DraidLayout& layout, int ashift, const DraidRow& row, int i);

// Bytes every column of `row` is written with (a full stripe: the parity size).
int64_t DraidStripeColumnBytes(const DraidRow& row, int ashift);

}  // namespace ziosim

#endif  // ZIOSIM_SIM_ZFS_VDEV_DRAID_LAYOUT_H_
