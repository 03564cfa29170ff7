// A scrub (or a healing resilver's reads) of a pool, as dsl_scan.c runs it,
// in the two eras the tunable zfs_scan_legacy selects (the spec this follows,
// with file:line citations at zfs-0.7.13 and zfs-2.1.11: docs/scan.md).
//
// Both walk the ScanTree depth first in the txg sync thread: an object's
// indirect blocks are read ahead (dsl_scan_prefetch) and each is read
// synchronously before the blocks it points to are visited; a block's scan
// callback runs after its children (post-order). The scan runs in slices of
// a txg: a slice ends zfs_txg_timeout seconds after it began (the pool is
// otherwise idle of writes: no dirty data, no sync waiters) and everything it
// issued completes before the next one starts.
//
//  * legacy (0.7 and before): the callback reads the block at once, every DVA,
//    at most zfs_top_maxinflight x top-level vdevs reads in flight pool-wide;
//    while other reads came within zfs_scan_idle ticks, each read first waits
//    zfs_scrub_delay ticks (zfs_resilver_delay for a resilver).
//  * sorted (0.8 and later): the callback queues each DVA in its top-level
//    vdev's ScanQueue; a slice either traverses or issues. Issuing starts when
//    the queues' memory reaches its limit (until it is below the soft limit:
//    extents in fill-score order) and when the traversal is done (everything,
//    in LBA order); each top-level vdev issues batches of an extent with at
//    most zfs_scan_vdev_limit x its data disks bytes in flight.
//
// Not modelled: the MOS, dnode and objset blocks' own reads, gang blocks,
// dedup, the checkpoint every zfs_scan_checkpoint_intval (2 h), the txg's own
// writes between slices, and freed blocks.
#ifndef ZIOSIM_SIM_ZFS_SCAN_DSL_SCAN_H_
#define ZIOSIM_SIM_ZFS_SCAN_DSL_SCAN_H_

#include <cstdint>
#include <map>
#include <memory>
#include <vector>

#include "sim/core/simulation.h"
#include "sim/zfs/scan/scan_queue.h"
#include "sim/zfs/scan/scan_tree.h"
#include "sim/zfs/vdev/vdev.h"
#include "sim/zfs/zio.h"

namespace ziosim {

class Pool;
class Tunables;

// One txg slice's end: what zpool status would show then.
struct ScanSample {
  SimTime t_ns = 0;             // since the scan started
  int64_t examined_bytes = 0;   // visited by the traversal (every DVA's asize)
  int64_t issued_bytes = 0;     // read and completed
  bool traversing = false;      // the slice walked the tree (sorted: gathered, read nothing)
  std::vector<int64_t> disk_read_bytes;     // per leaf, since the pool was built
  std::vector<int64_t> disk_written_bytes;  // per leaf
};

// What the scan and the disks have done by `t_ns` (since the scan started).
ScanSample SampleScan(const Pool& pool, SimTime t_ns, int64_t examined, int64_t issued, bool traversing);

struct ScanResult {
  bool legacy = false;
  bool complete = false;        // false: stopped at the issue limit
  int64_t to_examine_bytes = 0; // every DVA's asize
  int64_t examined_bytes = 0;
  int64_t issued_bytes = 0;     // read, or passed over (a resilver's blocks with no part on the new disk)
  int64_t skipped_bytes = 0;    // resilver: passed over
  int64_t blocks_read = 0;      // scan reads (one per DVA)
  int64_t repair_writes = 0;    // resilver: writes to the disks being replaced
  int64_t repair_bytes = 0;
  int64_t indirect_reads = 0;   // the traversal's own reads of indirect blocks
  int64_t txgs = 0;             // slices
  int64_t clearing_txgs = 0;    // sorted: slices that issued because memory ran out
  int64_t peak_queue_bytes = 0; // sorted: the queues' largest memory
  int64_t queue_limit_bytes = 0;  // sorted: the hard memory limit
  SimTime elapsed_ns = 0;
  std::vector<ScanSample> samples;
};

// --stop-after: the bytes a scan read (not those a resilver passed over) reached
// `stop_after_bytes` (0: no limit).
bool ReachedStop(const ScanResult& r, int64_t stop_after_bytes);

class DslScan : public ZioDoneListener, public EventHandler {
 public:
  // Scans `tree` on `pool` with the pool's tunables; stops once `stop_after_bytes`
  // were issued (0: the whole tree). `func` is kScrub or kResilver.
  DslScan(Simulation* sim, Pool* pool, const ScanTree* tree, ZioScan func, int64_t stop_after_bytes);
  ~DslScan() override;

  void Start();
  bool done() const { return done_; }
  ScanResult Result() const;

  void OnZioDone(Zio* zio) override;
  void OnEvent(uint32_t kind, uint64_t arg) override;

 private:
  enum Event : uint32_t { kDelayDone, kNextSlice };
  enum class Step { kObject, kIndirect, kData, kIndirectSelf, kDone };
  struct Cursor {
    Step step = Step::kObject;
    int64_t obj = 0;
    int64_t indirect = 0;
    int64_t blkid = 0;
  };
  struct TopQueue {
    std::unique_ptr<ScanQueue> queue;
    std::vector<QueuedDva> batch;  // gathered, not yet issued
    size_t next = 0;
    int64_t inflight_bytes = 0;
    int64_t max_inflight_bytes = 0;
    bool stopped = false;          // suspended for this slice (or empty)
  };

  void BeginSlice();
  void Run();                  // advances whatever the slice does until it blocks
  bool Traverse();             // false: blocked or the slice is over
  bool Visit(const ScanBlock& b);  // the scan callback; false: blocked
  void ReadIndirect(const ScanBlock& b, int64_t index);  // the walk's own read of an indirect block
  void IssueRead(int top, int64_t offset, int64_t psize, int64_t asize);
  bool NeedsResilver(const ScanBlock& b) const;
  bool StartRepairs(const Zio& read);
  void Release(int top, int64_t psize);
  void IssueFromQueues();
  bool SliceOver() const;
  void EndSliceWhenDrained();
  bool MemoryFull() const;
  int64_t QueuedBytes() const;  // sorted: the queues' memory
  int64_t InFlight() const;
  bool AnyQueued() const;  // DVAs gathered and not yet issued
  bool Stopped() const;
  void Finish();

  Simulation* sim_;
  Pool* pool_;
  const ScanTree* tree_;
  ZioScan func_;
  int64_t stop_after_;
  bool legacy_;
  // Tunables, read once.
  SimTime txg_timeout_ns_, min_time_ns_, delay_ns_, idle_ns_;
  int64_t max_inflight_;       // legacy: reads in flight pool-wide
  int strategy_;
  bool prefetch_;
  int64_t mem_hard_ = 0, mem_soft_ = 0;

  Cursor cur_;
  ScanResult res_;
  SimTime start_ns_ = 0, slice_start_ns_ = 0;
  bool done_ = false, traversal_done_ = false;
  bool issuing_ = false, clearing_ = false;
  bool delayed_ = false;       // legacy: the read at the cursor waits out zfs_scrub_delay
  bool waiting_indirect_ = false;
  int64_t inflight_reads_ = 0; // legacy: scan reads in flight
  int64_t indirect_inflight_ = 0;
  std::vector<char> indirect_ready_;  // the current object's indirect blocks read so far
  std::vector<TopQueue> tops_;
  bool ending_slice_ = false;
  struct PendingRepair {
    int top = 0;
    int64_t psize = 0;
    int writes = 0;
  };
  std::map<uint64_t, PendingRepair> repairs_;  // resilver reads waiting for their repair writes
  uint64_t next_repair_id_ = 0;
  std::vector<Vdev::RepairWrite> repair_scratch_;
};

}  // namespace ziosim

#endif  // ZIOSIM_SIM_ZFS_SCAN_DSL_SCAN_H_
