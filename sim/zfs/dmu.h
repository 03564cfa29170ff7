// The DMU read path (dmu.c, dbuf.c): a read() call is cut into 1 MiB chunks
// (zfs_read_chunk_size); each chunk holds the blocks it covers, starts the
// demand read of every block not cached (all in parallel, sync_read), asks the
// prefetcher, waits for its blocks, copies out and releases them. A block is
// always read whole. Holes cost a zero-filled buffer and no I/O; a block not
// cached needs its L1 indirect block first; a demand read that finds its block
// already being read waits for that read. Checksums and decompression run on
// the host CPU as blocks arrive; copy-out and zero-fill run on the reader's
// CPU time. With primarycache=metadata|none data blocks leave the ARC when the
// call releases them, so the next small read of the same record reads it again.
// Block pointers come from a BlockMap (block_map.h): with a write path, the
// txg's files, so reads see rewrites; a record dirty in memory is a hit.
#ifndef ZIOSIM_SIM_ZFS_DMU_H_
#define ZIOSIM_SIM_ZFS_DMU_H_

#include <cstdint>
#include <memory>
#include <deque>
#include <vector>

#include "models/device/device.h"
#include "sim/zfs/arc.h"
#include "sim/zfs/arc_index.h"
#include "sim/zfs/block_map.h"
#include "sim/zfs/file_layout.h"
#include "sim/zfs/host_cpu.h"
#include "sim/zfs/pool.h"
#include "sim/zfs/zfetch.h"

namespace ziosim {

class ReadCaller {
 public:
  virtual ~ReadCaller() = default;
  // The read() call `tag` returned `bytes` to the application.
  virtual void OnReadDone(uint64_t tag, int64_t bytes) = 0;
};

struct DmuStats {
  int64_t app_bytes = 0;          // returned to callers
  uint64_t calls = 0;
  uint64_t demand_blocks = 0;     // block accesses by demand reads
  uint64_t demand_misses = 0;     // ... that started a disk read
  uint64_t waited_on_inflight = 0;
  uint64_t promoted = 0;          // waited-on prefetches moved to sync_read
  uint64_t prefetch_reads = 0;    // blocks read because the prefetcher asked
  uint64_t indirect_reads = 0;
  uint64_t hole_blocks = 0;
  uint64_t dirty_hits = 0;        // demand blocks found dirty in memory (not yet synced)
  uint64_t l2_reads = 0;
  int64_t l2_read_bytes = 0;
};

class Dmu : public ZioDoneListener, public DeviceListener, public EventHandler {
 public:
  // `files` must outlive the Dmu. `l2arc` (optional) is the cache device.
  Dmu(Pool* pool, const std::vector<FileLayout>* files, PrimaryCache primarycache, std::unique_ptr<Device> l2arc);
  // Reads through `map` (e.g. a Txg), which must outlive the Dmu.
  Dmu(Pool* pool, const BlockMap* map, PrimaryCache primarycache, std::unique_ptr<Device> l2arc);
  ~Dmu() override;

  // Starts read(file, offset, length); `caller` hears when it returns.
  // REQUIRES: 0 <= offset, offset + length <= the file's size, length > 0.
  void Read(int file, int64_t offset, int64_t length, ReadCaller* caller, uint64_t tag);

  const DmuStats& stats() const { return stats_; }
  // Starts the DMU and ARC counters afresh (the cache contents stay).
  void ResetStats() {
    stats_ = DmuStats{};
    arc_.ResetCounters();
  }
  const Arc& arc() const { return arc_; }
  const HostCpu& cpu() const { return cpu_; }
  const Device* l2arc() const { return l2arc_.get(); }
  // The write path dirtied record `blkid` of `file`: with primarycache=all its
  // dbuf enters the ARC now (dbuf_dirty), so it stays cached after the sync.
  void CacheDirtied(int file, int64_t blkid);
  // Stops the L2ARC feed timer so the run can end.
  void StopFeeding() { feeding_ = false; }

  void OnZioDone(Zio* zio) override;
  void OnDeviceDone(const DeviceRequest& req, SimTime submitted, SimTime done) override;
  void OnEvent(uint32_t kind, uint64_t arg) override;

 private:
  struct Call;
  // A block being read, in a slot of inflight_ that is reused once the block
  // has arrived (its vectors keep their storage).
  struct InFlight {
    ArcKey key;  // the block (its packed key is the slot's index key)
    bool prefetch = false;
    Zio* zio = nullptr;  // the pool read, while it is in the vdev tree
    ZioPriority priority = ZioPriority::kSyncRead;
    bool from_l2 = false;
    int64_t l2_offset = 0, l2_bytes = 0;
    std::vector<uint32_t> waiters;     // calls waiting for this block
    std::vector<uint64_t> dependents;  // data blocks waiting for this indirect block

    // As a fresh read, keeping the vectors' storage.
    void Reset() {
      prefetch = false;
      zio = nullptr;
      priority = ZioPriority::kSyncRead;
      from_l2 = false;
      l2_offset = l2_bytes = 0;
      waiters.clear();
      dependents.clear();
    }
  };

  // Reads through `map`, or through `owned` when `map` is null.
  Dmu(Pool* pool, std::unique_ptr<LayoutBlockMap> owned, const BlockMap* map, PrimaryCache primarycache,
      std::unique_ptr<Device> l2arc);

  // The slot of block `key` if it is being read, else ArcIndex::kNone.
  uint32_t InFlightSlot(uint64_t key) const;
  // The block `key` being read, or null.
  InFlight* FindInFlight(uint64_t key);
  // The block `key` being read, started afresh if it was not.
  InFlight& InFlightFor(uint64_t key);
  // Takes `key` out of the blocks being read; its slot stays valid until FreeInFlight.
  uint32_t EndInFlight(uint64_t key);
  void FreeInFlight(uint32_t slot);
  void StartChunk(uint32_t call);
  void HoldBlock(uint32_t call, int64_t blkid, SimTime* cpu_work);
  bool Cached(int file, int64_t blkid) const;
  void Predict(const Call& c, int64_t first, int64_t nblks);
  void IssuePrefetches(int file);
  void ReadBlock(uint64_t key, ZioPriority priority, bool prefetch);
  void IssueBlock(uint64_t key, InFlight& f);
  void PipelineDone(uint64_t key, int64_t psize);
  int64_t LogicalSize(uint64_t key) const;
  void BlockArrived(uint64_t key);
  void FinishChunk(uint32_t call);
  void Feed();
  bool Cacheable(int level) const;
  bool Unsynced(int file, int64_t blkid) const { return may_dirty_ && map_->Unsynced(file, blkid); }
  int64_t BlockBytes(int file) const { return shapes_[static_cast<size_t>(file)].block_bytes; }

  Pool* pool_;
  std::unique_ptr<LayoutBlockMap> owned_map_;  // read-only runs: over their layouts
  const BlockMap* map_;
  struct FileShape {
    int64_t block_bytes;
    int ptrs_per_indirect;
  };
  std::vector<FileShape> shapes_;  // per file, from map_ (a file's geometry never changes)
  bool may_dirty_;
  PrimaryCache primarycache_;
  std::unique_ptr<Device> l2arc_;
  Arc arc_;
  HostCpu cpu_;
  std::vector<std::unique_ptr<Zfetch>> zfetch_;  // per file
  std::vector<Call> calls_;                      // indexed by call id; reused
  std::vector<uint32_t> free_calls_;
  // Blocks being read: slots (a deque, so that a reference to one stays valid
  // while others are added), the free ones, and the index by block.
  std::deque<InFlight> inflight_;
  std::vector<uint32_t> free_inflight_;
  ArcIndex inflight_index_;
  std::vector<PrefetchRange> ranges_;            // scratch
  int64_t chunk_bytes_;
  int64_t indirect_bytes_;
  bool compressed_arc_;
  bool promote_;
  bool feeding_ = false;
  int64_t l2_hand_ = 0;
  DmuStats stats_;
};

}  // namespace ziosim

#endif  // ZIOSIM_SIM_ZFS_DMU_H_
