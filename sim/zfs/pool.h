// A pool (spa): the vdev tree built from a zpool-syntax spec, its devices,
// the tunables of the chosen era, and the zio arena. Reads enter at the root
// with a DVA (top-level vdev, offset) as a block pointer would give them.
#ifndef ZIOSIM_SIM_ZFS_POOL_H_
#define ZIOSIM_SIM_ZFS_POOL_H_

#include <memory>
#include <string>
#include <vector>

#include "models/vdev/leaf_vdev.h"
#include "models/vdev/root_vdev.h"
#include "sim/zfs/pool_spec.h"
#include "sim/zfs/tunables.h"

namespace ziosim {

class Pool {
 public:
  // Builds the tree; resolves every drive (InputError for an unknown one) and
  // the mirror policy. HDDs with a command queue reorder it (NCQ, shortest
  // positioning time first).
  Pool(Simulation* sim, const PoolSpec& spec, Tunables tunables);

  Simulation* sim() const { return ctx_.sim; }
  const Tunables& tunables() const { return ctx_.tunables; }
  const PoolSpec& spec() const { return spec_; }
  int ashift() const { return spec_.ashift; }
  RootVdev& root() { return *root_; }
  int top_count() const { return static_cast<int>(root_->children().size()); }
  Vdev* top(int i) const { return root_->child(static_cast<size_t>(i)); }
  // Leaves in pool order, with the catalog drive each one is.
  const std::vector<LeafVdev*>& leaves() const { return leaves_; }
  const std::string& leaf_drive(size_t i) const { return leaf_drives_[i]; }
  // Which top-level vdev leaf i belongs to.
  int leaf_top(size_t i) const { return leaf_tops_[i]; }

  // Bytes a block of `psize` bytes occupies on top-level vdev `top` (RAID-Z
  // parity and padding included; otherwise rounded up to the sector).
  int64_t BlockAsize(int top, int64_t psize) const;

  // Starts reading `size` bytes at `offset` of top-level vdev `top`; `listener`
  // hears when the whole block is in.
  // Returns the root zio, valid until `listener` hears it is done.
  Zio* Read(int top, int64_t offset, int64_t size, ZioPriority priority, ZioDoneListener* listener,
            uint64_t tag);
  int64_t live_zios() const { return ctx_.arena.live(); }
  void set_observer(LeafIoObserver* observer) { ctx_.observer = observer; }
  // Closes busy-time and depth accounting at the current time.
  void SettleStats();
  // Starts every per-disk and per-mirror statistic afresh at the current time.
  void ResetStats();

 private:
  std::unique_ptr<Vdev> BuildTop(const PoolSpecVdev& v, int top_index);
  std::unique_ptr<LeafVdev> BuildLeaf(const std::string& drive, int top_index);

  PoolContext ctx_;
  PoolSpec spec_;
  std::unique_ptr<RootVdev> root_;
  std::vector<LeafVdev*> leaves_;
  std::vector<std::string> leaf_drives_;
  std::vector<int> leaf_tops_;
};

}  // namespace ziosim

#endif  // ZIOSIM_SIM_ZFS_POOL_H_
