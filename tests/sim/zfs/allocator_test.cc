#include "sim/zfs/allocator.h"

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <tuple>
#include <vector>

#include <gtest/gtest.h>

#include "sim/core/bytes.h"
#include "sim/core/simulation.h"
#include "sim/core/status.h"
#include "sim/zfs/pool.h"
#include "sim/zfs/pool_spec.h"
#include "sim/zfs/zdb_layout.h"
#include "tests/test_util.h"

namespace ziosim {
namespace {

constexpr char kMirror[] = "mirror 2xwd-re4-1tb";
constexpr char kTwoMirrors[] = "mirror 2xwd-re4-1tb mirror 2xwd-re4-1tb";
constexpr char kTwoRaidz2[] = "raidz2 5xwd-re4-1tb raidz2 5xwd-re4-1tb";

struct TestPool {
  Simulation sim;
  std::unique_ptr<Pool> pool;
};

std::unique_ptr<TestPool> MakePool(const std::string& spec, Tunables t = ProfileTunables("openzfs-2.2")) {
  auto p = std::make_unique<TestPool>();
  p->pool = std::make_unique<Pool>(&p->sim, ParsePoolSpec(spec), std::move(t), /*seed=*/1);
  return p;
}

Tunables EraTunables(bool children) {
  Tunables t = ProfileTunables("openzfs-2.2");
  if (children) {  // <= OpenZFS 2.1: 512 KiB x children
    t.Set("metaslab_aliquot", "512K", "test");
    t.Set("ziosim_aliquot_per", "children", "test");
  }
  return t;
}

FileSpec File(int64_t size, int64_t recordsize = 128 * kKiB) {
  FileSpec f;
  f.size_bytes = size;
  f.recordsize = recordsize;
  return f;
}

std::vector<BlockPointer> L0(const FileLayout& fl) {
  std::vector<BlockPointer> v;
  for (int64_t b = 0; b < fl.blocks(); ++b) v.push_back(fl.Locate(0, b));
  return v;
}

// Lengths of runs of consecutive blocks on the same top-level vdev.
std::vector<int64_t> VdevRuns(const std::vector<BlockPointer>& bps) {
  std::vector<int64_t> runs;
  for (size_t i = 0; i < bps.size(); ++i) {
    if (i == 0 || bps[i].top != bps[i - 1].top) runs.push_back(0);
    ++runs.back();
  }
  return runs;
}

using test::ErrorOf;

bool SameExtents(const std::vector<FileLayout>& a, const std::vector<FileLayout>& b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i) {
    for (int level = 0; level < 2; ++level) {
      const auto& x = a[i].extents(level);
      const auto& y = b[i].extents(level);
      if (x.size() != y.size()) return false;
      for (size_t k = 0; k < x.size(); ++k) {
        if (std::tie(x[k].first, x[k].count, x[k].top, x[k].offset, x[k].stride, x[k].psize, x[k].hole, x[k].top2,
                     x[k].offset2) != std::tie(y[k].first, y[k].count, y[k].top, y[k].offset, y[k].stride, y[k].psize,
                                               y[k].hole, y[k].top2, y[k].offset2)) {
          return false;
        }
      }
    }
  }
  return true;
}

// Every allocated copy of every block, as (top, offset, asize), must not overlap another.
void ExpectNoOverlap(const Pool& pool, const std::vector<FileLayout>& files) {
  std::vector<std::tuple<int, int64_t, int64_t>> all;
  for (const FileLayout& f : files) {
    for (int level = 0; level < 2; ++level) {
      for (const LayoutExtent& e : f.extents(level)) {
        if (e.hole) continue;
        for (int64_t i = 0; i < e.count; ++i) {
          all.emplace_back(e.top, e.offset + i * e.stride, e.stride);
          if (e.top2 >= 0) all.emplace_back(e.top2, e.offset2 + i * e.stride, e.stride);
        }
      }
    }
  }
  std::sort(all.begin(), all.end());
  for (size_t i = 1; i < all.size(); ++i) {
    const auto& [t0, o0, a0] = all[i - 1];
    const auto& [t1, o1, a1] = all[i];
    if (t0 == t1) {
      ASSERT_LE(o0 + a0, o1) << "blocks overlap on vdev " << t0 << " at " << o1;
    }
  }
  for (const auto& [t, o, a] : all) {
    ASSERT_LE(o + a, pool.top(t)->asize_bytes());
    ASSERT_EQ(a % (int64_t{1} << pool.ashift()), 0);  // whole sectors
  }
}

// ---- FileLayout ----

TEST(FileLayoutTest, LocateFindsTheExtentHoldingTheBlock) {
  FileLayout fl(7, 10 * 128 * kKiB, 128 * kKiB, 1024);
  EXPECT_EQ(fl.blocks(), 10);
  EXPECT_EQ(fl.indirect_blocks(), 1);
  fl.AddExtent(0, LayoutExtent{.first = 0, .count = 4, .top = 1, .offset = 1000 * kKiB, .stride = 128 * kKiB,
                               .psize = 128 * kKiB});
  fl.AddExtent(0, LayoutExtent{.first = 4, .count = 2, .hole = true});
  fl.AddExtent(0, LayoutExtent{.first = 6, .count = 4, .top = 0, .offset = 0, .stride = 216 * kKiB,
                               .psize = 128 * kKiB, .top2 = 1, .offset2 = 64 * kKiB});
  const BlockPointer b2 = fl.Locate(0, 2);
  EXPECT_FALSE(b2.hole);
  EXPECT_EQ(b2.top, 1);
  EXPECT_EQ(b2.offset, 1256 * kKiB);
  EXPECT_EQ(b2.psize, 128 * kKiB);
  EXPECT_EQ(b2.top2, -1);
  EXPECT_TRUE(fl.Locate(0, 4).hole);
  EXPECT_TRUE(fl.Locate(0, 5).hole);
  const BlockPointer b9 = fl.Locate(0, 9);
  EXPECT_EQ(b9.top, 0);
  EXPECT_EQ(b9.offset, 3 * 216 * kKiB);
  EXPECT_EQ(b9.top2, 1);
  EXPECT_EQ(b9.offset2, 64 * kKiB + 3 * 216 * kKiB);
  EXPECT_THROW(fl.Locate(0, 10), std::out_of_range);
  EXPECT_THROW(fl.Locate(1, 0), std::out_of_range);  // no L1 extents
  // Any order of look-ups (the extent found last is tried first): backwards,
  // over several extents, again, and out of range after a hit.
  for (const int64_t blkid : {9, 0, 3, 7, 7, 5, 1, 8, 4, 2, 6, 9, -1, 6, 10, 0}) {
    if (blkid < 0 || blkid >= 10) {
      EXPECT_THROW(fl.Locate(0, blkid), std::out_of_range) << blkid;
      continue;
    }
    const BlockPointer bp = fl.Locate(0, blkid);
    EXPECT_EQ(bp.hole, blkid == 4 || blkid == 5) << blkid;
    if (blkid < 4) {
      EXPECT_EQ(bp.offset, 1000 * kKiB + blkid * 128 * kKiB) << blkid;
    } else if (blkid >= 6) {
      EXPECT_EQ(bp.offset, (blkid - 6) * 216 * kKiB) << blkid;
    }
  }
  // Extents must be contiguous.
  EXPECT_THROW(fl.AddExtent(1, LayoutExtent{.first = 1, .count = 1}), std::invalid_argument);
}

// ---- presets ----

TEST(LayoutPresetTest, ParsesEveryForm) {
  using Kind = LayoutPreset::Kind;
  EXPECT_EQ(ParseLayoutPreset("sequential").kind, Kind::kSequential);
  EXPECT_EQ(ParseLayoutPreset("sendrecv").kind, Kind::kSendRecv);
  const LayoutPreset w = ParseLayoutPreset("writers:4");
  EXPECT_EQ(w.kind, Kind::kWriters);
  EXPECT_EQ(w.param, 4);
  EXPECT_EQ(w.text, "writers:4");
  EXPECT_EQ(ParseLayoutPreset("shuffle:8").param, 8);
  EXPECT_EQ(ParseLayoutPreset("fragmented:0").param, 0);
  EXPECT_EQ(ParseLayoutPreset("fragmented:95").kind, Kind::kFragmented);
}

TEST(LayoutPresetTest, ErrorsNameThePresetAndListTheForms) {
  for (const char* bad : {"", "seq", "writers", "writers:1", "writers:x", "writers:2x", "shuffle:1", "fragmented:96",
                          "fragmented:-1", "bogus:3", "sequential:2"}) {
    const std::string e = ErrorOf([&] { ParseLayoutPreset(bad); });
    EXPECT_NE(e.find("layout preset '" + std::string(bad) + "'"), std::string::npos) << e;
    EXPECT_NE(e.find("writers:N (N >= 2)"), std::string::npos) << e;
    EXPECT_NE(e.find("fragmented:PCT (0-95)"), std::string::npos) << e;
  }
}

// ---- mechanisms ----

// One writer: on each top-level vdev the file's blocks are back to back but for
// the L1 written behind the last block it covers; the rotor moves on every aliquot.
TEST(AllocatorTest, OneWriterIsContiguousPerVdev) {
  auto p = MakePool(kTwoMirrors);
  const auto files = AllocateFiles(*p->pool, {File(256 * kMiB)}, ParseLayoutPreset("sequential"), 1);
  const std::vector<BlockPointer> bps = L0(files[0]);
  ASSERT_EQ(bps.size(), 2048u);
  EXPECT_EQ(bps[0].top, 0);
  EXPECT_EQ(bps[0].offset, 0);  // an empty pool fills from the start
  std::map<std::pair<int, int64_t>, int64_t> l1_at;  // (vdev, offset) -> asize, both copies
  for (int64_t j = 0; j < files[0].indirect_blocks(); ++j) {
    const BlockPointer l1 = files[0].Locate(1, j);
    l1_at[{l1.top, l1.offset}] = l1.psize;
    l1_at[{l1.top2, l1.offset2}] = l1.psize;
  }
  std::map<int, int64_t> next;  // per vdev: where the next block should be
  for (const BlockPointer& b : bps) {
    ASSERT_FALSE(b.hole);
    EXPECT_EQ(b.psize, 128 * kKiB);
    if (next.count(b.top)) {
      int64_t expect = next[b.top];
      while (l1_at.count({b.top, expect})) expect += l1_at[{b.top, expect}];  // skip an L1 in between
      EXPECT_EQ(b.offset, expect);
    }
    next[b.top] = b.offset + 128 * kKiB;
  }
  // 2.2: aliquot 1 MiB x 2 disks = 16 records per vdev, alternating.
  const std::vector<int64_t> runs = VdevRuns(bps);
  for (int64_t r : runs) EXPECT_EQ(r, 16);
  ExpectNoOverlap(*p->pool, files);
}

// Two writers: each txg holds a run of ~half a txg of each file, runs alternating.
TEST(AllocatorTest, TwoWritersInterleaveTxgSizedRuns) {
  auto p = MakePool(kMirror);
  const auto files =
      AllocateFiles(*p->pool, {File(2 * kGiB), File(2 * kGiB)}, ParseLayoutPreset("writers:2"), 1);
  // All data blocks of both files in disk order, labelled by file.
  std::vector<std::pair<int64_t, int>> disk;
  for (int f = 0; f < 2; ++f) {
    for (const BlockPointer& b : L0(files[static_cast<size_t>(f)])) disk.emplace_back(b.offset, f);
  }
  std::sort(disk.begin(), disk.end());
  std::vector<std::pair<int, int64_t>> runs;  // (file, blocks)
  for (const auto& [off, f] : disk) {
    if (runs.empty() || runs.back().first != f) runs.emplace_back(f, 0);
    ++runs.back().second;
  }
  // 200 MB/s x 5 s = 1 GB per txg, 500 MB per writer = 3814.7 records of 128 KiB.
  ASSERT_GE(runs.size(), 8u);
  EXPECT_EQ(runs[0].first, 0);  // dnode order: file 0 first
  for (size_t i = 0; i + 2 < runs.size(); ++i) {
    EXPECT_NE(runs[i].first, runs[i + 1].first);
    EXPECT_GE(runs[i].second, 3814);
    EXPECT_LE(runs[i].second, 3815);
  }
  // So one file's consecutive blocks jump over the other file's run.
  const std::vector<BlockPointer> a = L0(files[0]);
  int64_t max_gap = 0;
  for (size_t i = 1; i < a.size(); ++i) max_gap = std::max(max_gap, a[i].offset - a[i - 1].offset - 128 * kKiB);
  EXPECT_GT(max_gap, 400 * kMiB);
  ExpectNoOverlap(*p->pool, files);

  // With one writer the same files are contiguous (the only gaps are the
  // few KiB of L1 blocks at each txg end).
  const auto seq = AllocateFiles(*p->pool, {File(2 * kGiB), File(2 * kGiB)}, ParseLayoutPreset("sequential"), 1);
  for (const FileLayout& fl : seq) {
    const std::vector<BlockPointer> s = L0(fl);
    for (size_t i = 1; i < s.size(); ++i) {
      const int64_t gap = s[i].offset - s[i - 1].offset - 128 * kKiB;
      EXPECT_GE(gap, 0);
      EXPECT_LE(gap, 64 * kKiB);
    }
  }
}

// The rotor moves after the era's aliquot of allocated size: 512 KiB x
// children (<= 2.1) vs 1 MiB x data disks (2.2+).
TEST(AllocatorTest, RotorMovesAfterTheErasAliquot) {
  struct Case {
    const char* spec;
    bool children;
    int64_t records;  // per vdev turn
  };
  // mirror: 512K x 2 = 1M = 8 x 128K | 1M x 2 = 2M = 16 x 128K.
  // 5-wide raidz2, ashift 12: asize(128K) = 216K; 512K x 5 = 2.5M -> 12 records;
  // 1M x 3 = 3M -> 15 records (the rotor moves once the turn reaches the aliquot).
  for (const Case& c : {Case{kTwoMirrors, true, 8}, Case{kTwoMirrors, false, 16}, Case{kTwoRaidz2, true, 12},
                        Case{kTwoRaidz2, false, 15}}) {
    SCOPED_TRACE(std::string(c.spec) + (c.children ? " children" : " data_disks"));
    auto p = MakePool(c.spec, EraTunables(c.children));
    const auto files = AllocateFiles(*p->pool, {File(64 * kMiB)}, ParseLayoutPreset("sequential"), 1);
    const std::vector<int64_t> runs = VdevRuns(L0(files[0]));
    ASSERT_GT(runs.size(), 4u);
    for (size_t i = 0; i + 1 < runs.size(); ++i) EXPECT_EQ(runs[i], c.records) << "run " << i;
  }
}

// Each L1 is allocated once the last block it covers in the txg is (its zio
// waits for its children to be ready), so it lands right behind that block:
// one L1 per 128 MiB of 128 KiB records, between the data, with a ditto copy
// >= 1/8 of the vdev away on a single-vdev pool. An L1 that covers blocks of
// two txgs is rewritten behind the later txg's last block.
TEST(AllocatorTest, IndirectBlocksFollowTheirLastChild) {
  auto p = MakePool(kMirror);
  const auto files = AllocateFiles(*p->pool, {File(2 * kGiB)}, ParseLayoutPreset("sequential"), 1);
  const FileLayout& fl = files[0];
  EXPECT_EQ(fl.ptrs_per_indirect(), 1024);
  ASSERT_EQ(fl.indirect_blocks(), 16);
  const int64_t vdev_asize = p->pool->top(0)->asize_bytes();
  for (int64_t j = 0; j < fl.indirect_blocks(); ++j) {
    const BlockPointer l1 = fl.Locate(1, j);
    ASSERT_FALSE(l1.hole);
    EXPECT_EQ(l1.psize, 4 * kKiB);
    const int64_t last_child = std::min(fl.blocks(), (j + 1) * 1024) - 1;
    EXPECT_EQ(l1.offset, fl.Locate(0, last_child).offset + 128 * kKiB) << "L1 " << j;
    EXPECT_EQ(l1.top2, 0);
    EXPECT_GE(l1.offset2 - l1.offset, vdev_asize / 8);
  }
  // Three txgs of ~1 GB: txg 0 ends inside L1 7's span, so an older copy of
  // L1 7 sits behind txg 0's last block, and the next txg's data follows it.
  const std::vector<LayoutExtent> data = fl.extents(0);
  int64_t breaks = 0;
  for (size_t i = 0; i + 1 < data.size(); ++i) {
    const int64_t gap = data[i + 1].offset - (data[i].offset + data[i].count * data[i].stride);
    EXPECT_EQ(gap, 4 * kKiB) << "extent " << i;  // one L1, nothing else
    ++breaks;
  }
  EXPECT_EQ(breaks, 15 + 2);  // behind L1 0..14 and the two txg-boundary copies of L1 7 and 14
  ExpectNoOverlap(*p->pool, files);
}

// With the first-fit allocator's rounding (ziosim_df_align; DF never rounds) a
// block starts at a multiple of its alignment (asize & -asize): on a mirror the
// data of the next txg starts at the next 128 KiB, and the L1s fill the slot
// left after the previous txg's data.
TEST(AllocatorTest, OldEraAlignsBlocksToTheirSize) {
  Tunables t = EraTunables(/*children=*/true);
  t.Set("ziosim_df_align", "true", "test");
  auto p = MakePool(kMirror, t);
  const auto files = AllocateFiles(*p->pool, {File(2 * kGiB)}, ParseLayoutPreset("sequential"), 1);
  const FileLayout& fl = files[0];
  const std::vector<LayoutExtent>& data = fl.extents(0);
  ASSERT_EQ(data.size(), 2u);  // txgs 1 and 2 are back to back: their L1s went into the slot
  const int64_t end0 = data[0].offset + data[0].count * data[0].stride;
  EXPECT_EQ(data[1].offset - end0, 128 * kKiB);
  for (int64_t j = 0; j < fl.indirect_blocks(); ++j) {
    const int64_t off = fl.Locate(1, j).offset;
    EXPECT_GE(off, end0);
    EXPECT_LT(off, data[1].offset);
  }
  ExpectNoOverlap(*p->pool, files);
}

TEST(AllocatorTest, DittoCopyGoesToTheNextVdev) {
  auto p = MakePool(kTwoMirrors);
  const auto files = AllocateFiles(*p->pool, {File(64 * kMiB)}, ParseLayoutPreset("sequential"), 1);
  ASSERT_EQ(files[0].extents(1).size(), 1u);
  const BlockPointer l1 = files[0].Locate(1, 0);
  EXPECT_EQ(l1.top2, (l1.top + 1) % 2);
}

TEST(AllocatorTest, SmallIndirectBlocksBefore7104) {
  Tunables t = ProfileTunables("openzfs-2.2");
  t.Set("zfs_default_ibs", "14", "test");
  auto p = MakePool(kMirror, t);
  const auto files = AllocateFiles(*p->pool, {File(64 * kMiB)}, ParseLayoutPreset("sequential"), 1);
  EXPECT_EQ(files[0].ptrs_per_indirect(), 128);
  EXPECT_EQ(files[0].indirect_blocks(), 4);
  EXPECT_EQ(files[0].Locate(1, 3).psize, 4 * kKiB);  // the sector at ashift 12
}

TEST(AllocatorTest, SparseFilesAreHolesWithoutIndirectBlocks) {
  auto p = MakePool(kTwoMirrors);
  FileSpec sparse = File(1 * kGiB);
  sparse.sparse = true;
  const auto with = AllocateFiles(*p->pool, {File(64 * kMiB), sparse, File(64 * kMiB)},
                                  ParseLayoutPreset("sequential"), 1);
  const FileLayout& s = with[1];
  EXPECT_EQ(s.blocks(), 8192);
  ASSERT_EQ(s.extents(0).size(), 1u);
  EXPECT_TRUE(s.extents(0)[0].hole);
  EXPECT_EQ(s.extents(0)[0].count, 8192);
  EXPECT_TRUE(s.extents(1).empty());
  EXPECT_TRUE(s.Locate(0, 4000).hole);
  // A sparse file takes no space: the others are laid out as without it.
  const auto without = AllocateFiles(*p->pool, {File(64 * kMiB), File(64 * kMiB)}, ParseLayoutPreset("sequential"), 1);
  EXPECT_TRUE(SameExtents({with[0], with[2]}, without));
}

TEST(AllocatorTest, ShuffleKeepsEveryBlockOnceWithinItsWindow) {
  auto p = MakePool(kTwoMirrors);
  const auto seq = AllocateFiles(*p->pool, {File(256 * kMiB)}, ParseLayoutPreset("sequential"), 3);
  const auto shuf = AllocateFiles(*p->pool, {File(256 * kMiB)}, ParseLayoutPreset("shuffle:8"), 3);
  const std::vector<BlockPointer> a = L0(seq[0]);
  const std::vector<BlockPointer> b = L0(shuf[0]);
  ASSERT_EQ(a.size(), b.size());
  std::vector<std::pair<int, int64_t>> sa, sb;
  int moved = 0;
  for (size_t i = 0; i < a.size(); ++i) {
    sa.emplace_back(a[i].top, a[i].offset);
    sb.emplace_back(b[i].top, b[i].offset);
    moved += a[i].top != b[i].top || a[i].offset != b[i].offset;
    // Block i took one of the 8 slots of its window.
    const size_t w = i / 8 * 8;
    bool in_window = false;
    for (size_t k = w; k < w + 8 && k < a.size(); ++k) in_window |= a[k].top == b[i].top && a[k].offset == b[i].offset;
    EXPECT_TRUE(in_window) << "block " << i;
  }
  std::sort(sa.begin(), sa.end());
  std::sort(sb.begin(), sb.end());
  EXPECT_EQ(sa, sb);
  EXPECT_EQ(std::set(sb.begin(), sb.end()).size(), sb.size());
  EXPECT_GT(moved, static_cast<int>(a.size()) / 2);
  EXPECT_GT(shuf[0].extents(0).size(), seq[0].extents(0).size() * 4);
}

TEST(AllocatorTest, FragmentedPoolSpreadsBlocksFromLowOffsets) {
  auto p = MakePool(kMirror);
  const auto files = AllocateFiles(*p->pool, {File(256 * kMiB)}, ParseLayoutPreset("fragmented:50"), 5);
  const std::vector<BlockPointer> b = L0(files[0]);
  double gaps = 0;
  for (size_t i = 1; i < b.size(); ++i) {
    const int64_t gap = b[i].offset - (b[i - 1].offset + 128 * kKiB);
    EXPECT_TRUE(gap >= 0 || b[i].offset + 128 * kKiB <= b[i - 1].offset);  // never overlapping
    gaps += static_cast<double>(gap);
  }
  EXPECT_GT(gaps / static_cast<double>(b.size() - 1), 64 * kKiB);  // mean gap
  EXPECT_LT(b.front().offset, 16 * kMiB);  // the first free hole
  // Half the space is taken, so 256 MiB spans ~512 MiB (more: holes too small are skipped).
  EXPECT_GT(b.back().offset, 400 * kMiB);
  EXPECT_LT(b.back().offset, 2 * kGiB);
  EXPECT_GT(files[0].extents(0).size(), 50u);
  ExpectNoOverlap(*p->pool, files);

  // fragmented:0 is the empty pool.
  EXPECT_TRUE(SameExtents(AllocateFiles(*p->pool, {File(256 * kMiB)}, ParseLayoutPreset("fragmented:0"), 5),
                          AllocateFiles(*p->pool, {File(256 * kMiB)}, ParseLayoutPreset("sequential"), 5)));
}

TEST(AllocatorTest, SendRecvWritesIndirectBlocksAfterTheFile) {
  auto p = MakePool(kMirror);
  const auto files = AllocateFiles(*p->pool, {File(2 * kGiB), File(1 * kGiB)}, ParseLayoutPreset("sendrecv"), 1);
  // The data of each file is one extent; its 16 (8) L1s follow it back to back.
  for (const FileLayout& fl : files) {
    ASSERT_EQ(fl.extents(0).size(), 1u);
    const LayoutExtent& d = fl.extents(0)[0];
    ASSERT_EQ(fl.extents(1).size(), 1u);  // contiguous first copies, contiguous ditto copies
    EXPECT_EQ(fl.extents(1)[0].offset, d.offset + d.count * d.stride);
    EXPECT_EQ(fl.extents(1)[0].count, fl.indirect_blocks());
  }
  EXPECT_EQ(files[1].extents(0)[0].offset,
            files[0].extents(1)[0].offset + files[0].indirect_blocks() * 4 * kKiB);
  ExpectNoOverlap(*p->pool, files);
}

TEST(AllocatorTest, EveryPresetKeepsBlocksApart) {
  auto p = MakePool(kTwoRaidz2);
  for (const char* preset : {"sequential", "writers:3", "shuffle:4", "fragmented:70", "sendrecv"}) {
    SCOPED_TRACE(preset);
    FileSpec small = File(3000);
    FileSpec comp = File(300 * kMiB + 5000, 1 * kMiB);
    comp.compression_ratio = 1.7;
    const auto files = AllocateFiles(*p->pool, {File(200 * kMiB), small, comp, File(100 * kMiB)},
                                     ParseLayoutPreset(preset), 9);
    ExpectNoOverlap(*p->pool, files);
    for (const FileLayout& f : files) {
      for (int64_t b = 0; b < f.blocks(); ++b) ASSERT_FALSE(f.Locate(0, b).hole);
    }
  }
}

TEST(AllocatorTest, BlockSizesAndCompression) {
  auto p = MakePool(kMirror);
  FileSpec half = File(10 * 128 * kKiB + 1000);
  half.compression_ratio = 2.0;
  FileSpec little = File(10 * 128 * kKiB);
  little.compression_ratio = 1.1;  // saves less than 1/8: stored whole
  const auto files = AllocateFiles(*p->pool, {File(3000), half, little, File(10 * 128 * kKiB + 1)},
                                   ParseLayoutPreset("sequential"), 1);
  // A file smaller than recordsize: one block of its size rounded up to 512.
  EXPECT_EQ(files[0].block_bytes(), 3072);
  EXPECT_EQ(files[0].blocks(), 1);
  EXPECT_EQ(files[0].Locate(0, 0).psize, 4096);  // the sector
  EXPECT_TRUE(files[0].extents(1).empty());       // one block: no L1
  EXPECT_EQ(files[1].Locate(0, 0).psize, 64 * kKiB);
  EXPECT_EQ(files[1].Locate(0, 10).psize, 4096);  // 1000 bytes / 2, rounded up
  EXPECT_EQ(files[2].Locate(0, 3).psize, 128 * kKiB);
  // Uncompressed: the last block is a whole record.
  EXPECT_EQ(files[3].blocks(), 11);
  EXPECT_EQ(files[3].Locate(0, 10).psize, 128 * kKiB);
}

TEST(AllocatorTest, DeterministicInTheSeed) {
  auto p = MakePool(kTwoMirrors);
  const std::vector<FileSpec> specs = {File(100 * kMiB), File(50 * kMiB), File(70 * kMiB)};
  for (const char* preset : {"fragmented:30", "shuffle:4", "writers:3"}) {
    SCOPED_TRACE(preset);
    EXPECT_TRUE(SameExtents(AllocateFiles(*p->pool, specs, ParseLayoutPreset(preset), 11),
                            AllocateFiles(*p->pool, specs, ParseLayoutPreset(preset), 11)));
  }
  EXPECT_FALSE(SameExtents(AllocateFiles(*p->pool, specs, ParseLayoutPreset("fragmented:30"), 11),
                           AllocateFiles(*p->pool, specs, ParseLayoutPreset("fragmented:30"), 12)));
  EXPECT_FALSE(SameExtents(AllocateFiles(*p->pool, specs, ParseLayoutPreset("shuffle:4"), 11),
                           AllocateFiles(*p->pool, specs, ParseLayoutPreset("shuffle:4"), 12)));
}

TEST(AllocatorTest, FilesThatDoNotFitAreAnInputError) {
  auto p = MakePool(kMirror);
  EXPECT_NE(ErrorOf([&] { AllocateFiles(*p->pool, {File(2000 * kGiB)}, ParseLayoutPreset("sequential"), 1); })
                .find("do not fit"),
            std::string::npos);
  EXPECT_NE(ErrorOf([&] { AllocateFiles(*p->pool, {File(600 * kGiB)}, ParseLayoutPreset("fragmented:50"), 1); })
                .find("do not fit"),
            std::string::npos);
  FileSpec bad = File(kMiB, 100 * kKiB);
  EXPECT_NE(ErrorOf([&] { AllocateFiles(*p->pool, {bad}, ParseLayoutPreset("sequential"), 1); }).find("recordsize"),
            std::string::npos);
}

// ---- zdb import ----

std::string FixturePath() { return std::string(ZIOSIM_CATALOG_DIR) + "/../../traces/zdb/sample-file.zdb"; }

TEST(ZdbImportTest, ReadsTheSampleDump) {
  auto p = MakePool(kTwoMirrors);
  const FileLayout fl = ImportZdbLayout(FixturePath(), *p->pool);
  EXPECT_EQ(fl.object(), 2u);
  EXPECT_EQ(fl.size_bytes(), 2600000);
  EXPECT_EQ(fl.block_bytes(), 128 * kKiB);
  EXPECT_EQ(fl.ptrs_per_indirect(), 1024);
  EXPECT_EQ(fl.blocks(), 20);
  const auto& e = fl.extents(0);
  ASSERT_EQ(e.size(), 5u);
  EXPECT_EQ(e[0].first, 0);
  EXPECT_EQ(e[0].count, 8);
  EXPECT_EQ(e[0].top, 0);
  EXPECT_EQ(e[0].offset, 0x400000);
  EXPECT_EQ(e[0].stride, 0x20000);
  EXPECT_EQ(e[1].count, 8);
  EXPECT_EQ(e[1].top, 1);
  EXPECT_TRUE(e[2].hole);
  EXPECT_EQ(e[2].first, 16);
  EXPECT_EQ(e[2].count, 2);
  EXPECT_EQ(e[3].psize, 0x9000);
  EXPECT_EQ(e[4].offset, 0x509000);
  const BlockPointer b9 = fl.Locate(0, 9);
  EXPECT_EQ(b9.top, 1);
  EXPECT_EQ(b9.offset, 0x420000);
  EXPECT_EQ(b9.psize, 0x20000);
  EXPECT_TRUE(fl.Locate(0, 17).hole);
  ASSERT_EQ(fl.extents(1).size(), 1u);
  const BlockPointer l1 = fl.Locate(1, 0);
  EXPECT_EQ(l1.top, 0);
  EXPECT_EQ(l1.offset, 0x529000);
  EXPECT_EQ(l1.psize, 0x1000);
  EXPECT_EQ(l1.top2, 1);
  EXPECT_EQ(l1.offset2, 0x500000);
}

std::string WriteTemp(const std::string& name, const std::string& text) {
  const std::string path = ::testing::TempDir() + name;
  std::ofstream(path) << text;
  return path;
}

TEST(ZdbImportTest, ErrorsNameFileLineAndField) {
  auto p = MakePool(kTwoMirrors);
  const std::string head =
      "    Object  lvl   iblk   dblk  dsize  lsize   %full  type\n"
      "         5    2    16K   128K   256K   256K  100.00  ZFS plain file\n"
      "Indirect blocks:\n"
      "               0 L1  0:40000:1000 20000L/1000P F=2 B=5/5 cksum=0\n";
  const std::string ok = head +
                         "               0  L0 0:0:20000 20000L/20000P F=1 B=5/5 cksum=0\n"
                         "           20000  L0 1:0:20000 20000L/20000P F=1 B=5/5 cksum=0\n";
  const FileLayout fl = ImportZdbLayout(WriteTemp("zdb_ok.txt", ok), *p->pool);
  EXPECT_EQ(fl.size_bytes(), 256 * kKiB);  // from the lsize column
  EXPECT_EQ(fl.ptrs_per_indirect(), 128);  // iblk 16K
  EXPECT_EQ(fl.extents(0).size(), 2u);

  const std::string p1 = WriteTemp("zdb_bad_vdev.txt", head + "               0  L0 7:0:20000 20000L/20000P F=1\n");
  std::string e = ErrorOf([&] { ImportZdbLayout(p1, *p->pool); });
  EXPECT_NE(e.find(p1 + ":5:"), std::string::npos) << e;
  EXPECT_NE(e.find("DVA 1: vdev 7"), std::string::npos) << e;

  const std::string p2 = WriteTemp("zdb_bad_dva.txt", head + "               0  L0 0:zz:20000 20000L/20000P F=1\n");
  e = ErrorOf([&] { ImportZdbLayout(p2, *p->pool); });
  EXPECT_NE(e.find(p2 + ":5: DVA"), std::string::npos) << e;

  const std::string p3 = WriteTemp("zdb_bad_size.txt", head + "               0  L0 0:0:20000 20000X F=1\n");
  e = ErrorOf([&] { ImportZdbLayout(p3, *p->pool); });
  EXPECT_NE(e.find(p3 + ":5: size"), std::string::npos) << e;

  const std::string p4 = WriteTemp("zdb_bad_offset.txt", head + "            1234  L0 0:0:20000 20000L/20000P F=1\n");
  e = ErrorOf([&] { ImportZdbLayout(p4, *p->pool); });
  EXPECT_NE(e.find(p4 + ":5: file offset"), std::string::npos) << e;

  const std::string p5 = WriteTemp("zdb_no_blocks.txt",
                                   "    Object  lvl   iblk   dblk  dsize  lsize   %full  type\n"
                                   "         5    1    16K   128K   128K   128K  100.00  ZFS plain file\n");
  e = ErrorOf([&] { ImportZdbLayout(p5, *p->pool); });
  EXPECT_NE(e.find("Indirect blocks"), std::string::npos) << e;
  EXPECT_NE(ErrorOf([&] { ImportZdbLayout("/nonexistent/zdb.txt", *p->pool); }).find("cannot open"),
            std::string::npos);
}

// A dRAID block starts on a stripe row (vdev_draid_get_astart): a DVA elsewhere
// is a dump of another layout, refused with its line.
TEST(ZdbImportTest, DraidBlocksMustStartOnStripeRows) {
  auto p = MakePool("draid1:4d:5c:0s 5xwd-re4-1tb");  // stripe rows of 5 x 4 KiB = 0x5000
  const std::string head =
      "    Object  lvl   iblk   dblk  dsize  lsize   %full  type\n"
      "         5    1    16K   128K   128K   128K  100.00  ZFS plain file\n"
      "Indirect blocks:\n";
  const FileLayout fl =
      ImportZdbLayout(WriteTemp("zdb_draid_ok.txt", head + "               0  L0 0:a000:28000 20000L/20000P F=1\n"),
                      *p->pool);
  EXPECT_EQ(fl.extents(0).size(), 1u);
  const std::string bad = WriteTemp("zdb_draid_bad.txt", head + "               0  L0 0:8000:28000 20000L/20000P F=1\n");
  const std::string e = ErrorOf([&] { ImportZdbLayout(bad, *p->pool); });
  EXPECT_NE(e.find(bad + ":4: DVA 1: offset 0x8000 does not start a stripe row"), std::string::npos) << e;
}

}  // namespace
}  // namespace ziosim
