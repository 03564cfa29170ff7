// The DMU write path: read-modify-write only for records covered in part that
// are on disk and not in memory, the write throttle engaging only when writers
// outrun the disks, and dirty data held under zfs_dirty_data_max.
#include "sim/zfs/dmu_write.h"

#include <gtest/gtest.h>

#include <memory>
#include <set>

#include "sim/zfs/vdev/vdev.h"
#include "sim/zfs/allocator.h"

namespace ziosim {
namespace {

class Returned : public WriteCaller, public ReadCaller {
 public:
  void OnWriteDone(uint64_t, int64_t) override { ++calls; }
  void OnReadDone(uint64_t, int64_t) override { ++calls; }
  int calls = 0;
};

// One file of 8 records already on disk, read through a Dmu, rewritten through DmuWrite.
struct RmwRig {
  RmwRig() : pool(&sim, ParsePoolSpec("mirror 2xwd-re4-1tb", 12), ProfileTunables("openzfs-2.2"), /*seed=*/1) {
    FileSpec f;
    f.size_bytes = 8 * kRecord;
    layouts = AllocateFiles(pool, {f}, ParseLayoutPreset("sequential"), 1);
    files.push_back(MakeTxgFile(pool, layouts[0]));
    txg = std::make_unique<Txg>(&pool, &files);
    cpu = std::make_unique<HostCpu>(pool.tunables());
    reader = std::make_unique<Dmu>(&pool, txg.get(), PrimaryCache::kAll, nullptr);  // reads see the writes
    dmu = std::make_unique<DmuWrite>(&pool, txg.get(), cpu.get(), reader.get());
  }
  void Wait() {
    const int before = done.calls;
    while (done.calls == before && sim.Step()) {
    }
  }
  void Write(int64_t offset, int64_t length) {
    dmu->Write(0, offset, length, &done, 0);
    Wait();
  }
  void Sync() {
    struct W : TxgWaiter {
      void OnTxgEvent(uint64_t) override { done = true; }
      bool done = false;
    } w;
    dmu->TxgWaitSynced(&w, 0);
    while (!w.done && sim.Step()) {
    }
    ASSERT_TRUE(w.done);
  }
  int64_t DiskReadBytes() const {
    int64_t b = 0;
    for (const LeafVdev* l : pool.leaves()) b += l->device().stats().read_bytes();
    return b;
  }

  static constexpr int64_t kRecord = 128 << 10;
  Simulation sim;
  Pool pool;
  std::vector<FileLayout> layouts;
  std::vector<TxgFile> files;
  std::unique_ptr<Txg> txg;
  std::unique_ptr<HostCpu> cpu;
  std::unique_ptr<Dmu> reader;
  std::unique_ptr<DmuWrite> dmu;
  Returned done;
};

TEST(DmuWriteTest, ReadModifyWriteOnlyForPartialRecordsNotInMemory) {
  RmwRig rig;
  // 4 KiB into record 0: it is on disk and not cached: read first.
  rig.Write(0, 4 << 10);
  EXPECT_EQ(rig.dmu->stats().rmw_reads, 1u);
  const int64_t read_after_first = rig.DiskReadBytes();
  EXPECT_GE(read_after_first, RmwRig::kRecord);
  // A whole record needs no read.
  rig.Write(RmwRig::kRecord, RmwRig::kRecord);
  EXPECT_EQ(rig.dmu->stats().rmw_reads, 1u);
  // Record 0 again: its dbuf is dirty in memory.
  rig.Write(8 << 10, 4 << 10);
  EXPECT_EQ(rig.dmu->stats().rmw_reads, 1u);
  EXPECT_EQ(rig.DiskReadBytes(), read_after_first);
  // Record 3, read by the application first: in the ARC, so the merge reads no disk.
  rig.reader->Read(0, 3 * RmwRig::kRecord, RmwRig::kRecord, &rig.done, 0);
  rig.Wait();
  const int64_t read_before = rig.DiskReadBytes();
  rig.Write(3 * RmwRig::kRecord + 512, 1024);
  EXPECT_EQ(rig.dmu->stats().rmw_reads, 2u);
  EXPECT_EQ(rig.DiskReadBytes(), read_before);
  EXPECT_EQ(rig.dmu->stats().partial_records, 3u);
}

// The blocks already on disk keep their space: new blocks go elsewhere.
TEST(DmuWriteTest, RewrittenRecordsDoNotOverwriteLiveBlocks) {
  RmwRig rig;
  rig.Write(0, 8 * RmwRig::kRecord);
  Returned synced_waiter;
  struct W : TxgWaiter {
    void OnTxgEvent(uint64_t) override { done = true; }
    bool done = false;
  } w;
  rig.dmu->TxgWaitSynced(&w, 0);
  while (!w.done && rig.sim.Step()) {
  }
  ASSERT_TRUE(w.done);
  for (int64_t b = 0; b < 8; ++b) {
    const BlockPointer old_bp = rig.layouts[0].Locate(0, b);
    const BlockPointer new_bp = rig.files[0].l0[static_cast<size_t>(b)];
    EXPECT_TRUE(new_bp.offset >= old_bp.offset + RmwRig::kRecord || new_bp.offset + RmwRig::kRecord <= old_bp.offset)
        << "block " << b;
  }
}

// The leaf offsets of the data reads that reach the disks.
class LeafReads : public LeafIoObserver {
 public:
  void OnLeafIoDone(const LeafVdev&, const Zio& zio, const Zio&, SimTime) override {
    if (zio.type == ZioType::kRead) offsets.insert(zio.offset);
  }
  std::set<int64_t> offsets;
};

// Copy-on-write coherence: a written record is read from memory while dirty
// and from the ARC after its sync; read cold (a fresh Dmu on the same txg
// files), it comes from its new block, never from the one it replaced.
TEST(DmuWriteTest, ReadsSeeWritesInMemoryThenAtTheirNewPlace) {
  RmwRig rig;
  rig.Write(0, 8 * RmwRig::kRecord);  // whole records: no read-modify-write
  ASSERT_EQ(rig.DiskReadBytes(), 0);
  rig.reader->Read(0, 2 * RmwRig::kRecord, RmwRig::kRecord, &rig.done, 0);
  rig.Wait();
  EXPECT_EQ(rig.reader->stats().dirty_hits, 1u);
  EXPECT_EQ(rig.DiskReadBytes(), 0);
  rig.Sync();
  rig.reader->Read(0, 3 * RmwRig::kRecord, RmwRig::kRecord, &rig.done, 0);
  rig.Wait();
  EXPECT_EQ(rig.reader->stats().demand_misses, 0u);  // in the ARC since it was dirtied
  EXPECT_EQ(rig.DiskReadBytes(), 0);

  LeafReads reads;
  rig.pool.set_observer(&reads);
  Dmu cold(&rig.pool, rig.txg.get(), PrimaryCache::kAll, nullptr);
  cold.Read(0, 5 * RmwRig::kRecord, RmwRig::kRecord, &rig.done, 0);
  rig.Wait();
  while (rig.pool.live_zios() > 0 && rig.sim.Step()) {  // prefetches land
  }
  rig.pool.set_observer(nullptr);
  EXPECT_EQ(cold.stats().demand_misses, 1u);
  const BlockPointer now_bp = rig.files[0].l0[5];
  EXPECT_TRUE(reads.offsets.count(now_bp.offset + kVdevLabelStartBytes) > 0);
  for (int64_t b = 0; b < 8; ++b) {
    EXPECT_EQ(reads.offsets.count(rig.layouts[0].Locate(0, b).offset + kVdevLabelStartBytes), 0u) << "block " << b;
  }
}

// primarycache=none: a dirty record is still in memory (its dbuf), but once
// synced it is not cached, so the next read goes to the disk.
TEST(DmuWriteTest, PrimarycacheNoneKeepsOnlyDirtyRecordsInMemory) {
  RmwRig rig;
  Dmu uncached(&rig.pool, rig.txg.get(), PrimaryCache::kNone, nullptr);
  DmuWrite writer(&rig.pool, rig.txg.get(), rig.cpu.get(), &uncached);
  writer.Write(0, 0, RmwRig::kRecord, &rig.done, 0);
  rig.Wait();
  uncached.Read(0, 0, RmwRig::kRecord, &rig.done, 0);
  rig.Wait();
  EXPECT_EQ(uncached.stats().dirty_hits, 1u);
  EXPECT_EQ(rig.DiskReadBytes(), 0);
  rig.Sync();
  uncached.Read(0, 0, RmwRig::kRecord, &rig.done, 0);
  rig.Wait();
  EXPECT_EQ(uncached.stats().demand_misses, 1u);
  EXPECT_GE(rig.DiskReadBytes(), RmwRig::kRecord);
}

}  // namespace
}  // namespace ziosim
