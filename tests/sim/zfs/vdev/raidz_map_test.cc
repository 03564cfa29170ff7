// RAID-Z geometry against the worked figures of zfs-read-path.md 3.5/3.6 and
// against the address-space invariants of 3.1.
#include "sim/zfs/vdev/raidz_map.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <random>
#include <set>
#include <stdexcept>
#include <vector>

#include "sim/core/bytes.h"

namespace ziosim {
namespace {

// Sizes of the data columns (size > 0, role 'D').
std::vector<int64_t> DataSizes(const RaidzMap& m) {
  std::vector<int64_t> sizes;
  for (int c = m.parity; c < m.columns; ++c) {
    if (m.column[c].size > 0) sizes.push_back(m.column[c].size);
  }
  return sizes;
}

// Children holding the parity columns, in P, Q, R order.
std::vector<int> ParityChildren(const RaidzMap& m) {
  std::vector<int> children;
  for (int c = 0; c < m.parity; ++c) children.push_back(m.column[c].child);
  return children;
}

// ---- 3.5: per-disk sizes, RAID-Z2, full records, block at column 0 ----

struct TableRow {
  int width;
  int ashift;
  int64_t record;
  double asize_kib;
  double data_min_kib;
  double data_max_kib;
  double parity_kib;
  int skip;
};

class RaidzTableTest : public ::testing::TestWithParam<TableRow> {};

TEST_P(RaidzTableTest, MatchesReferenceTable) {
  const TableRow& row = GetParam();
  const auto kib = [](double k) { return static_cast<int64_t>(k * 1024); };
  EXPECT_EQ(RaidzAsize(row.width, 2, row.ashift, row.record), kib(row.asize_kib));
  const RaidzMap m = MapRaidzBlock(row.width, 2, row.ashift, 0, row.record);
  EXPECT_EQ(m.asize, kib(row.asize_kib));
  EXPECT_EQ(m.skip_sectors, row.skip);
  EXPECT_EQ(m.parity, 2);
  EXPECT_EQ(m.columns, row.width);
  const std::vector<int64_t> data = DataSizes(m);
  ASSERT_EQ(static_cast<int>(data.size()), row.width - 2);
  EXPECT_EQ(*std::min_element(data.begin(), data.end()), kib(row.data_min_kib));
  EXPECT_EQ(*std::max_element(data.begin(), data.end()), kib(row.data_max_kib));
  EXPECT_EQ(m.column[0].size, kib(row.parity_kib));
  EXPECT_EQ(m.column[1].size, kib(row.parity_kib));
  EXPECT_EQ(m.column[0].role, 'P');
  EXPECT_EQ(m.column[1].role, 'Q');
  for (int c = 0; c < m.columns; ++c) {
    EXPECT_EQ(m.column[c].child, c);  // block at column 0: column c on child c
    EXPECT_EQ(m.column[c].offset, 0);
  }
}

INSTANTIATE_TEST_SUITE_P(Reference35, RaidzTableTest,
                         ::testing::Values(TableRow{5, 9, 128 * kKiB, 214.5, 42.5, 43, 43, 1},
                                           TableRow{5, 9, kMiB, 1707, 341, 341.5, 341.5, 0},
                                           TableRow{5, 12, 128 * kKiB, 216, 40, 44, 44, 0},
                                           TableRow{5, 12, kMiB, 1716, 340, 344, 344, 1},
                                           TableRow{6, 9, 128 * kKiB, 192, 32, 32, 32, 0},
                                           TableRow{6, 9, kMiB, 1536, 256, 256, 256, 0},
                                           TableRow{6, 12, 128 * kKiB, 192, 32, 32, 32, 0},
                                           TableRow{6, 12, kMiB, 1536, 256, 256, 256, 0},
                                           TableRow{7, 9, 128 * kKiB, 180, 25.5, 26, 26, 0},
                                           TableRow{7, 9, kMiB, 1434, 204.5, 205, 205, 0},
                                           TableRow{7, 12, 128 * kKiB, 192, 24, 28, 28, 2},
                                           TableRow{7, 12, kMiB, 1440, 204, 208, 208, 0}));

// ---- 3.6: parity drift over blocks laid back to back ----

// Parity children of `n` consecutive blocks starting at vdev offset 0.
std::vector<std::vector<int>> Drift(int width, int parity, int ashift, int64_t psize, int n) {
  std::vector<std::vector<int>> out;
  int64_t offset = 0;
  for (int i = 0; i < n; ++i) {
    const RaidzMap m = MapRaidzBlock(width, parity, ashift, offset, psize);
    out.push_back(ParityChildren(m));
    offset += m.asize;
  }
  return out;
}

TEST(RaidzDriftTest, SixWideRaidz2KeepsParityOnTwoChildren) {
  for (int ashift : {9, 12}) {
    for (int64_t record : {128 * kKiB, kMiB}) {
      const int64_t sectors = RaidzAsize(6, 2, ashift, record) >> ashift;
      EXPECT_EQ(sectors % 6, 0);
      for (const std::vector<int>& p : Drift(6, 2, ashift, record, 40)) {
        EXPECT_EQ(p, (std::vector<int>{0, 1})) << "ashift " << ashift << " record " << record;
      }
    }
  }
}

TEST(RaidzDriftTest, FiveAndSevenWideRaidz2MoveParityByK) {
  for (int width : {5, 7}) {
    for (int ashift : {9, 12}) {
      for (int64_t record : {128 * kKiB, kMiB}) {
        const int k = static_cast<int>((RaidzAsize(width, 2, ashift, record) >> ashift) % width);
        EXPECT_NE(k, 0);
        const std::vector<std::vector<int>> drift = Drift(width, 2, ashift, record, 40);
        for (size_t i = 1; i < drift.size(); ++i) {
          EXPECT_NE(drift[i], drift[i - 1]);
          EXPECT_EQ(drift[i][0], (drift[i - 1][0] + k) % width)
              << "width " << width << " ashift " << ashift << " record " << record << " block " << i;
        }
      }
    }
  }
}

TEST(RaidzDriftTest, SevenWideAshift12Record128KMovesParityBackOneColumn) {
  EXPECT_EQ(RaidzAsize(7, 2, 12, 128 * kKiB) >> 12, 48);  // k = 48 mod 7 = 6
  const std::vector<std::vector<int>> drift = Drift(7, 2, 12, 128 * kKiB, 20);
  for (size_t i = 1; i < drift.size(); ++i) {
    EXPECT_EQ(drift[i][0], (drift[i - 1][0] + 6) % 7);
    EXPECT_EQ(drift[i][1], drift[i - 1][0]);  // Q of this record on the child that held P of the previous
  }
  EXPECT_EQ(drift[1], (std::vector<int>{6, 0}));
  EXPECT_EQ(drift[2], (std::vector<int>{5, 6}));
}

TEST(RaidzDriftTest, FiveWideRaidz1AlternatesParityEveryMiB) {
  // k = 40 mod 5 = 0, but the bit-20 swap moves P between children 0 and 1.
  int64_t offset = 0;
  for (int i = 0; i < 40; ++i) {
    const RaidzMap m = MapRaidzBlock(5, 1, 12, offset, 128 * kKiB);
    EXPECT_EQ(m.column[0].child, (offset & kMiB) != 0 ? 1 : 0) << "offset " << offset;
    offset += m.asize;
  }
}

// ---- small blocks ----

TEST(RaidzMapTest, SmallBlockAshift12Raidz2IsOneDataTwoParity) {
  for (int width : {4, 5, 6, 7, 8, 12}) {
    for (int64_t offset : {int64_t{0}, int64_t{5} << 12, int64_t{1001} << 12}) {
      const RaidzMap m = MapRaidzBlock(width, 2, 12, offset, 4 * kKiB);
      EXPECT_EQ(m.asize, 12 * kKiB);
      EXPECT_EQ(RaidzAsize(width, 2, 12, 4 * kKiB), 12 * kKiB);
      EXPECT_EQ(m.skip_sectors, 0);
      EXPECT_EQ(m.columns, 3);
      EXPECT_EQ(RaidzActiveColumns(m), 3);
      std::set<int> children;
      for (int c = 0; c < m.columns; ++c) {
        EXPECT_EQ(m.column[c].size, 4 * kKiB);
        children.insert(m.column[c].child);
      }
      EXPECT_EQ(children.size(), 3u);
      EXPECT_EQ(m.column[0].role, 'P');
      EXPECT_EQ(m.column[1].role, 'Q');
      EXPECT_EQ(m.column[2].role, 'D');
      EXPECT_EQ(DataSizes(m).size(), 1u);  // a normal read touches one disk
    }
  }
}

TEST(RaidzMapTest, SmallBlockListsScolsWithEmptyColumnsForSkipSectors) {
  // RAID-Z1, 5 wide, 8 KiB at ashift 12: bc = 3 columns used, padded to scols = 4.
  const RaidzMap m = MapRaidzBlock(5, 1, 12, 0, 8 * kKiB);
  EXPECT_EQ(m.columns, 4);
  EXPECT_EQ(RaidzActiveColumns(m), 3);
  EXPECT_EQ(m.column[3].size, 0);
  EXPECT_EQ(m.column[3].role, 'D');
  EXPECT_EQ(m.column[3].child, 3);
  EXPECT_EQ(m.skip_sectors, 1);
  EXPECT_EQ(m.skip_start, 3);
  EXPECT_EQ(m.asize, 16 * kKiB);
  const RaidzColumn skip = RaidzSkipSector(m, 0);
  EXPECT_EQ(skip.child, 3);
  EXPECT_EQ(skip.offset, 0);

  // RAID-Z3, 6 wide, 8 KiB: bc = 5, roundup(5, 4) = 8 > width, so scols = 6 and
  // the skip sectors wrap to columns 0 and 1, one row down.
  const RaidzMap z3 = MapRaidzBlock(6, 3, 12, 0, 8 * kKiB);
  EXPECT_EQ(z3.columns, 6);
  EXPECT_EQ(z3.skip_sectors, 3);
  EXPECT_EQ(z3.asize, 32 * kKiB);
  EXPECT_EQ(z3.column[2].role, 'R');
  EXPECT_EQ(RaidzSkipSector(z3, 0).child, 5);
  EXPECT_EQ(RaidzSkipSector(z3, 0).offset, 0);
  EXPECT_EQ(RaidzSkipSector(z3, 1).child, 0);
  EXPECT_EQ(RaidzSkipSector(z3, 1).offset, 4 * kKiB);
  EXPECT_EQ(RaidzSkipSector(z3, 2).child, 1);
  EXPECT_EQ(RaidzSkipSector(z3, 2).offset, 4 * kKiB);
}

TEST(RaidzMapTest, SmallBlockAtAshift9SpreadsOverManyColumns) {
  // 4 KiB at ashift 9 on a 12-wide RAID-Z2: 8 data + 2 parity sectors, one per column.
  const RaidzMap m = MapRaidzBlock(12, 2, 9, 0, 4 * kKiB);
  EXPECT_EQ(RaidzActiveColumns(m), 10);
  EXPECT_EQ(m.columns, 12);
  EXPECT_EQ(m.skip_sectors, 2);
  for (int c = 0; c < 10; ++c) EXPECT_EQ(m.column[c].size, 512);
}

// ---- RAID-Z1 bit-20 swap ----

TEST(RaidzMapTest, Raidz1Bit20SwapsParityAndFirstDataColumn) {
  // 5 wide, ashift 12, 1 MiB offset: b = 256, f = 1, o = 51 sectors.
  const RaidzMap m = MapRaidzBlock(5, 1, 12, kMiB, 128 * kKiB);
  EXPECT_EQ(m.column[0].role, 'P');
  EXPECT_EQ(m.column[0].child, 2);
  EXPECT_EQ(m.column[0].offset, 51 * 4096);
  EXPECT_EQ(m.column[1].child, 1);
  EXPECT_EQ(m.column[1].offset, 51 * 4096);
  EXPECT_EQ(m.column[2].child, 3);
  EXPECT_EQ(m.skip_start, 1);  // bc == 0 -> 1 after the swap

  // Same geometry, bit 20 clear (offset 2 MiB + 4 KiB: f = 2).
  const RaidzMap plain = MapRaidzBlock(5, 1, 12, 2 * kMiB + 4 * kKiB, 128 * kKiB);
  EXPECT_EQ(plain.column[0].child, (513) % 5);
  EXPECT_EQ(plain.column[1].child, (514) % 5);
  EXPECT_EQ(plain.skip_start, 0);

  // A swap where the offsets differ: b = 259 (1 MiB + 12 KiB), f = 4, o = 51
  // sectors; column 0 (child 4) is before the wrap, column 1 (child 0) after it.
  const RaidzMap wrap = MapRaidzBlock(5, 1, 12, kMiB + 12 * kKiB, 128 * kKiB);
  EXPECT_EQ(wrap.column[0].child, 0);
  EXPECT_EQ(wrap.column[0].offset, 52 * 4096);
  EXPECT_EQ(wrap.column[1].child, 4);
  EXPECT_EQ(wrap.column[1].offset, 51 * 4096);
}

TEST(RaidzMapTest, Raidz2AndRaidz3HaveNoBit20Swap) {
  for (int parity : {2, 3}) {
    const RaidzMap m = MapRaidzBlock(7, parity, 12, kMiB, 128 * kKiB);  // b = 256, f = 4
    EXPECT_EQ(m.column[0].child, 4);
    EXPECT_EQ(m.column[1].child, 5);
  }
}

// ---- child offset wrap ----

TEST(RaidzMapTest, ChildOffsetAdvancesOneSectorPastTheLastChild) {
  // 6 wide RAID-Z2, ashift 12, b = 64: f = 4, o = 10 sectors.
  const RaidzMap m = MapRaidzBlock(6, 2, 12, 64 * 4096, 128 * kKiB);
  const int want_child[6] = {4, 5, 0, 1, 2, 3};
  const int64_t want_off[6] = {10, 10, 11, 11, 11, 11};
  for (int c = 0; c < 6; ++c) {
    EXPECT_EQ(m.column[c].child, want_child[c]) << c;
    EXPECT_EQ(m.column[c].offset, want_off[c] * 4096) << c;
  }
}

// ---- invariants over random geometry ----

TEST(RaidzMapTest, RandomGeometryInvariants) {
  std::mt19937_64 rng(20240601);
  for (int iter = 0; iter < 5000; ++iter) {
    const int width = std::uniform_int_distribution<int>(2, kMaxRaidzWidth)(rng);
    const int parity = std::uniform_int_distribution<int>(1, std::min(3, width - 1))(rng);
    const int ashift = std::uniform_int_distribution<int>(9, 16)(rng);
    const int64_t sector = int64_t{1} << ashift;
    const int64_t max_sectors = iter % 4 == 0 ? 8 : (iter % 4 == 1 ? 64 : (16 * kMiB) >> ashift);
    const int64_t psize = std::uniform_int_distribution<int64_t>(1, max_sectors)(rng) * sector;
    const int64_t offset = std::uniform_int_distribution<int64_t>(0, int64_t{1} << 30)(rng) * sector;
    SCOPED_TRACE(::testing::Message() << "width " << width << " parity " << parity << " ashift " << ashift
                                      << " offset " << offset << " psize " << psize);

    const RaidzMap m = MapRaidzBlock(width, parity, ashift, offset, psize);
    ASSERT_EQ(m.parity, parity);
    ASSERT_GE(m.columns, parity + 1);
    ASSERT_LE(m.columns, width);
    EXPECT_EQ(m.asize, RaidzAsize(width, parity, ashift, psize));

    int64_t data = 0;
    int64_t used = 0;
    std::set<int> children;
    const int64_t first_data = m.column[parity].size;
    for (int c = 0; c < m.columns; ++c) {
      const RaidzColumn& col = m.column[c];
      EXPECT_TRUE(children.insert(col.child).second) << "child " << col.child << " twice";
      EXPECT_EQ(col.role, c < parity ? "PQR"[c] : 'D');
      EXPECT_EQ(col.size % sector, 0);
      EXPECT_EQ(col.offset % sector, 0);
      if (c < parity) {
        EXPECT_EQ(col.size, first_data);
      }
      if (c >= parity) data += col.size;
      used += col.size;
    }
    EXPECT_EQ(data, psize);
    const int64_t tot = used / sector;
    EXPECT_EQ(m.asize, (tot + m.skip_sectors) * sector);
    EXPECT_EQ(m.asize / sector % (parity + 1), 0);
    EXPECT_LT(m.skip_sectors, parity + 1);

    // 3.1: the columns plus the skip sectors are exactly the vdev sectors
    // [b, b + asize_sectors), vdev sector = (child offset / sector) * width + child.
    std::vector<int64_t> sectors;
    for (int c = 0; c < m.columns; ++c) {
      const RaidzColumn& col = m.column[c];
      for (int64_t j = 0; j < col.size / sector; ++j) sectors.push_back((col.offset / sector + j) * width + col.child);
    }
    const int64_t b = offset / sector;
    for (int i = 0; i < m.skip_sectors; ++i) {
      const RaidzColumn s = RaidzSkipSector(m, i);
      const int64_t v = s.offset / sector * width + s.child;
      EXPECT_EQ(v, b + tot + i) << "skip sector " << i;
      sectors.push_back(v);
    }
    std::sort(sectors.begin(), sectors.end());
    ASSERT_EQ(static_cast<int64_t>(sectors.size()), m.asize / sector);
    for (size_t i = 0; i < sectors.size(); ++i) {
      if (sectors[i] != b + static_cast<int64_t>(i)) {
        ADD_FAILURE() << "vdev sector " << b + static_cast<int64_t>(i) << " not covered";
        break;
      }
    }
    if (HasFailure()) return;
  }
}

TEST(RaidzMapTest, BrokenPreconditionsThrow) {
  EXPECT_THROW(MapRaidzBlock(1, 1, 12, 0, 4096), std::invalid_argument);
  EXPECT_THROW(MapRaidzBlock(65, 1, 12, 0, 4096), std::invalid_argument);
  EXPECT_THROW(MapRaidzBlock(3, 3, 12, 0, 4096), std::invalid_argument);
  EXPECT_THROW(MapRaidzBlock(6, 4, 12, 0, 4096), std::invalid_argument);
  EXPECT_THROW(MapRaidzBlock(6, 2, 12, 512, 4096), std::invalid_argument);
  EXPECT_EQ(MapRaidzBlock(6, 2, 12, 0, 512).asize, 12 * kKiB);  // padded to one sector, like asize
  EXPECT_THROW(MapRaidzBlock(6, 2, 12, 0, 0), std::invalid_argument);
  EXPECT_THROW(MapRaidzBlock(6, 2, 12, -4096, 4096), std::invalid_argument);
  EXPECT_THROW(RaidzAsize(6, 2, 12, 0), std::invalid_argument);
  EXPECT_EQ(RaidzAsize(6, 2, 12, 1), 12 * kKiB);  // asize rounds psize up to a sector
}

}  // namespace
}  // namespace ziosim

namespace ziosim {
namespace {

// zio_vdev_io_start pads an I/O to whole sectors of the top-level vdev before
// vdev_raidz maps it: a psize of 6 KiB at ashift 12 maps as 8 KiB, and the
// allocated size agrees with RaidzAsize.
TEST(RaidzMapTest, PsizeIsRoundedUpToWholeSectors) {
  const RaidzMap odd = MapRaidzBlock(6, 2, 12, 0, 6 * 1024);
  const RaidzMap whole = MapRaidzBlock(6, 2, 12, 0, 8 * 1024);
  EXPECT_EQ(odd.asize, whole.asize);
  EXPECT_EQ(odd.asize, RaidzAsize(6, 2, 12, 6 * 1024));
  EXPECT_EQ(odd.columns, whole.columns);
  for (int c = 0; c < odd.columns; ++c) EXPECT_EQ(odd.column[c].size, whole.column[c].size) << c;
  // One byte over a sector takes the next one.
  EXPECT_EQ(MapRaidzBlock(6, 2, 12, 0, 4097).asize, MapRaidzBlock(6, 2, 12, 0, 8192).asize);
}

}  // namespace
}  // namespace ziosim
