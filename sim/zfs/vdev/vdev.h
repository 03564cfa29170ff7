// The vdev tree, shaped like OpenZFS's: every node is a Vdev behind one small
// interface (the vdev_ops_t of vdev_impl.h): a leaf (one disk, with its ZFS
// queue), a mirror, a RAID-Z group, and the root that stripes over the
// top-level vdevs. A zio enters a vdev through IoStart(); a vdev with children
// issues child zios and finishes its own zio in IoDone() when the last child
// is done, so completions climb the tree as in zio_done().
//
// Ownership: a vdev owns its children. Zios come from the pool's ZioArena.
// Not thread-safe.
#ifndef ZIOSIM_SIM_ZFS_VDEV_VDEV_H_
#define ZIOSIM_SIM_ZFS_VDEV_VDEV_H_

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "sim/core/simulation.h"
#include "sim/zfs/tunables.h"
#include "sim/zfs/zio.h"

namespace ziosim {

class LeafVdev;

// Sees every zio a leaf completes (the per-I/O log).
class LeafIoObserver {
 public:
  virtual ~LeafIoObserver() = default;
  // `zio` finished on `leaf`; `issued` is the device I/O that carried it (the
  // zio itself, or the aggregate it went out in).
  virtual void OnLeafIoDone(const LeafVdev& leaf, const Zio& zio, const Zio& issued, SimTime now) = 0;
};

// What every vdev of one pool shares.
struct PoolContext {
  Simulation* sim = nullptr;
  ZioArena arena;
  Tunables tunables;
  LeafIoObserver* observer = nullptr;
  // Dirty data of the pool (dp_dirty_total), kept by the txg engine: the
  // class scheduler scales the async-write max_active by it.
  int64_t dirty_bytes = 0;
};

// Front labels and boot area before the first allocatable byte of a leaf
// (VDEV_LABEL_START_SIZE: two 256 KiB labels + 3.5 MiB boot block).
inline constexpr int64_t kVdevLabelStartBytes = 4 << 20;
// The two back labels at the end of a leaf (VDEV_LABEL_END_SIZE).
inline constexpr int64_t kVdevLabelEndBytes = 512 << 10;

class Vdev {
 public:
  Vdev(PoolContext* ctx, std::string type, std::string name)
      : ctx_(ctx), type_(std::move(type)), name_(std::move(name)) {}
  virtual ~Vdev() = default;
  Vdev(const Vdev&) = delete;
  Vdev& operator=(const Vdev&) = delete;

  const std::string& type() const { return type_; }  // "disk", "mirror", "raidz2", "root"
  const std::string& name() const { return name_; }
  Vdev* parent() const { return parent_; }
  const std::vector<std::unique_ptr<Vdev>>& children() const { return children_; }
  Vdev* child(size_t i) const { return children_[i].get(); }
  void AddChild(std::unique_ptr<Vdev> child);

  virtual bool is_leaf() const { return false; }
  // Allocatable bytes of this vdev's own address space.
  virtual int64_t asize_bytes() const = 0;
  // True unless every device below is solid state (vdev_nonrot).
  virtual bool rotational() const = 0;
  // Whether a read can be served (a leaf that is not faulted; a mirror with a
  // readable child; a RAID-Z group missing at most `parity` children).
  virtual bool readable() const = 0;
  // Parity columns of a row (vdev_nparity): 0 but for RAID-Z and dRAID.
  virtual int nparity() const { return 0; }
  // The disks a block's data spreads over (vdev_get_ndisks - vdev_get_nparity):
  // 1 for a disk or a mirror; the sorted scan scales its bytes in flight by it.
  virtual int data_disks() const { return 1; }
  // Bytes a block of `psize` occupies in this vdev's space (vdev_op_psize_to_asize):
  // whole sectors of 1 << ashift; RAID-Z adds its parity and padding.
  virtual int64_t PsizeToAsize(int64_t psize, int ashift) const;
  // Where a block may start in this vdev's space: a multiple of this many
  // bytes (dRAID: a whole stripe row, vdev_draid_get_astart); 1 elsewhere.
  virtual int64_t block_alignment_bytes() const { return 1; }
  // A leaf write of a resilver: bytes at a child offset (vdev space) of a leaf.
  struct RepairWrite {
    Vdev* leaf = nullptr;
    int64_t offset = 0;
    int64_t size = 0;
  };
  // Whether the block at `offset` of `psize` bytes has a copy or column on a
  // disk being replaced (vdev_dtl_need_resilver: a mirror with such a child
  // always; RAID-Z when the block touches its column; dRAID when the block's
  // group holds it). False for a vdev without redundancy.
  virtual bool NeedsResilver(int64_t /*offset*/, int64_t /*psize*/) const { return false; }
  // The writes that put the block back on the disks being replaced, once it
  // is read and reconstructed (vdev_mirror_io_done's and
  // vdev_raidz_io_done's repair writes): appended to `out`.
  virtual void RepairWrites(int64_t /*offset*/, int64_t /*psize*/, std::vector<RepairWrite>* /*out*/) const {}
  // Reads this vdev sent to child `c` by its own choice (a mirror's child
  // selection); 0 where the vdev does not choose.
  virtual uint64_t ChildSelections(size_t /*c*/) const { return 0; }
  // Starts this vdev's statistics, and its children's, afresh.
  virtual void ResetStats();

  // Starts `zio` on this vdev. REQUIRES: zio->vdev == this.
  virtual void IoStart(Zio* zio) = 0;
  // Every child of `zio` has completed. The default finishes `zio`.
  virtual void IoDone(Zio* zio) { Finish(zio); }
  // Moves `zio` and its children in flight to `priority` (zio_change_priority):
  // a leaf re-files a child still waiting in its queue.
  virtual void ChangePriority(Zio* zio, ZioPriority priority);

 protected:
  // A child zio of `parent` for `child` at `offset` in the child's space.
  // The caller counts it in parent->children_pending before starting any child.
  Zio* NewChildZio(Zio* parent, Vdev* child, int64_t offset, int64_t size);
  // Takes a finished child off its parent's list of children in flight.
  static void Unlink(Zio* zio);
  // Completes `zio`: its parent hears of it (and finishes when it was the last
  // child) or, for a root zio, its listener; then `zio` is freed.
  void Finish(Zio* zio);

  PoolContext* ctx_;

 private:
  std::string type_;
  std::string name_;
  Vdev* parent_ = nullptr;
  std::vector<std::unique_ptr<Vdev>> children_;
};

}  // namespace ziosim

#endif  // ZIOSIM_SIM_ZFS_VDEV_VDEV_H_
