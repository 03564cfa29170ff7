// The write path below the DMU: Pool::Write through mirrors and RAID-Z
// (data, parity, optional skip sectors), and transaction groups: every dirty
// record written once per txg through the allocator, dirty space taken and
// released, indirect blocks and uberblocks on top.
#include "sim/zfs/txg.h"

#include <gtest/gtest.h>

#include "sim/zfs/allocator.h"
#include "sim/zfs/vdev/raidz_map.h"
#include "sim/zfs/vdev/raidz_vdev.h"
#include "sim/zfs/dmu_write.h"

namespace ziosim {
namespace {

class CountDone : public ZioDoneListener {
 public:
  void OnZioDone(Zio*) override { ++done; }
  int done = 0;
};

class Synced : public TxgWaiter {
 public:
  void OnTxgEvent(uint64_t) override { done = true; }
  bool done = false;
};

class Returned : public WriteCaller {
 public:
  void OnWriteDone(uint64_t, int64_t bytes) override { bytes_ += bytes; ++calls; }
  int64_t bytes_ = 0;
  int calls = 0;
};

int64_t LeafZioBytes(const Pool& pool) {
  int64_t b = 0;
  for (const LeafVdev* l : pool.leaves()) b += l->stats().zio_bytes;
  return b;
}
int64_t DeviceWrittenBytes(const Pool& pool) {
  int64_t b = 0;
  for (const LeafVdev* l : pool.leaves()) b += l->device().stats().written_bytes();
  return b;
}

// A mirror write goes to every child and completes once, after the last.
TEST(PoolWriteTest, MirrorWriteLandsOnEveryChild) {
  Simulation sim;
  Pool pool(&sim, ParsePoolSpec("mirror 3xwd-re4-1tb", 12), ProfileTunables("openzfs-2.2"), /*seed=*/1);
  CountDone listener;
  pool.Write(0, 1 << 20, 128 << 10, ZioPriority::kAsyncWrite, &listener, 7);
  sim.Run();
  EXPECT_EQ(listener.done, 1);
  for (const LeafVdev* l : pool.leaves()) {
    EXPECT_EQ(l->stats().zio_bytes, 128 << 10);
    EXPECT_EQ(l->device().stats().written_bytes(), 128 << 10);
    EXPECT_EQ(l->device().stats().read_bytes(), 0);
  }
  EXPECT_EQ(pool.live_zios(), 0);
}

// One 128K record on a 5-wide RAID-Z2: every data and parity column is
// written, and nothing else when the block stands alone (its skip sector, an
// optional write, is dropped).
TEST(PoolWriteTest, RaidzWriteMovesDataAndParityOfTheMap) {
  for (int ashift : {9, 12}) {
    Simulation sim;
    Pool pool(&sim, ParsePoolSpec("raidz2 5xwd-re4-1tb", ashift), ProfileTunables("openzfs-2.2"), /*seed=*/1);
    const RaidzMap map = MapRaidzBlock(5, 2, ashift, 0, 128 << 10);
    int64_t columns = 0;
    for (int c = 0; c < map.columns; ++c) columns += map.column[c].size;
    ASSERT_EQ(columns + (int64_t{map.skip_sectors} << ashift), map.asize);
    CountDone listener;
    pool.Write(0, 0, 128 << 10, ZioPriority::kAsyncWrite, &listener, 0);
    sim.Run();
    EXPECT_EQ(listener.done, 1);
    EXPECT_EQ(LeafZioBytes(pool), columns) << "ashift " << ashift;
    EXPECT_EQ(DeviceWrittenBytes(pool), columns) << "ashift " << ashift;
    const auto* raidz = dynamic_cast<const RaidzVdev*>(pool.top(0));
    EXPECT_EQ(raidz->stats().skip_writes, static_cast<uint64_t>(map.skip_sectors));
    EXPECT_EQ(pool.live_zios(), 0);
  }
}

// Back-to-back blocks queued together: the skip sectors between them go out
// inside aggregates, so the disks write more than the columns but never more
// than the allocated space.
TEST(PoolWriteTest, RaidzSkipSectorsFillAggregatesBetweenBlocks) {
  constexpr int ashift = 9;
  Simulation sim;
  Pool pool(&sim, ParsePoolSpec("raidz2 5xwd-re4-1tb", ashift), ProfileTunables("openzfs-2.2"), /*seed=*/1);
  const int64_t asize = RaidzAsize(5, 2, ashift, 128 << 10);
  const RaidzMap map = MapRaidzBlock(5, 2, ashift, 0, 128 << 10);
  ASSERT_GT(map.skip_sectors, 0);
  CountDone listener;
  constexpr int kBlocks = 64;
  for (int i = 0; i < kBlocks; ++i) pool.Write(0, i * asize, 128 << 10, ZioPriority::kAsyncWrite, &listener, 0);
  sim.Run();
  EXPECT_EQ(listener.done, kBlocks);
  const int64_t pads = DeviceWrittenBytes(pool) - LeafZioBytes(pool);
  EXPECT_GT(pads, 0);
  EXPECT_LE(DeviceWrittenBytes(pool), kBlocks * asize);
  EXPECT_EQ(pads % (int64_t{1} << ashift), 0);
  EXPECT_EQ(pool.live_zios(), 0);
}

// vdev_queue_max_async_writes: with little dirty data a disk gets
// async_write_min_active txg writes at a time, above 60 % of the max it gets
// async_write_max_active.
TEST(PoolWriteTest, AsyncWriteConcurrencyScalesWithDirtyData) {
  for (const bool dirty : {false, true}) {
    Simulation sim;
    Pool pool(&sim, ParsePoolSpec("wd-re4-1tb", 12), ProfileTunables("openzfs-2.2"), /*seed=*/1);
    if (dirty) pool.set_dirty_bytes(WriteThrottle::DirtyDataMax(pool.tunables()));
    CountDone listener;
    for (int i = 0; i < 40; ++i) {  // 1 MiB apart: no aggregation
      pool.Write(0, int64_t{i} << 20, 128 << 10, ZioPriority::kAsyncWrite, &listener, 0);
    }
    sim.Run();
    EXPECT_EQ(listener.done, 40);
    const int most = pool.leaves()[0]->queue().stats().max_active_by_class[static_cast<int>(ZioPriority::kAsyncWrite)];
    EXPECT_EQ(most, dirty ? 10 : 2);
  }
}

struct WriteRig {
  explicit WriteRig(const std::string& spec, int64_t file_size, std::vector<std::pair<std::string, std::string>> set = {})
      : tunables(ProfileTunables("openzfs-2.2")) {
    for (const auto& [k, v] : set) tunables.Set(k, v, "test");
    pool = std::make_unique<Pool>(&sim, ParsePoolSpec(spec, 12), tunables, /*seed=*/1);
    FileSpec f;
    f.size_bytes = file_size;
    f.sparse = true;
    for (const FileLayout& l : AllocateFiles(*pool, {f}, ParseLayoutPreset("sequential"), 1)) {
      files.push_back(MakeTxgFile(*pool, l));
    }
    txg = std::make_unique<Txg>(pool.get(), &files);
    cpu = std::make_unique<HostCpu>(pool->tunables());
    dmu = std::make_unique<DmuWrite>(pool.get(), txg.get(), cpu.get(), nullptr);
  }
  // Writes [offset, offset + length) in calls of `bs`, one after another, and waits for each.
  void WriteRange(int64_t offset, int64_t length, int64_t bs) {
    for (int64_t o = offset; o < offset + length; o += bs) {
      const int calls = done.calls;
      dmu->Write(0, o, std::min(bs, offset + length - o), &done, 0);
      while (done.calls == calls && sim.Step()) {
      }
    }
  }
  void SyncAll() {
    Synced s;
    txg->WaitSynced(0, &s, 0);
    while (!s.done && sim.Step()) {
    }
    ASSERT_TRUE(s.done);
    sim.Run();
  }

  Simulation sim;
  Tunables tunables;
  std::unique_ptr<Pool> pool;
  std::vector<TxgFile> files;
  std::unique_ptr<Txg> txg;
  std::unique_ptr<HostCpu> cpu;
  std::unique_ptr<DmuWrite> dmu;
  Returned done;
};

// Every dirty byte is written once: each record of a file written front to
// back becomes exactly one block, and the leaves receive exactly the
// allocated data + parity of those blocks, their L1s and the uberblocks
// (5-wide RAID-Z2 at ashift 12 has no skip sectors for 128K and 4K blocks).
TEST(TxgTest, EveryDirtyRecordIsWrittenOnceThroughTheAllocator) {
  constexpr int64_t kFile = 96 << 20;
  // A small dirty max: several txgs, some started early by the sync threshold.
  WriteRig rig("raidz2 5xwd-re4-1tb", kFile, {{"zfs_dirty_data_max", "32M"}});
  rig.WriteRange(0, kFile, 1 << 20);
  rig.SyncAll();
  const TxgStats& s = rig.txg->stats();
  EXPECT_GT(s.synced, 2u);
  EXPECT_EQ(s.data_blocks, kFile / (128 << 10));
  EXPECT_EQ(s.dirtied_bytes, kFile);
  EXPECT_EQ(s.undirtied_bytes, kFile);
  EXPECT_EQ(rig.txg->dirty_bytes(), 0);
  EXPECT_EQ(s.data_asize_bytes, s.data_blocks * RaidzAsize(5, 2, 12, 128 << 10));
  EXPECT_EQ(LeafZioBytes(*rig.pool), s.data_asize_bytes + s.indirect_asize_bytes + s.uberblock_bytes);
  EXPECT_EQ(s.uberblock_bytes, static_cast<int64_t>(s.synced) * 5 * 4 * 4096);
  // Indirect blocks: two copies of each L1 per txg that dirtied records under it.
  EXPECT_GE(s.indirect_blocks, 2);
  EXPECT_EQ(s.indirect_blocks % 2, 0);
  // The layout is complete: no hole left, blocks in ascending order on the vdev.
  const FileLayout layout = rig.files[0].Layout(*rig.pool);
  int64_t prev = -1;
  for (int64_t b = 0; b < layout.blocks(); ++b) {
    const BlockPointer bp = layout.Locate(0, b);
    ASSERT_FALSE(bp.hole) << b;
    EXPECT_GT(bp.offset, prev);
    prev = bp.offset;
  }
  EXPECT_EQ(rig.pool->live_zios(), 0);
}

// Rewriting the same records within one txg dirties them once.
TEST(TxgTest, RewriteInTheSameTxgIsOneBlock) {
  WriteRig rig("mirror 2xwd-re4-1tb", 8 << 20);
  rig.WriteRange(0, 1 << 20, 1 << 20);
  rig.WriteRange(0, 1 << 20, 64 << 10);
  rig.SyncAll();
  EXPECT_EQ(rig.txg->stats().synced, 1u);
  EXPECT_EQ(rig.txg->stats().data_blocks, 8);
  EXPECT_EQ(rig.txg->stats().dirtied_bytes, 1 << 20);
}

// Copy on write: a record rewritten in a later txg gets a new block and the
// old one is freed two txgs later (not reused at once).
TEST(TxgTest, OverwriteInALaterTxgMovesTheBlock) {
  WriteRig rig("mirror 2xwd-re4-1tb", 8 << 20);
  rig.WriteRange(0, 128 << 10, 128 << 10);
  rig.SyncAll();
  const BlockPointer first = rig.files[0].l0[0];
  rig.WriteRange(0, 128 << 10, 128 << 10);
  rig.SyncAll();
  const BlockPointer second = rig.files[0].l0[0];
  EXPECT_FALSE(second.hole);
  EXPECT_NE(first.offset, second.offset);
  EXPECT_EQ(rig.txg->stats().data_blocks, 2);
}

// The timeout closes a txg whose dirty data stays below the threshold.
TEST(TxgTest, TimeoutSyncsASmallTxg) {
  WriteRig rig("mirror 2xwd-re4-1tb", 8 << 20);
  rig.WriteRange(0, 1 << 20, 1 << 20);
  EXPECT_EQ(rig.txg->stats().synced, 0u);
  rig.sim.Run();  // nobody waits: only the timer can start the sync
  EXPECT_EQ(rig.txg->stats().synced, 1u);
  EXPECT_EQ(rig.txg->synced_txg(), 1u);
  EXPECT_GE(rig.sim.now(), 5 * kNsPerSec);
}

// The delay curve of dmu_tx_delay: none up to 60 % of the max, then
// scale * (dirty - min) / (max - dirty), capped at 100 ms.
TEST(WriteThrottleTest, DelayCurve) {
  Tunables t = ProfileTunables("openzfs-2.2");
  t.Set("zfs_dirty_data_max", "1000M", "test");
  const WriteThrottle w(t);
  const int64_t max = 1000 << 20;
  EXPECT_EQ(w.dirty_max_bytes(), max);
  EXPECT_EQ(w.DelayNs(max / 100 * 60), 0);
  const int64_t dirty = max / 100 * 80;
  EXPECT_EQ(w.DelayNs(dirty), 500000 * (dirty - max / 100 * 60) / (max - dirty));
  EXPECT_EQ(w.DelayNs(max - 1), 100 * kNsPerMs);
  EXPECT_EQ(w.sync_bytes(), max / 100 * 20);
  // The derived default: 10 % of RAM (2 x zfs_arc_max), at most zfs_dirty_data_max_max.
  Tunables d = ProfileTunables("openzfs-2.2");
  d.Set("zfs_arc_max", "4G", "test");
  EXPECT_EQ(WriteThrottle::DirtyDataMax(d), (int64_t{8} << 30) / 100 * 10);
  d.Set("zfs_arc_max", "64G", "test");
  EXPECT_EQ(WriteThrottle::DirtyDataMax(d), int64_t{4} << 30);
}

}  // namespace
}  // namespace ziosim
