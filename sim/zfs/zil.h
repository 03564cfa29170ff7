// The ZFS intent log of one dataset (zil.c, zfs_log.c), as of illumos 2010 /
// ZFS v28, the era the log devices and sync=... arrived in:
//
//  * A write logs an intent-log record (itx, zfs_log_write). WR_COPIED: the
//    data travel inside the record. WR_INDIRECT: the data block is written in
//    place at once (dmu_sync, sync-write priority) and the record only points
//    to it; chosen for logbias=throughput, and without a log device for a
//    write of zfs_immediate_write_sz bytes or more.
//  * Commit (zil_commit, from fsync, O_DSYNC, sync=always or an NFS COMMIT)
//    packs every record not yet on stable storage into log blocks (lwbs) of
//    at most zil_maxblocksize, each sized from zil_block_buckets, and writes
//    them at sync-write priority: round-robin over the log vdevs when the pool
//    has any (SLOG), else on the data vdevs (see kZilRegionBytes in zil.cc). When
//    every lwb and dmu_sync write of the batch is done, every leaf written is
//    flushed (zil_flush_vdevs, unless zfs_nocacheflush), then the batch's
//    commit waiters wake, in call order.
//  * One commit batch at a time (zl_writer): commits that arrive meanwhile
//    wait and go out together as the next batch (group commit). So a waiter
//    wakes only after its own records and every earlier record are on stable
//    storage, in order: the guarantee replay relies on (replay itself runs
//    only after a crash and is not modelled).
//  * sync=disabled (v28) or zil_disable (before it): no records, commits
//    return at once. Records whose txg has synced are dropped (zil_clean).
//
// Simplifications: a commit pushes the records of every file, not only the
// committing one (illumos then pushed the synchronous ones of all files too);
// a WR_INDIRECT data write goes to the ZIL area, not to where the txg would
// later have put the block; the lwb pipelining of OpenZFS 0.8+ is not modelled.
#ifndef ZIOSIM_SIM_ZFS_ZIL_H_
#define ZIOSIM_SIM_ZFS_ZIL_H_

#include <cstdint>
#include <string>
#include <vector>

#include "sim/zfs/pool.h"

namespace ziosim {

class Txg;

enum class SyncMode : uint8_t { kStandard, kAlways, kDisabled };  // the `sync` property
enum class Logbias : uint8_t { kLatency, kThroughput };           // the `logbias` property
// "standard|always|disabled" / "latency|throughput"; InputError naming `what` otherwise.
SyncMode ParseSyncMode(const std::string& text, const std::string& what);
Logbias ParseLogbias(const std::string& text, const std::string& what);

class ZilCaller {
 public:
  virtual ~ZilCaller() = default;
  // The commit `tag` returned: what was logged before it is on stable storage.
  virtual void OnCommitDone(uint64_t tag) = 0;
};

struct ZilStats {
  uint64_t records = 0;           // itxs logged
  uint64_t indirect_records = 0;  // ... WR_INDIRECT
  uint64_t commits = 0;           // Commit calls
  uint64_t batches = 0;           // commit batches written
  uint64_t lwbs = 0;              // log blocks written
  int64_t lwb_bytes = 0;          // their sizes
  int64_t indirect_bytes = 0;     // data written in place by dmu_sync
  uint64_t flushes = 0;           // leaf cache flushes
  SimTime flush_wait_ns = 0;      // time batches waited for flushes
  uint64_t cleaned_records = 0;   // dropped because their txg synced first
};

class Zil : public ZioDoneListener, public EventHandler {
 public:
  // `txg` (optional) lets records of synced txgs be dropped.
  Zil(Pool* pool, SyncMode sync, Logbias logbias, const Txg* txg = nullptr);
  ~Zil() override;

  // Whether a write() must commit before returning: O_DSYNC/O_SYNC writes
  // (`o_dsync`) under sync=standard, every write under sync=always.
  bool WriteMustCommit(bool o_dsync) const;
  // Whether the log is off (sync=disabled or zil_disable).
  bool disabled() const { return disabled_; }

  // zfs_log_write: a write of `length` bytes to file `foid` in the open txg
  // (WR_COPIED and WR_NEED_COPY put the same bytes in the log).
  void LogWrite(int foid, int64_t length);
  // zil_commit: `caller` hears `tag` once every record logged so far is on
  // stable storage (at once when the log is off or nothing is pending and no
  // batch is in flight).
  void Commit(int foid, ZilCaller* caller, uint64_t tag);

  const ZilStats& stats() const { return stats_; }
  void ResetStats() { stats_ = ZilStats{}; }

  void OnZioDone(Zio* zio) override;
  void OnEvent(uint32_t kind, uint64_t arg) override;

 private:
  struct Itx {
    int64_t length = 0;
    uint64_t txg = 0;
    bool indirect = false;
  };
  struct Waiter {
    ZilCaller* caller;
    uint64_t tag;
  };

  void StartBatch();
  void IssueLwb(int64_t used_bytes);
  // Where the next `size` bytes go on the log device or ZIL area: its top-level vdev and offset.
  std::pair<int, int64_t> Allocate(int64_t psize);
  // First offset of the log area on top-level vdev `top`.
  int64_t RegionBase(int top) const;
  void Write(int top, int64_t offset, int64_t size);
  void BatchWritten();
  void FinishBatch();
  int64_t LwbSize(int64_t used_bytes) const;

  Pool* pool_;
  const Txg* txg_;
  SyncMode sync_;
  Logbias logbias_;
  bool disabled_;
  bool has_slog_;
  int64_t immediate_write_bytes_;
  int64_t max_block_bytes_;
  bool flush_;
  int64_t sector_bytes_;

  std::vector<Itx> pending_;           // records not yet in a batch
  std::vector<Waiter> waiting_;        // commits for the next batch
  std::vector<Waiter> batch_waiters_;  // commits of the batch in flight
  std::vector<char> top_written_;      // per top-level vdev: written by this batch
  bool writing_ = false;
  int outstanding_zios_ = 0;
  SimTime flush_start_ns_ = 0;
  int next_log_top_ = 0;               // rotor over the log (or data) vdevs
  std::vector<int64_t> cursor_;        // per top: next ZIL offset
  ZilStats stats_;
};

}  // namespace ziosim

#endif  // ZIOSIM_SIM_ZFS_ZIL_H_
