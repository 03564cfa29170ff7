// The DMU write path (zfs_write, dmu_write_uio, dmu_tx.c): a write() call is
// one transaction. It waits while the pool holds zfs_dirty_data_max of dirty
// data (dmu_tx_wait), is delayed by the write throttle (dmu_tx_delay, see
// write_throttle.h), reads any record it covers only in part that is on disk
// and not in memory (read-modify-write, dbuf_will_dirty -> dbuf_read, through
// the read path), copies the user's bytes in on the host CPU and dirties the
// records in the open txg (txg.h), which later writes them out. A record the
// write covers whole is never read; neither is one dirty in a txg not yet
// synced (its dbuf is in memory) or a hole. A dirtied record enters the
// reader's ARC (dbuf_dirty), so reads of it cost no I/O before or after its sync.
//
// The ZIL is not here: TxgWaitSynced is the hook for fsync without a log
// (and for the ZIL's own fallback): it returns once everything written so
// far is on disk.
#ifndef ZIOSIM_SIM_ZFS_DMU_WRITE_H_
#define ZIOSIM_SIM_ZFS_DMU_WRITE_H_

#include <cstdint>
#include <vector>

#include "sim/zfs/dmu.h"
#include "sim/zfs/host_cpu.h"
#include "sim/zfs/txg.h"

namespace ziosim {

class WriteCaller {
 public:
  virtual ~WriteCaller() = default;
  // The write() call `tag` returned after taking `bytes`.
  virtual void OnWriteDone(uint64_t tag, int64_t bytes) = 0;
};

struct DmuWriteStats {
  uint64_t calls = 0;
  int64_t app_bytes = 0;
  uint64_t delayed_calls = 0;     // calls the throttle delayed
  SimTime delay_ns = 0;           // time calls spent in throttle delays
  SimTime dirty_wait_ns = 0;      // time calls waited at zfs_dirty_data_max
  uint64_t rmw_reads = 0;         // partial records read before being dirtied
  uint64_t partial_records = 0;   // records a call covered in part
};

class DmuWrite : public ReadCaller, public TxgWaiter, public EventHandler {
 public:
  // `reader` (optional) reads records for read-modify-write; it should read
  // through `txg` (Dmu's BlockMap constructor) to see this path's rewrites. It
  // may be null when no file has data on disk: records this path wrote then
  // count as in memory for good.
  DmuWrite(Pool* pool, Txg* txg, HostCpu* cpu, Dmu* reader);

  // Starts write(file, offset, length); `caller` hears when it returns.
  // REQUIRES: 0 <= offset, offset + length <= the file's size, length > 0.
  void Write(int file, int64_t offset, int64_t length, WriteCaller* caller, uint64_t tag);
  // txg_wait_synced(open txg): `waiter` hears `tag` once every write that
  // returned so far is on disk.
  void TxgWaitSynced(TxgWaiter* waiter, uint64_t tag) { txg_->WaitSynced(0, waiter, tag); }

  const DmuWriteStats& stats() const { return stats_; }
  Txg& txg() { return *txg_; }

  void OnReadDone(uint64_t tag, int64_t bytes) override;
  void OnTxgEvent(uint64_t tag) override;
  void OnEvent(uint32_t kind, uint64_t arg) override;

 private:
  struct Call {
    int file = 0;
    int64_t offset = 0;
    int64_t length = 0;
    WriteCaller* caller = nullptr;
    uint64_t tag = 0;
    SimTime start_ns = 0;
    SimTime wait_since_ns = -1;  // waiting for dirty space since; -1: not waiting
    int pending_reads = 0;
  };
  enum Event : uint32_t { kDelayDone = 0, kCopied = 1 };

  void Assign(uint32_t id);
  void ReadModify(uint32_t id);
  void CopyIn(uint32_t id);
  void Finish(uint32_t id);

  Pool* pool_;
  Txg* txg_;
  HostCpu* cpu_;
  Dmu* reader_;
  std::vector<Call> calls_;  // indexed by call id; reused
  std::vector<uint32_t> free_calls_;
  DmuWriteStats stats_;
};

}  // namespace ziosim

#endif  // ZIOSIM_SIM_ZFS_DMU_WRITE_H_
