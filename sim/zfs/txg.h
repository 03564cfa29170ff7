// Transaction groups (txg.c, dsl_pool.c, spa_sync): writes dirty records of
// the open txg; a txg closes (quiesces) when zfs_txg_timeout has passed since
// the last sync started, when its dirty data passes the sync threshold
// (dsl_pool_need_dirty_sync / txg_kick), or when someone waits for it
// (txg_wait_synced). At most one txg is quiescing and one syncing, as with
// OpenZFS's three-stage pipeline; quiescing is instantaneous here (no
// long-held transactions).
//
// Syncing a txg (dsl_pool_sync, dbuf_sync): the dirty files in object order,
// each file's dirty records in blkid order; every record gets a new block from
// the BlockAllocator (copy on write: its old block is freed TXG_DEFER_SIZE = 2
// txgs later) and an async-write zio; after a file's records, the L1 indirect
// blocks covering them (two DVAs, ditto metadata) are rewritten the same way.
// When every block is on disk the uberblock goes to the four labels of every
// leaf (vdev_uberblock_sync, sync-write priority), then the txg is synced.
// Dirty space is released as each data block's write completes (the physdone
// accounting of illumos 4045 [I]).
//
// Not modelled: dnode, objset and space-map blocks (the MOS), label nvlist
// writes and cache flushes, compression, the allocation throttle (7090), the
// parallel dnode sync (7968) and several allocators per pool (9112).
#ifndef ZIOSIM_SIM_ZFS_TXG_H_
#define ZIOSIM_SIM_ZFS_TXG_H_

#include <cstdint>
#include <deque>
#include <string>
#include <utility>
#include <vector>

#include "sim/core/simulation.h"
#include "sim/zfs/metaslab_allocator.h"
#include "sim/zfs/block_map.h"
#include "sim/zfs/file_layout.h"
#include "sim/zfs/pool.h"
#include "sim/zfs/write_throttle.h"

namespace ziosim {

// A file as the write path keeps it: its block tree (one pointer per L0 and
// L1 block) and, per record, the last txg that dirtied it.
struct TxgFile {
  uint64_t object = 0;
  int64_t size_bytes = 0;
  int64_t block_bytes = 0;     // logical record size (recordsize, or the file rounded up to 512)
  int ptrs_per_indirect = 1024;
  int64_t l1_psize = 0;        // physical bytes of an L1 block (set by the Txg)
  std::vector<BlockPointer> l0;
  std::vector<Dva> l0_dva;     // allocated size of each L0, for frees
  std::vector<std::pair<Dva, Dva>> l1;  // both copies; top -1: never written
  std::vector<uint64_t> dirty_txg;      // per record: last txg it was dirtied in (0: never)

  int64_t blocks() const { return static_cast<int64_t>(l0.size()); }
  // The layout for the read path (Dmu) as it is now.
  FileLayout Layout(const Pool& pool) const;
};

// Builds the TxgFile of `layout` (a file already on disk, or all holes) on `pool`.
TxgFile MakeTxgFile(const Pool& pool, const FileLayout& layout);

class TxgWaiter {
 public:
  virtual ~TxgWaiter() = default;
  // The txg the waiter asked for is on disk (or dirty space fell below the max).
  virtual void OnTxgEvent(uint64_t tag) = 0;
};

struct TxgStats {
  uint64_t synced = 0;            // txgs synced (empty ones are skipped)
  SimTime sync_ns_sum = 0;        // spa_sync times: start of the first write to the uberblock
  SimTime sync_ns_max = 0;
  int64_t data_blocks = 0;        // L0 blocks written
  int64_t data_psize_bytes = 0;   // their physical bytes
  int64_t data_asize_bytes = 0;   // their allocated bytes (RAID-Z parity and padding included)
  int64_t indirect_blocks = 0;    // L1 copies written
  int64_t indirect_asize_bytes = 0;
  int64_t uberblock_bytes = 0;    // label writes
  int64_t dirtied_bytes = 0;      // dirty space taken ...
  int64_t undirtied_bytes = 0;    // ... and released
  int64_t max_dirty_bytes = 0;    // high-water mark of dp_dirty_total
};

// The Txg is the read path's BlockMap of its files: a record's pointer moves
// to its new block when its txg starts syncing, and the record stays in memory
// (Unsynced) until that txg is on disk.
class Txg : public ZioDoneListener, public EventHandler, public BlockMap {
 public:
  // `files` (indexed by file id) and `pool` must outlive the Txg. The blocks
  // the files already have are taken from the allocator's empty pool.
  Txg(Pool* pool, std::vector<TxgFile>* files);
  // The same on a pool in `state` (--pool-state): the allocator starts with
  // the old data AllocateFiles lays out for the same state and seed.
  Txg(Pool* pool, std::vector<TxgFile>* files, const PoolState& state, uint64_t seed);
  ~Txg() override;

  uint64_t open_txg() const { return open_txg_; }
  uint64_t synced_txg() const { return synced_txg_; }
  int64_t dirty_bytes() const { return dirty_bytes_; }
  WriteThrottle& throttle() { return throttle_; }
  const TxgStats& stats() const { return stats_; }
  bool syncing() const { return syncing_ != 0; }
  std::vector<TxgFile>* files() { return files_; }

  // Dirties record `blkid` of `file` in the open txg, taking `bytes` of dirty
  // space unless the record is dirty in that txg already. Returns true if it
  // was newly dirtied.
  bool Dirty(int file, int64_t blkid, int64_t bytes);

  // txg_wait_synced: `waiter` hears `tag` once `txg` is on disk (0: the open
  // txg, which is closed now). Hears at once when it already is.
  void WaitSynced(uint64_t txg, TxgWaiter* waiter, uint64_t tag);
  // dmu_tx_wait: `waiter` hears `tag` once dirty space is below zfs_dirty_data_max.
  void WaitDirtySpace(TxgWaiter* waiter, uint64_t tag);

  void OnZioDone(Zio* zio) override;
  void OnEvent(uint32_t kind, uint64_t arg) override;

  int files() const override { return static_cast<int>(files_->size()); }
  int64_t block_bytes(int file) const override { return File(file).block_bytes; }
  int64_t blocks(int file) const override { return File(file).blocks(); }
  int ptrs_per_indirect(int file) const override { return File(file).ptrs_per_indirect; }
  BlockPointer Locate(int file, int level, int64_t blkid) const override;
  bool Unsynced(int file, int64_t blkid) const override {
    return File(file).dirty_txg[static_cast<size_t>(blkid)] > synced_txg_;
  }
  bool may_dirty() const override { return true; }

 private:
  const TxgFile& File(int file) const { return (*files_)[static_cast<size_t>(file)]; }

  struct Record {
    int file;
    int64_t blkid;
  };
  enum Event : uint32_t { kTimer = 0 };

  void ArmTimer();
  // Closes the open txg if it holds dirty data and none is quiesced; starts its sync if none is running.
  void Kick();
  // Starts syncing the quiesced txg if no sync is running.
  void StartNext();
  void StartSync(uint64_t txg);
  void IssueRecord(const Record& r);
  void IssueIndirect(TxgFile& f, int64_t j);
  void IssueUberblocks();
  void FinishSync();
  void Undirty(int64_t bytes);
  void DeferFree(const Dva& d);

  Pool* pool_;
  std::vector<TxgFile>* files_;
  WriteThrottle throttle_;
  BlockAllocator allocator_;
  SimTime timeout_ns_;
  int64_t sector_;

  uint64_t open_txg_ = 1;
  uint64_t quiesced_ = 0;  // closed, waiting for the sync thread; 0: none
  uint64_t syncing_ = 0;   // 0: none
  uint64_t synced_txg_ = 0;
  SimTime sync_start_ns_ = 0;
  SimTime last_sync_start_ns_ = 0;
  uint64_t timer_gen_ = 0;
  bool timer_armed_ = false;

  int64_t dirty_bytes_ = 0;                        // dp_dirty_total
  std::vector<std::vector<Record>> records_;       // per txg & 3 (TXG_MASK + 1 of open/quiesced/syncing)
  std::vector<int64_t> txg_dirty_;                 // dirty bytes taken per txg & 3
  std::vector<Record> sync_list_;                  // the syncing txg's records, sorted
  int pending_writes_ = 0;
  bool uberblock_phase_ = false;
  std::deque<std::pair<uint64_t, Dva>> frees_;     // (txg whose sync frees it, block)
  std::vector<std::pair<uint64_t, std::pair<TxgWaiter*, uint64_t>>> sync_waiters_;
  std::deque<std::pair<TxgWaiter*, uint64_t>> space_waiters_;
  TxgStats stats_;
};

// The end of a run that wrote: runs the loop until everything dirtied so far
// is on disk (txg_wait_synced of the open txg), then checks the txg's books:
// every byte of dirty space taken was released and none remains. `what`
// names the run in the InternalError thrown when the events run out first or
// the books do not balance.
void SyncOutAndCheck(Txg& txg, Simulation& sim, const std::string& what);

}  // namespace ziosim

#endif  // ZIOSIM_SIM_ZFS_TXG_H_
