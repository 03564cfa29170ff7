// dRAID's sequential rebuild onto a distributed spare (OpenZFS 2.1
// vdev_rebuild.c; the spec: docs/scan.md D.2): one thread per top-level vdev,
// not in the txg sync, reads the vdev's allocated space in offset order in
// chunks (vdev_draid_rebuild_asize: 1 MiB per data column, at most 16 MiB,
// within one redundancy group), skips chunks whose group does not hold the
// failed child, reads every other column of each chunk and writes the failed
// child's columns into the spare's space; at most
// max(1 MiB, zfs_rebuild_vdev_limit x children) bytes in flight. Blocks are not
// verified (no checksums are read): OpenZFS scrubs after the rebuild, which is
// not part of the rebuild's time here.
#ifndef ZIOSIM_SIM_ZFS_SCAN_REBUILD_H_
#define ZIOSIM_SIM_ZFS_SCAN_REBUILD_H_

#include <cstdint>
#include <map>
#include <utility>
#include <vector>

#include "sim/core/simulation.h"
#include "sim/zfs/scan/dsl_scan.h"
#include "sim/zfs/scan/scan_tree.h"
#include "sim/zfs/vdev/vdev.h"
#include "sim/zfs/zio.h"

namespace ziosim {

class DraidVdev;
class Pool;

class SequentialRebuild : public ZioDoneListener, public EventHandler {
 public:
  // Rebuilds child `child` of top-level vdev `top` (a dRAID) onto its
  // distributed spare `spare`; stops once `stop_after_bytes` were read (0: all).
  SequentialRebuild(Simulation* sim, Pool* pool, const ScanTree* tree, int top, int child, int spare,
                    int64_t stop_after_bytes);

  void Start();
  bool done() const { return done_; }
  // The rebuild as a scan's result: to_examine = the vdev's allocated bytes,
  // issued = the chunks read (or skipped), repair = what went to the spare.
  ScanResult Result() const { return res_; }

  void OnZioDone(Zio* zio) override;
  // A progress sample every zfs_txg_timeout seconds (the rebuild has no txg
  // slices of its own; this is only what zpool status would show).
  void OnEvent(uint32_t kind, uint64_t arg) override;

 private:
  void Issue();
  void MaybeFinish();

  Simulation* sim_;
  Pool* pool_;
  DraidVdev* draid_;
  int top_, child_, spare_;
  int64_t stop_after_;
  int64_t max_segment_, max_inflight_;
  SimTime sample_ns_;
  std::vector<std::pair<int64_t, int64_t>> ranges_;
  size_t range_ = 0;
  int64_t pos_ = 0;
  int64_t inflight_ = 0;
  SimTime start_ns_ = 0;
  bool done_ = false;
  ScanResult res_;
  struct Pending {
    int64_t psize = 0;
    int writes = 0;
  };
  std::map<uint64_t, Pending> pending_;
  uint64_t next_id_ = 0;
  std::vector<Vdev::RepairWrite> scratch_;
};

}  // namespace ziosim

#endif  // ZIOSIM_SIM_ZFS_SCAN_REBUILD_H_
