// A dRAID vdev (OpenZFS 2.1 vdev_draid.c): RAID-Z redundancy groups of fixed
// width laid over all children by the permutation maps (draid_layout.h), with
// distributed spare space on every child.
//
// Reads take a row's data columns (vdev_draid_io_start_read); with a column
// missing they take parity too, and a row that has empty (padding) sectors is
// widened first so that every data column is read whole (vdev_draid_map_alloc_empty:
// reconstruction needs the zero-filled sectors). Writes are full stripes: every
// column at the parity column's size, empty sectors included
// (vdev_draid_io_start_write). A scrub or resilver read takes every column,
// padding included (vdev_draid_map_alloc_scrub). A child that failed and was rebuilt onto a
// distributed spare (UseSpare) is served by the child that holds the spare's
// space at each offset (vdev_draid_spare_io_start).
#ifndef ZIOSIM_SIM_ZFS_VDEV_DRAID_VDEV_H_
#define ZIOSIM_SIM_ZFS_VDEV_DRAID_VDEV_H_

#include <string_view>
#include <vector>

#include "sim/zfs/vdev/draid_layout.h"
#include "sim/zfs/vdev/vdev.h"

namespace ziosim {

struct DraidStats {
  uint64_t blocks_read = 0;
  uint64_t reconstructions = 0;      // normal reads with a data column missing: parity read to rebuild it
  uint64_t parity_columns_read = 0;
  uint64_t spare_columns = 0;        // column I/Os sent to a distributed spare's space
  uint64_t empty_sectors_written = 0;  // zero-filled sectors of full-stripe writes
};

class DraidVdev : public Vdev {
 public:
  DraidVdev(PoolContext* ctx, std::string name, const DraidConfig& config, int ashift);

  const DraidLayout& layout() const { return layout_; }
  int ashift() const { return ashift_; }
  int64_t asize_bytes() const override;
  bool rotational() const override;
  // At most `parity` children whose data is nowhere (failed and not rebuilt
  // onto a distributed spare).
  bool readable() const override;
  int nparity() const override { return layout_.config().parity; }
  // vdev_draid_ndisks less parity: the children that are not spare space.
  int data_disks() const override { return layout_.config().disks() - layout_.config().parity; }
  int64_t PsizeToAsize(int64_t psize, int ashift) const override;
  int64_t block_alignment_bytes() const override {
    return int64_t{layout_.config().group_width()} << ashift_;
  }
  void ResetStats() override;
  void IoStart(Zio* zio) override;
  bool NeedsResilver(int64_t offset, int64_t psize) const override;
  void RepairWrites(int64_t offset, int64_t psize, std::vector<RepairWrite>* out) const override;

  // Child `child` failed and was rebuilt onto distributed spare `spare`
  // (`zpool replace POOL dN draidP-T-S` and its sequential rebuild done): its
  // columns now live in the spare's space. REQUIRES: 0 <= spare < spares, not
  // already in use; 0 <= child < children.
  void UseSpare(int child, int spare);
  // The sequential rebuild of child `child` onto distributed spare `spare`
  // (vdev_rebuild_range on a dRAID): whether the chunk at `offset` of
  // `psize` bytes lies in a group holding the child, and the writes that put
  // its columns (whole stripe columns: a rebuild chunk has no padding) into
  // the spare's space, on the children holding it at each offset.
  bool GroupHolds(int64_t offset, int64_t psize, int child) const;
  void RebuildWrites(int64_t offset, int64_t psize, int child, int spare, std::vector<RepairWrite>* out) const;
  // The largest chunk a sequential rebuild reads at `offset`
  // (vdev_draid_rebuild_asize): 1 MiB per data column, at most 16 MiB, whole
  // stripe rows, and never past the end of the redundancy group.
  int64_t RebuildChunkAsize(int64_t offset, int64_t max_segment) const;
  // The child distributed spare `spare` stands in for; -1 when unused.
  int spared_child(int spare) const;

  const DraidStats& stats() const { return stats_; }

 private:
  // The leaf that serves child `child`'s column at `offset`: the child, or the
  // one holding its distributed spare's space there.
  Vdev* Holder(int child, int64_t offset) const;
  // Calls io(leaf, offset, size, parity, on_spare) for every child I/O of a
  // read (a scan's read, or a write) of `map`, in OpenZFS's order (rows in
  // turn, a read's columns last to first); returns false when a row cannot be
  // read (more columns missing than parity). Reads nothing of the parent zio:
  // the last child may complete it before the walk ends.
  template <typename Io>
  bool ForEachChildIo(bool write, bool scan, const DraidBlockMap& map, Io io) const;

  DraidLayout layout_;
  int ashift_;
  std::vector<int> spare_of_child_;  // distributed spare serving each child; -1 for none
  DraidStats stats_;
};

// The configuration `zpool create` makes of a dRAID keyword ("draid2:8d:1s")
// over `children` leaves (0: as the keyword's :<N>c says). Throws InputError
// with the reason when the keyword is malformed or zpool would refuse it.
DraidConfig DraidConfigFromKeyword(std::string_view keyword, int children);

}  // namespace ziosim

#endif  // ZIOSIM_SIM_ZFS_VDEV_DRAID_VDEV_H_
