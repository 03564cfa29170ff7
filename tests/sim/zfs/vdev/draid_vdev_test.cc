// The dRAID vdev's I/O against its map: which child I/Os a read issues when
// all is well (the data columns), with a column missing (parity too, and every
// data column widened to the full stripe when the row has padding), with too
// many missing (EIO, nothing issued), after a rebuild onto a distributed spare
// (the spare's holder serves the column), and what a write issues (the full
// stripe, padding included). And the allocator's dRAID blocks start on stripe rows.
#include "sim/zfs/vdev/draid_vdev.h"

#include <gtest/gtest.h>

#include <cerrno>
#include <memory>
#include <set>
#include <string>
#include <tuple>
#include <vector>

#include "sim/core/simulation.h"
#include "sim/zfs/metaslab_allocator.h"
#include "sim/zfs/pool.h"
#include "sim/zfs/pool_spec.h"
#include "sim/zfs/pool_state.h"
#include "sim/zfs/vdev/leaf_vdev.h"

namespace ziosim {
namespace {

constexpr int64_t kSector = 4096;
using LeafIo = std::tuple<int, int64_t, int64_t>;  // child index, offset in vdev space, size

struct Recorder : LeafIoObserver, ZioDoneListener {
  std::multiset<LeafIo> ios;
  int done = 0;
  int error = 0;
  void OnLeafIoDone(const LeafVdev& leaf, const Zio& zio, const Zio&, SimTime) override {
    ios.insert({std::stoi(leaf.name().substr(1)), zio.offset - kVdevLabelStartBytes, zio.size});
  }
  void OnZioDone(Zio* z) override {
    ++done;
    error = z->error;
  }
};

// draid2:4d:7c:1s over SSDs: groups of 4 data + 2 parity, one distributed spare.
class DraidVdevIo : public ::testing::Test {
 protected:
  DraidVdevIo() : pool_(&sim_, ParsePoolSpec("draid2:4d:1s 7xgeneric-ssd", 12), Tunables(), /*seed=*/1) {
    pool_.set_observer(&rec_);
  }
  DraidVdev& draid() { return *dynamic_cast<DraidVdev*>(pool_.top(0)); }
  RaidzColumn Column(int64_t offset, int64_t psize, int i) {
    const DraidBlockMap m = MapDraidBlock(draid().layout(), 12, offset, psize);
    return DraidColumnAt(draid().layout(), 12, m.row[0], i);
  }
  void Fault(int child) { pool_.leaves()[static_cast<size_t>(child)]->set_faulted(true); }
  void Run(ZioType type, int64_t offset, int64_t size) {
    if (type == ZioType::kRead) {
      pool_.Read(0, offset, size, ZioPriority::kSyncRead, &rec_, 0);
    } else {
      pool_.Write(0, offset, size, ZioPriority::kAsyncWrite, &rec_, 0);
    }
    sim_.Run();
    ASSERT_EQ(rec_.done, 1);
  }
  // The I/O of column i of the block (offset, psize), `size` bytes long.
  LeafIo Io(int64_t offset, int64_t psize, int i, int64_t size) {
    const RaidzColumn c = Column(offset, psize, i);
    return {c.child, c.offset, size};
  }

  Simulation sim_;
  Recorder rec_;
  Pool pool_;
};

TEST_F(DraidVdevIo, ANormalReadTakesTheDataColumns) {
  const int64_t off = 6 * kSector * 10;  // the 11th stripe row of group 0
  Run(ZioType::kRead, off, 16 * 1024);  // one sector in each of the 4 data columns
  EXPECT_EQ(rec_.error, 0);
  std::multiset<LeafIo> want;
  for (int i = 2; i < 6; ++i) want.insert(Io(off, 16 * 1024, i, kSector));
  EXPECT_EQ(rec_.ios, want);
  EXPECT_EQ(draid().stats().parity_columns_read, 0u);
}

TEST_F(DraidVdevIo, AMissingDataColumnBringsParityAndWidensTheRow) {
  // 12 KiB: 3 data sectors + 2 parity = 5 columns; the 6th is an empty (padding) column.
  Fault(Column(0, 12 * 1024, 2).child);
  Run(ZioType::kRead, 0, 12 * 1024);
  EXPECT_EQ(rec_.error, 0);
  std::multiset<LeafIo> want;
  for (int i : {0, 1, 3, 4, 5}) want.insert(Io(0, 12 * 1024, i, kSector));  // the padding column too
  EXPECT_EQ(rec_.ios, want);
  EXPECT_EQ(draid().stats().reconstructions, 1u);
  EXPECT_EQ(draid().stats().parity_columns_read, 2u);
}

TEST_F(DraidVdevIo, AMissingParityColumnWidensButReadsNoParity) {
  Fault(Column(0, 12 * 1024, 0).child);
  Run(ZioType::kRead, 0, 12 * 1024);
  std::multiset<LeafIo> want;
  for (int i : {2, 3, 4, 5}) want.insert(Io(0, 12 * 1024, i, kSector));
  EXPECT_EQ(rec_.ios, want);
  EXPECT_EQ(draid().stats().reconstructions, 0u);
}

TEST_F(DraidVdevIo, MoreMissingThanParityFailsWithoutIo) {
  for (int i : {2, 3, 4}) Fault(Column(0, 16 * 1024, i).child);
  Run(ZioType::kRead, 0, 16 * 1024);
  EXPECT_EQ(rec_.error, EIO);
  EXPECT_TRUE(rec_.ios.empty());
}

TEST_F(DraidVdevIo, ARebuiltChildIsServedFromTheDistributedSpare) {
  const int64_t off = 6 * kSector * 3;
  const RaidzColumn lost = Column(off, 16 * 1024, 3);
  Fault(lost.child);
  draid().UseSpare(lost.child, 0);
  EXPECT_EQ(draid().spared_child(0), lost.child);
  EXPECT_TRUE(draid().readable());
  Run(ZioType::kRead, off, 16 * 1024);
  EXPECT_EQ(rec_.error, 0);
  const int holder = draid().layout().SpareChild(0, lost.offset);
  EXPECT_NE(holder, lost.child);
  std::multiset<LeafIo> want;
  for (int i : {2, 4, 5}) want.insert(Io(off, 16 * 1024, i, kSector));
  want.insert({holder, lost.offset, kSector});
  EXPECT_EQ(rec_.ios, want);
  EXPECT_EQ(draid().stats().spare_columns, 1u);
  EXPECT_EQ(draid().stats().parity_columns_read, 0u);
}

TEST_F(DraidVdevIo, AWriteIsAFullStripe) {
  Run(ZioType::kWrite, 0, 12 * 1024);
  std::multiset<LeafIo> want;
  for (int i = 0; i < 6; ++i) want.insert(Io(0, 12 * 1024, i, kSector));
  EXPECT_EQ(rec_.ios, want);
  EXPECT_EQ(draid().stats().empty_sectors_written, 1u);
}

TEST(DraidVdev, ThePoolSizesItAsZpoolList) {
  Simulation sim;
  Pool pool(&sim, ParsePoolSpec("draid2:8d:12c:1s 12xhgst-nas-4tb", 12), Tunables(), /*seed=*/1);
  const Vdev& v = *pool.top(0);
  EXPECT_EQ(v.type(), "draid2");
  EXPECT_EQ(v.name(), "draid2:8d:12c:1s-0");
  EXPECT_EQ(v.asize_bytes(), DraidVdevAsize(MakeDraidConfig(12, 2, 8, 1), pool.leaves()[0]->asize_bytes()));
  EXPECT_EQ(v.block_alignment_bytes(), 10 * kSector);
  EXPECT_EQ(pool.BlockAsize(0, 128 * 1024), 4 * 10 * kSector);
  // 8 of every 12 disks' worth hold data: about 2/3 of the raw space, less the reserve and whole-group rounding.
  const double raw = 12.0 * static_cast<double>(pool.leaves()[0]->asize_bytes());
  EXPECT_NEAR(static_cast<double>(v.asize_bytes()) / raw, 11.0 / 12.0, 0.01);
}

TEST(DraidVdev, AllocatedBlocksStartOnStripeRows) {
  Simulation sim;
  Pool pool(&sim, ParsePoolSpec("draid2:5d:9c:1s 9xgeneric-ssd", 12), Tunables(), /*seed=*/1);
  const int64_t align = pool.top(0)->block_alignment_bytes();
  ASSERT_EQ(align, 7 * kSector);
  for (const char* state : {"", "cap=40,frag=50"}) {
    auto a = *state ? std::make_unique<BlockAllocator>(pool, ParsePoolState(state, "--pool-state"), 5)
                    : std::make_unique<BlockAllocator>(pool);
    for (int i = 0; i < 5000; ++i) {
      const Dva d = a->Alloc(i % 3 == 0 ? 4096 : 128 * 1024);
      ASSERT_EQ(d.offset % align, 0) << state << " block " << i;
      ASSERT_EQ(d.asize % align, 0);
    }
  }
}

}  // namespace
}  // namespace ziosim
