// dRAID permutation maps and geometry: the maps against OpenZFS's own
// generator (libzpool, when installed), the layout against the worked example
// of vdev_draid.c's header comment and hand-derived cases, and the invariant
// that makes dRAID a layout at all: within a slice every (child, row) of the
// non-spare space belongs to exactly one group column, and the spares use the rest.
#include <dlfcn.h>
#include <gtest/gtest.h>

#include <cstdlib>
#include <cstring>
#include <map>
#include <set>
#include <stdexcept>
#include <utility>
#include <vector>

#include "sim/core/bytes.h"
#include "sim/core/status.h"
#include "sim/zfs/vdev/draid_layout.h"
#include "sim/zfs/vdev/draid_map.h"

namespace ziosim {
namespace {

constexpr int64_t kRow = kDraidRowHeightBytes;

TEST(DraidMap, EveryChildCountHasAVerifiedMap) {
  for (int children = kDraidMinChildren; children <= kDraidMaxChildren; ++children) {
    const DraidMapSeed* seed = FindDraidMapSeed(children);
    ASSERT_NE(seed, nullptr) << children;
    EXPECT_EQ(seed->children, children);
    // DraidPermutations verifies each row and the checksum (throws otherwise).
    const std::vector<uint8_t> perms = DraidPermutations(*seed);
    EXPECT_EQ(perms.size(), static_cast<size_t>(children * seed->nperms));
  }
  EXPECT_EQ(FindDraidMapSeed(1), nullptr);
  EXPECT_EQ(FindDraidMapSeed(256), nullptr);
}

TEST(DraidMap, ACorruptedSeedFailsTheChecksum) {
  DraidMapSeed bad = *FindDraidMapSeed(12);
  bad.seed ^= 1;
  EXPECT_THROW(DraidPermutations(bad), InternalError);
}

TEST(DraidMap, Fletcher4FirstWordSumsWholeWords) {
  const uint8_t bytes[] = {1, 0, 0, 0, 2, 0, 0, 0, 0, 1, 0, 0, 9, 9};  // 1 + 2 + 256; the 2-byte tail is not summed
  EXPECT_EQ(Fletcher4FirstWord(bytes, sizeof(bytes)), 259u);
}

// OpenZFS's draid_map_t, as libzpool exports it.
struct RealDraidMap {
  uint64_t children, nperms, seed, checksum;
  uint8_t* perms;
};

TEST(DraidMap, SameBytesAsRealLibzpool) {
  void* lib = dlopen("libzpool.so.5", RTLD_NOW | RTLD_LOCAL);
  if (lib == nullptr) GTEST_SKIP() << "libzpool.so.5 (Debian's libzpool5linux, contrib) is not installed";
  using Lookup = int (*)(uint64_t, const RealDraidMap**);
  using Generate = int (*)(const RealDraidMap*, uint8_t**);
  auto lookup = reinterpret_cast<Lookup>(dlsym(lib, "vdev_draid_lookup_map"));
  auto generate = reinterpret_cast<Generate>(dlsym(lib, "vdev_draid_generate_perms"));
  ASSERT_NE(lookup, nullptr);
  ASSERT_NE(generate, nullptr);
  for (int children = kDraidMinChildren; children <= kDraidMaxChildren; ++children) {
    const RealDraidMap* real = nullptr;
    ASSERT_EQ(lookup(static_cast<uint64_t>(children), &real), 0) << children;
    const DraidMapSeed* ours = FindDraidMapSeed(children);
    EXPECT_EQ(real->nperms, static_cast<uint64_t>(ours->nperms));
    EXPECT_EQ(real->seed, ours->seed);
    EXPECT_EQ(real->checksum, ours->checksum);
    uint8_t* perms = nullptr;
    ASSERT_EQ(generate(real, &perms), 0) << children;
    const std::vector<uint8_t> mine = DraidPermutations(*ours);
    EXPECT_EQ(std::memcmp(perms, mine.data(), mine.size()), 0) << children << " children";
    std::free(perms);  // userspace vmem_alloc is malloc
  }
  dlclose(lib);
}

// ---- configuration: zpool create's defaults and refusals ----

TEST(DraidConfig, DefaultsAsZpoolCreateComputesThem) {
  const DraidConfig a = MakeDraidConfig(12, 1, 0, 0);  // `draid` over 12 disks
  EXPECT_EQ(a.data, 8);
  EXPECT_EQ(a.group_width(), 9);
  EXPECT_EQ(a.groups, 4);  // LCM(9, 12) = 36 = 4 groups
  EXPECT_EQ(a.Name(), "draid1:8d:12c:0s");
  const DraidConfig b = MakeDraidConfig(12, 2, 0, 1);  // draid2:1s: 11 disks
  EXPECT_EQ(b.data, 8);
  EXPECT_EQ(b.groups, 11);  // LCM(10, 11) = 110
  EXPECT_EQ(b.device_slice_bytes(), 10 * kRow);  // 110 rows of group space over 11 disks
  const DraidConfig c = MakeDraidConfig(5, 2, 0, 0);  // fewer than 8 data disks available
  EXPECT_EQ(c.data, 3);
  EXPECT_EQ(c.groups, 1);
}

TEST(DraidConfig, RefusesWhatZpoolRefuses) {
  EXPECT_THROW(MakeDraidConfig(12, 2, 11, 0), InputError);  // 11 + 2 > 12
  EXPECT_THROW(MakeDraidConfig(12, 2, 8, 3), InputError);   // spares need disks too
  EXPECT_THROW(MakeDraidConfig(3, 2, 0, 1), InputError);    // no disks left for data
  EXPECT_THROW(MakeDraidConfig(12, 4, 0, 0), InputError);
  EXPECT_THROW(MakeDraidConfig(256, 1, 0, 0), InputError);
  EXPECT_THROW(MakeDraidConfig(250, 1, 8, 101), InputError);  // at most 100 distributed spares
  EXPECT_NO_THROW(MakeDraidConfig(2, 1, 1, 0));               // the smallest dRAID: a 2-way mirror in effect
}

// ---- sizes ----

TEST(DraidGeometry, AsizeIsWholeStripeRows) {
  const DraidConfig c = MakeDraidConfig(14, 1, 8, 2);  // group width 9
  EXPECT_EQ(DraidAsize(c, 12, 4 * kKiB), 9 * 4 * kKiB);       // one sector of data, a full 9-sector stripe
  EXPECT_EQ(DraidAsize(c, 12, 32 * kKiB), 9 * 4 * kKiB);      // 8 data sectors: still one stripe row
  EXPECT_EQ(DraidAsize(c, 12, 32 * kKiB + 1), 18 * 4 * kKiB);
  EXPECT_EQ(DraidAsize(c, 12, 128 * kKiB), 4 * 9 * 4 * kKiB);  // 144 KiB
  EXPECT_EQ(DraidAsize(c, 9, 128 * kKiB), 32 * 9 * 512);
}

TEST(DraidGeometry, VdevAsizeKeepsTheReserveAndWholeGroups) {
  const DraidConfig c = MakeDraidConfig(14, 1, 8, 2);  // 12 disks, 144 MiB groups
  // 12 whole rows after the 32 MiB reserve, plus a 5 MiB tail that is lost.
  EXPECT_EQ(DraidVdevAsize(c, kDraidReflowReserveBytes + 12 * kRow + 5 * kMiB), 12 * kRow * 12);
  // 13 rows x 12 disks = 156 rows of space: 17 whole groups of 9 rows (153), 3 rows lost.
  EXPECT_EQ(DraidVdevAsize(c, kDraidReflowReserveBytes + 13 * kRow), 17 * 9 * kRow);
  EXPECT_EQ(DraidVdevAsize(c, kDraidReflowReserveBytes - 1), 0);
}

// ---- the worked example of vdev_draid.c: 14 children, 2 spares, 8d + 1p ----

TEST(DraidGeometry, GroupsWrapOverRowsAsTheOpenZfsDiagram) {
  const DraidLayout layout(MakeDraidConfig(14, 1, 8, 2));
  ASSERT_EQ(layout.config().groups, 4);
  // Group 1 starts at permutation position 9 of row 0: three columns there,
  // the other six at positions 0-5 of row 1 (one row height lower).
  const DraidBlockMap m = MapDraidBlock(layout, 12, 9 * kRow, 32 * kKiB);
  ASSERT_EQ(m.rows, 1);
  EXPECT_EQ(m.row[0].group_start, 9);
  EXPECT_EQ(m.row[0].wrap, 3);
  for (int i = 0; i < 9; ++i) {
    const RaidzColumn col = DraidColumnAt(layout, 12, m.row[0], i);
    EXPECT_EQ(col.child, layout.Child(0, (9 + i) % 12)) << i;
    EXPECT_EQ(col.offset, i < 3 ? 0 : kRow) << i;
    EXPECT_EQ(col.size, 4 * kKiB) << i;
    EXPECT_EQ(col.role, i == 0 ? 'P' : 'D') << i;
  }
  // Group 3 starts at position 3 of row 2; group 4 opens slice 1 (permutation 1) at row 3.
  const DraidBlockMap g3 = MapDraidBlock(layout, 12, 3 * 9 * kRow, 4 * kKiB);
  EXPECT_EQ(g3.row[0].group_start, 3);
  EXPECT_EQ(g3.row[0].physical_offset, 2 * kRow);
  const DraidBlockMap g4 = MapDraidBlock(layout, 12, 4 * 9 * kRow + 9 * 4 * kKiB, 4 * kKiB);
  EXPECT_EQ(g4.row[0].perm, 1);
  EXPECT_EQ(g4.row[0].group_start, 0);
  EXPECT_EQ(g4.row[0].physical_offset, 3 * kRow + 4 * kKiB);  // second stripe row of the group
  EXPECT_EQ(DraidColumnAt(layout, 12, g4.row[0], 0).child, layout.Child(1, 0));
}

TEST(DraidGeometry, ASmallBlockHasEmptyColumnsPaddingTheStripe) {
  const DraidLayout layout(MakeDraidConfig(14, 2, 8, 2));  // width 10
  const DraidBlockMap m = MapDraidBlock(layout, 12, 0, 12 * kKiB);  // 3 data sectors
  const DraidRow& r = m.row[0];
  EXPECT_EQ(r.q, 0);
  EXPECT_EQ(r.bc, 5);            // 2 parity + 3 data columns of one sector
  EXPECT_EQ(r.empty_sectors, 5);  // the other 5 columns: zero-filled sectors of the full stripe
  EXPECT_EQ(m.asize, 10 * 4 * kKiB);
  EXPECT_EQ(DraidStripeColumnBytes(r, 12), 4 * kKiB);
  for (int i = 0; i < 10; ++i) EXPECT_EQ(DraidColumnAt(layout, 12, r, i).size, i < 5 ? 4 * kKiB : 0) << i;
}

TEST(DraidGeometry, ABlockPastTheEndOfItsGroupTakesTwoRows) {
  const DraidLayout layout(MakeDraidConfig(14, 1, 8, 2));  // 9-row (144 MiB) groups
  const int64_t group_end = 9 * kRow;
  const int64_t offset = group_end - 2 * 9 * 4 * kKiB;  // two stripe rows before the end
  const DraidBlockMap m = MapDraidBlock(layout, 12, offset, 128 * kKiB);  // needs four
  ASSERT_EQ(m.rows, 2);
  EXPECT_EQ(m.row[0].psize, 64 * kKiB);
  EXPECT_EQ(m.row[1].offset, group_end);
  EXPECT_EQ(m.row[1].psize, 64 * kKiB);
  EXPECT_EQ(m.row[1].group_start, 9);
  EXPECT_EQ(m.asize, 144 * kKiB);
  // The first row's columns lie at the very bottom of group 0's row height.
  EXPECT_EQ(DraidColumnAt(layout, 12, m.row[0], 0).offset, kRow - 2 * 4 * kKiB);
}

TEST(DraidGeometry, RefusesUnalignedOffsets) {
  const DraidLayout layout(MakeDraidConfig(14, 1, 8, 2));
  EXPECT_THROW(MapDraidBlock(layout, 12, 4 * kKiB, 4 * kKiB), std::invalid_argument);
  EXPECT_THROW(MapDraidBlock(layout, 12, 0, 0), std::invalid_argument);
  EXPECT_THROW(MapDraidBlock(layout, 12, 0, 17 * kMiB), std::invalid_argument);
}

// Within each slice, the first stripe row of every group, together with the
// distributed spares, covers every (child, row of the slice) exactly once.
TEST(DraidGeometry, GroupsAndSparesTileEverySlice) {
  const std::pair<int, DraidConfig> cases[] = {
      {12, MakeDraidConfig(14, 1, 8, 2)}, {12, MakeDraidConfig(12, 2, 0, 1)}, {12, MakeDraidConfig(24, 2, 0, 2)},
      {9, MakeDraidConfig(7, 3, 2, 0)},   {12, MakeDraidConfig(2, 1, 1, 0)},  {12, MakeDraidConfig(255, 3, 17, 5)}};
  for (const auto& [ashift, config] : cases) {
    const DraidLayout layout(config);
    const int rows_per_slice = static_cast<int>(config.device_slice_bytes() / kRow);
    for (int64_t slice = 0; slice < 3; ++slice) {
      std::map<std::pair<int, int64_t>, int> owner;  // (child, child row) -> columns there
      const int64_t first_group = slice * config.groups;
      for (int64_t g = first_group; g < first_group + config.groups; ++g) {
        const DraidBlockMap m = MapDraidBlock(layout, ashift, g * config.group_bytes(), int64_t{config.data} << ashift);
        ASSERT_EQ(m.rows, 1);
        for (int i = 0; i < config.group_width(); ++i) {
          const RaidzColumn col = DraidColumnAt(layout, ashift, m.row[0], i);
          ASSERT_EQ(col.offset % kRow, 0);
          ++owner[{col.child, col.offset / kRow}];
        }
      }
      for (int s = 0; s < config.spares; ++s) {
        for (int r = 0; r < rows_per_slice; ++r) {
          const int64_t row = slice * rows_per_slice + r;
          ++owner[{layout.SpareChild(s, row * kRow), row}];
        }
      }
      ASSERT_EQ(owner.size(), static_cast<size_t>(config.children * rows_per_slice)) << config.Name();
      for (const auto& [where, n] : owner) {
        EXPECT_EQ(n, 1) << config.Name() << " child " << where.first << " row " << where.second;
        EXPECT_GE(where.second, slice * rows_per_slice);
        EXPECT_LT(where.second, (slice + 1) * rows_per_slice);
      }
    }
  }
}

}  // namespace
}  // namespace ziosim
