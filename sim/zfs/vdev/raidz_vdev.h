// A RAID-Z group (vdev_raidz.c): a block is cut into columns across the
// children (raidz_map.h). A normal read reads the data columns only and
// completes when the slowest one does; with a child missing, the read takes
// every readable column (parity included) and reconstructs. Writes write
// data and parity, and offer the skip (pad) sectors as optional writes the
// leaf queues may fold into aggregates (Zio::optional).
#ifndef ZIOSIM_SIM_ZFS_VDEV_RAIDZ_VDEV_H_
#define ZIOSIM_SIM_ZFS_VDEV_RAIDZ_VDEV_H_

#include "sim/zfs/vdev/raidz_map.h"
#include "sim/zfs/vdev/vdev.h"

namespace ziosim {

struct RaidzStats {
  uint64_t blocks_read = 0;
  uint64_t reconstructions = 0;  // reads that needed parity because a child was missing
  uint64_t parity_columns_read = 0;
  uint64_t skip_writes = 0;      // optional skip-sector writes offered to the leaves
};

class RaidzVdev : public Vdev {
 public:
  RaidzVdev(PoolContext* ctx, std::string name, int parity, int ashift);

  int parity() const { return parity_; }
  int ashift() const { return ashift_; }
  int64_t asize_bytes() const override;
  bool rotational() const override;
  bool readable() const override;
  int nparity() const override { return parity_; }
  int data_disks() const override { return static_cast<int>(children().size()) - parity_; }
  int64_t PsizeToAsize(int64_t psize, int ashift) const override;
  void ResetStats() override;
  void IoStart(Zio* zio) override;
  bool NeedsResilver(int64_t offset, int64_t psize) const override;
  void RepairWrites(int64_t offset, int64_t psize, std::vector<RepairWrite>* out) const override;

  const RaidzStats& stats() const { return stats_; }

 private:
  int missing_children() const;
  void IssueSkipSectors(const Zio& zio, const RaidzMap& map);

  int parity_;
  int ashift_;
  RaidzStats stats_;
};

}  // namespace ziosim

#endif  // ZIOSIM_SIM_ZFS_VDEV_RAIDZ_VDEV_H_
