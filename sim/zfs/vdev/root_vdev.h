// The root of the vdev tree (vdev_root.c): its children are the pool's
// top-level vdevs. A block pointer's DVA names the top-level vdev and the
// offset inside it, so a read at the root simply goes to that child.
#ifndef ZIOSIM_SIM_ZFS_VDEV_ROOT_VDEV_H_
#define ZIOSIM_SIM_ZFS_VDEV_ROOT_VDEV_H_

#include "sim/zfs/vdev/vdev.h"

namespace ziosim {

class RootVdev : public Vdev {
 public:
  explicit RootVdev(PoolContext* ctx) : Vdev(ctx, "root", "root") {}

  int64_t asize_bytes() const override;
  bool rotational() const override;
  bool readable() const override;
  // REQUIRES: 0 <= zio->top_vdev < children().size().
  void IoStart(Zio* zio) override;
};

}  // namespace ziosim

#endif  // ZIOSIM_SIM_ZFS_VDEV_ROOT_VDEV_H_
