// A pool (spa): the vdev tree built from a zpool-syntax spec, its devices,
// the tunables of the chosen era, and the zio arena. Reads enter at the root
// with a DVA (top-level vdev, offset) as a block pointer would give them.
#ifndef ZIOSIM_SIM_ZFS_POOL_H_
#define ZIOSIM_SIM_ZFS_POOL_H_

#include <memory>
#include <string>
#include <vector>

#include "sim/zfs/vdev/leaf_vdev.h"
#include "sim/zfs/vdev/root_vdev.h"
#include "sim/zfs/pool_spec.h"
#include "sim/zfs/tunables.h"

namespace ziosim {

class Pool {
 public:
  // Builds the tree; resolves every drive (InputError for an unknown one) and
  // the mirror policy. HDDs with a command queue reorder it (NCQ, shortest
  // positioning time first). Each HDD's spindle starts at its own angle, drawn
  // from `seed` and its name (SpindlePhase).
  Pool(Simulation* sim, const PoolSpec& spec, Tunables tunables, uint64_t seed);

  Simulation* sim() const { return ctx_.sim; }
  const Tunables& tunables() const { return ctx_.tunables; }
  const PoolSpec& spec() const { return spec_; }
  uint64_t seed() const { return seed_; }
  int ashift() const { return spec_.ashift; }
  RootVdev& root() { return *root_; }
  // Data (normal class) top-level vdevs: 0 .. top_count()-1, the ones blocks are
  // allocated on. Log vdevs (the spec's `log` section, SLOGs) follow them under
  // the root as tops top_count() .. top_count()+log_count()-1: only the ZIL writes there.
  int top_count() const { return static_cast<int>(spec_.vdevs.size()); }
  int log_count() const { return static_cast<int>(spec_.logs.size()); }
  int log_top(int k) const { return top_count() + k; }
  Vdev* top(int i) const { return root_->child(static_cast<size_t>(i)); }
  // Leaves in pool order, with the catalog drive each one is.
  const std::vector<LeafVdev*>& leaves() const { return leaves_; }
  // The leaf named `name` (d0, d1, ...). Throws InputError naming `option`, the
  // argument that gave the name, when the pool has none.
  LeafVdev* Leaf(std::string_view name, const std::string& option) const;
  const std::string& leaf_drive(size_t i) const { return leaf_drives_[i]; }
  // Which top-level vdev leaf i belongs to.
  int leaf_top(size_t i) const { return leaf_tops_[i]; }
  // The index of `leaf` in leaves(). REQUIRES: a leaf of this pool.
  size_t LeafIndex(const Vdev* leaf) const;

  // Bytes a block of `psize` bytes occupies on top-level vdev `top` (RAID-Z
  // parity and padding included; otherwise rounded up to the sector).
  int64_t BlockAsize(int top, int64_t psize) const;

  // Starts reading `size` bytes at `offset` of top-level vdev `top`; `listener`
  // hears when the whole block is in.
  // Returns the root zio, valid until `listener` hears it is done.
  // `metadata`: an indirect block, which the vdev cache may take.
  Zio* Read(int top, int64_t offset, int64_t size, ZioPriority priority, ZioDoneListener* listener,
            uint64_t tag, bool metadata = false);
  // A scrub's or a resilver's read of the block (the scrub class): a scrub
  // reads every mirror child and every parity column, a resilver as a normal
  // read (dsl_scan_scrub_cb's zio_read with ZIO_FLAG_SCRUB / ZIO_FLAG_RESILVER).
  Zio* ScanRead(int top, int64_t offset, int64_t size, ZioScan scan, ZioDoneListener* listener, uint64_t tag);
  // When a read other than a scan's last entered the pool (spa_last_io, which
  // the legacy scan's delay watches); -1: never.
  SimTime last_read_ns() const { return last_read_ns_; }
  // Starts writing `size` bytes at `offset` of top-level vdev `top` (space the
  // caller allocated: BlockAsize bytes there); as zio_write's vdev stage: a
  // mirror writes every child, RAID-Z every column (parity, data, optional
  // skip sectors). `listener` hears when every child is on disk.
  // Returns the root zio, valid until `listener` hears it is done.
  Zio* Write(int top, int64_t offset, int64_t size, ZioPriority priority, ZioDoneListener* listener,
             uint64_t tag);
  // Writes `size` bytes at physical byte `phys_offset` of leaf `leaf` (label
  // and uberblock writes, outside the vdev's allocatable space).
  Zio* WriteLabel(size_t leaf, int64_t phys_offset, int64_t size, ZioPriority priority, ZioDoneListener* listener,
                  uint64_t tag);
  // Writes `size` bytes at `offset` of `leaf`'s vdev space (a resilver's repair
  // write, a rebuild's write to the spare space).
  Zio* WriteLeaf(const Vdev* leaf, int64_t offset, int64_t size, ZioPriority priority, ZioDoneListener* listener,
                 uint64_t tag);
  // The pool's dirty data (dp_dirty_total), as the txg engine reports it.
  void set_dirty_bytes(int64_t bytes) { ctx_.dirty_bytes = bytes; }
  int64_t live_zios() const { return ctx_.arena.live(); }
  void set_observer(LeafIoObserver* observer) { ctx_.observer = observer; }
  // Closes busy-time and depth accounting at the current time.
  void SettleStats();
  // Starts every per-disk and per-mirror statistic afresh at the current time.
  void ResetStats();

 private:
  std::unique_ptr<Vdev> BuildTop(const PoolSpecVdev& v, int top_index);
  std::unique_ptr<LeafVdev> BuildLeaf(const std::string& drive, int top_index);
  Zio* StartRoot(ZioType type, ZioScan scan, int top, int64_t offset, int64_t size, ZioPriority priority,
                 ZioDoneListener* listener, uint64_t tag, bool metadata);

  PoolContext ctx_;
  PoolSpec spec_;
  uint64_t seed_;
  std::unique_ptr<RootVdev> root_;
  SimTime last_read_ns_ = -1;
  std::vector<LeafVdev*> leaves_;
  std::vector<std::string> leaf_drives_;
  std::vector<int> leaf_tops_;
};

// The L2ARC device for a Dmu: `drive` when given (the --l2arc option), else
// the spec's `cache` device; null when neither names one.
std::unique_ptr<Device> MakeL2arcDevice(const Pool& pool, const std::string& drive);

}  // namespace ziosim

#endif  // ZIOSIM_SIM_ZFS_POOL_H_
