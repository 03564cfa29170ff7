#include "models/device/hdd_cache.h"

#include <gtest/gtest.h>

#include <random>
#include <vector>

namespace ziosim {
namespace {

TEST(HddSegmentCacheTest, FindGivesTheFirstSegmentHoldingTheBlock) {
  HddSegmentCache c(3, 100, /*reserve_write_segment=*/false);
  c.Fill(1, 10, 20, /*is_write=*/false);
  c.Fill(2, 15, 30, /*is_write=*/false);
  EXPECT_EQ(c.Find(12), 1);
  EXPECT_EQ(c.Find(17), 1);  // both hold it: the first
  EXPECT_EQ(c.Find(25), 2);
  EXPECT_EQ(c.Find(30), -1);
  c.DropBefore(1, 18);
  EXPECT_EQ(c.Find(17), 2);
  EXPECT_EQ(c.Find(18), 1);
}

// DiskSim's "Allow read hits on write data" = 0: a read finds no segment a write filled
// last, even when that write left the same run a read had filled.
TEST(HddSegmentCacheTest, ReadsMayBeKeptFromWriteData) {
  for (const bool reads_hit_write_data : {true, false}) {
    HddSegmentCache c(2, 100, /*reserve_write_segment=*/false, reads_hit_write_data);
    c.Fill(0, 10, 20, /*is_write=*/true);
    EXPECT_EQ(c.Find(15), reads_hit_write_data ? 0 : -1);
    c.Fill(1, 10, 20, /*is_write=*/false);
    EXPECT_EQ(c.Find(15), reads_hit_write_data ? 0 : 1);
    const uint64_t seen = c.version();
    c.Fill(1, 10, 20, /*is_write=*/true);  // the same run, now write data
    EXPECT_EQ(c.FindAgain(15, reads_hit_write_data ? 0 : 1, seen), reads_hit_write_data ? 0 : -1);
  }
}

TEST(HddSegmentCacheTest, OnlyAChangedRunCountsAsAChange) {
  HddSegmentCache c(2, 100, false);
  const uint64_t v0 = c.version();
  c.Touch(0);
  c.set_dirty_until(0, 5);
  EXPECT_EQ(c.version(), v0);
  c.Fill(0, 0, 10, false);
  EXPECT_EQ(c.version(), v0 + 1);
  c.Extend(0, 10);  // nothing new
  c.DropBefore(0, 0);
  EXPECT_EQ(c.version(), v0 + 1);
  c.Extend(0, 11);
  EXPECT_EQ(c.version(), v0 + 2);
}

// Find, and FindAgain from any earlier answer, give the first segment holding
// the block, whatever changed in between: a few or many changes, the segment
// found changed or not, overlapping segments, segments shrinking below the
// others' ends, and more segments than the change log can tell apart.
TEST(HddSegmentCacheTest, FindAndFindAgainGiveTheFirstHolderAfterAnyChanges) {
  for (const bool reads_hit_write_data : {true, false})
  for (const int segments : {1, 4, 16, 64, 70}) {
    HddSegmentCache c(segments, 64, /*reserve_write_segment=*/false, reads_hit_write_data);
    std::mt19937_64 rng(static_cast<uint64_t>(segments));
    auto pick = [&](int64_t n) { return static_cast<int64_t>(rng() % static_cast<uint64_t>(n)); };
    struct Probe {
      int64_t lbn;
      int found;
      uint64_t seen;
    };
    std::vector<Probe> probes;
    for (int64_t lbn = 0; lbn < 400; lbn += 7) probes.push_back({lbn, -1, HddSegmentCache::kNever});
    for (int step = 0; step < 3000; ++step) {
      const int i = static_cast<int>(pick(segments));
      const int64_t at = pick(400);
      switch (pick(5)) {
        case 0: c.Fill(i, at, at + 1 + pick(80), /*is_write=*/pick(3) == 0); break;
        case 1: c.Extend(i, c.at(i).end + pick(20)); break;
        case 2: c.DropBefore(i, at); break;
        case 3: c.Empty(i); break;
        case 4: c.Invalidate(at, at + pick(40), static_cast<int>(pick(segments))); break;
      }
      // Some probes look every step, others now and then (many changes in between).
      for (size_t k = 0; k < probes.size(); ++k) {
        Probe& p = probes[k];
        if (k % 3 == 2 && step % 37 != 0) continue;
        int first = -1;  // the definition: the first segment whose run holds the LBN for a read
        for (int s = segments - 1; s >= 0; --s) {
          const bool serves = c.at(s).Contains(p.lbn) && (reads_hit_write_data || !c.at(s).holds_write);
          first = serves ? s : first;
        }
        const int again = c.FindAgain(p.lbn, p.found, p.seen);
        ASSERT_EQ(c.Find(p.lbn), first) << segments << " segments, step " << step << ", LBN " << p.lbn;
        ASSERT_EQ(again, first) << segments << " segments, step " << step << ", LBN " << p.lbn;
        p.found = again;
        p.seen = c.version();
      }
    }
  }
}

}  // namespace
}  // namespace ziosim
