// A mirror (vdev_mirror.c): every child holds the same bytes at the same
// offset. A read goes to one child, chosen by the era's policy among the
// readable children; a write goes to all of them. The mirror also keeps the
// "last offset" of each child in the meaning the era gives it
// (`mirror_last_offset`): the end of the last read it assigned to the child
// (selection time, 2013-2017) or the end of the last I/O the child's queue
// issued (issue time, 2017+).
#ifndef ZIOSIM_SIM_ZFS_VDEV_MIRROR_VDEV_H_
#define ZIOSIM_SIM_ZFS_VDEV_MIRROR_VDEV_H_

#include <memory>
#include <vector>

#include "sim/zfs/vdev/mirror_policy/mirror_policy.h"
#include "sim/zfs/vdev/leaf_vdev.h"
#include "sim/zfs/vdev/vdev.h"

namespace ziosim {

// How often each child was chosen, and why.
struct MirrorStats {
  std::vector<uint64_t> chosen;      // per child
  uint64_t policy_choices = 0;       // the policy picked among several readable children
  uint64_t only_readable = 0;        // a single readable child: no choice
};

class MirrorVdev : public Vdev {
 public:
  // Children are added with AddChild() and must be leaves; call Open() after the last.
  MirrorVdev(PoolContext* ctx, std::string name);
  // Creates the policy named by `mirror_policy`. Throws InputError if unknown.
  void Open();

  int64_t asize_bytes() const override;
  bool rotational() const override;
  bool readable() const override;
  void IoStart(Zio* zio) override;

  uint64_t ChildSelections(size_t c) const override { return stats_.chosen[c]; }
  void ResetStats() override;

  const MirrorStats& stats() const { return stats_; }

 private:
  LeafVdev* leaf(size_t i) const { return static_cast<LeafVdev*>(child(i)); }
  int ChooseChild(Zio* zio);
 public:
  bool NeedsResilver(int64_t offset, int64_t psize) const override;
  void RepairWrites(int64_t offset, int64_t psize, std::vector<RepairWrite>* out) const override;

 private:
  void ScrubAllChildren(Zio* zio);

  std::unique_ptr<MirrorPolicy> policy_;
  bool selection_time_last_ = false;
  std::vector<int64_t> assigned_end_;          // selection-time "last offset" per child
  std::vector<MirrorChildState> state_;        // scratch, one per child
  MirrorStats stats_;
};

}  // namespace ziosim

#endif  // ZIOSIM_SIM_ZFS_VDEV_MIRROR_VDEV_H_
