#include "sim/zfs/arc.h"

#include <chrono>
#include <cstdio>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include <gtest/gtest.h>

#include "sim/core/bytes.h"

namespace ziosim {
namespace {

using Where = ArcLookupResult::Where;

// The tunables of a test: a 64 MiB ARC (the smallest allowed), no L2 write
// boost, plus `settings`.
Tunables MakeTunables(std::vector<std::pair<std::string, std::string>> settings = {}) {
  Tunables t;
  t.Set("zfs_arc_max", "64M", "test");
  t.Set("l2arc_write_boost", "0", "test");
  for (const auto& [name, value] : settings) t.Set(name, value, "test");
  return t;
}

Tunables L2Tunables(std::vector<std::pair<std::string, std::string>> more = {});

ArcKey Block(int64_t blkid, uint64_t object = 1) { return ArcKey{object, 0, blkid}; }

// A demand read of a block not in the ARC: miss, read, insert (1 MiB blocks unless told).
void Read(Arc& arc, int64_t blkid, SimTime now, int64_t lsize = kMiB, int64_t psize = kMiB) {
  const ArcLookupResult r = arc.Lookup(Block(blkid), false, now);
  if (r.where != Where::kArc) arc.Insert(Block(blkid), lsize, psize, false, false, now);
}

TEST(ArcTest, MissThenInsertThenHit) {
  Arc arc(MakeTunables(), 0);
  EXPECT_EQ(arc.Lookup(Block(5), false, 0).where, Where::kMiss);
  EXPECT_EQ(arc.StateOf(Block(5)), ArcState::kNone);
  arc.Insert(Block(5), 128 * kKiB, 128 * kKiB, false, false, 0);
  EXPECT_EQ(arc.StateOf(Block(5)), ArcState::kMru);
  EXPECT_EQ(arc.Lookup(Block(5), false, kNsPerSec).where, Where::kArc);
  EXPECT_EQ(arc.Lookup(Block(6), false, kNsPerSec).where, Where::kMiss);
  // The same blkid of another object or level is another block.
  EXPECT_EQ(arc.Lookup(Block(5, 2), false, kNsPerSec).where, Where::kMiss);
  EXPECT_EQ(arc.Lookup(ArcKey{1, 1, 5}, false, kNsPerSec).where, Where::kMiss);
  const ArcStats& s = arc.stats();
  EXPECT_EQ(s.hits, 1u);
  EXPECT_EQ(s.misses, 4u);
  EXPECT_EQ(s.l2_hits + s.l2_misses, 0u);  // no cache device
  EXPECT_EQ(s.size_bytes, 128 * kKiB);
}

TEST(ArcTest, InsertBeyondArcMaxEvictsTheLeastRecentlyUsed) {
  Arc arc(MakeTunables({{"zfs_compressed_arc_enabled", "false"}}), 0);
  for (int i = 0; i < 64; ++i) Read(arc, i, i);
  EXPECT_EQ(arc.stats().size_bytes, 64 * kMiB);
  EXPECT_EQ(arc.stats().evictions, 0u);
  Read(arc, 64, 64);
  EXPECT_EQ(arc.stats().evictions, 1u);
  EXPECT_EQ(arc.stats().size_bytes, 64 * kMiB);
  EXPECT_EQ(arc.StateOf(Block(0)), ArcState::kNone);  // MRU ghost may hold only c - MRU: none here
  EXPECT_EQ(arc.StateOf(Block(1)), ArcState::kMru);
  EXPECT_EQ(arc.Lookup(Block(0), false, 65).where, Where::kMiss);
  EXPECT_EQ(arc.Lookup(Block(1), false, 65).where, Where::kArc);
}

TEST(ArcTest, FrequentlyUsedBlockSurvivesAScanOfOnceUsedBlocks) {
  Arc arc(MakeTunables({{"zfs_compressed_arc_enabled", "false"}}), 0);
  Read(arc, 1000, 0);  // hot: used twice, a second apart -> MFU
  Read(arc, 1000, kNsPerSec);
  Read(arc, 2000, 0);  // cold: used once
  EXPECT_EQ(arc.StateOf(Block(1000)), ArcState::kMfu);
  EXPECT_EQ(arc.StateOf(Block(2000)), ArcState::kMru);
  for (int i = 0; i < 1000; ++i) Read(arc, i, 2 * kNsPerSec + i);  // a scan 15x the ARC
  EXPECT_EQ(arc.Lookup(Block(1000), false, 3 * kNsPerSec).where, Where::kArc);
  EXPECT_EQ(arc.Lookup(Block(2000), false, 3 * kNsPerSec).where, Where::kMiss);
  EXPECT_LE(arc.stats().size_bytes, 64 * kMiB);
}

TEST(ArcTest, GhostHitsMoveTheMruTarget) {
  Arc arc(MakeTunables({{"zfs_compressed_arc_enabled", "false"}}), 0);
  EXPECT_EQ(arc.stats().mru_target_bytes, 32 * kMiB);  // p starts at c / 2
  for (int i = 0; i < 32; ++i) Read(arc, 1000 + i, 0);  // 32 MiB of MFU
  for (int i = 0; i < 32; ++i) Read(arc, 1000 + i, kNsPerSec);
  EXPECT_EQ(arc.stats().mfu_bytes, 32 * kMiB);
  // 50 once-used blocks: the first 32 fill the ARC; then MRU is not above p, so
  // block 1000 leaves MFU (-> MFU ghost), and after that MRU gives up its tail.
  for (int i = 0; i < 50; ++i) Read(arc, i, 2 * kNsPerSec + i);
  EXPECT_EQ(arc.StateOf(Block(1000)), ArcState::kMfuGhost);
  EXPECT_EQ(arc.StateOf(Block(0)), ArcState::kMruGhost);
  EXPECT_EQ(arc.stats().mfu_ghost_bytes, 1 * kMiB);
  EXPECT_EQ(arc.stats().mru_ghost_bytes, 17 * kMiB);

  // An MRU ghost hit grows p by the block (mult 1: MRU ghost >= MFU ghost) and goes to MFU.
  EXPECT_EQ(arc.Lookup(Block(0), false, 3 * kNsPerSec).where, Where::kMiss);
  arc.Insert(Block(0), kMiB, kMiB, false, false, 3 * kNsPerSec);
  EXPECT_EQ(arc.stats().mru_ghost_hits, 1u);
  EXPECT_EQ(arc.stats().mru_target_bytes, 33 * kMiB);
  EXPECT_EQ(arc.StateOf(Block(0)), ArcState::kMfu);

  // An MFU ghost hit shrinks p by the block times MRU ghost / MFU ghost (making
  // room for block 0 sent block 1001 to the MFU ghost too: 16 MiB / 2 MiB).
  EXPECT_EQ(arc.stats().mru_ghost_bytes, 16 * kMiB);
  EXPECT_EQ(arc.stats().mfu_ghost_bytes, 2 * kMiB);
  arc.Insert(Block(1000), kMiB, kMiB, false, false, 4 * kNsPerSec);
  EXPECT_EQ(arc.stats().mfu_ghost_hits, 1u);
  EXPECT_EQ(arc.stats().mru_target_bytes, 25 * kMiB);
  EXPECT_EQ(arc.StateOf(Block(1000)), ArcState::kMfu);

  // p stays within [c/16, c - c/16].
  for (int round = 0; round < 200; ++round) {
    const int64_t b = 5000 + round;
    Read(arc, b, 5 * kNsPerSec + round);
  }
  EXPECT_GE(arc.stats().mru_target_bytes, 4 * kMiB);
  EXPECT_LE(arc.stats().mru_target_bytes, 60 * kMiB);
}

TEST(ArcTest, CompressedArcCountsPsizeOtherwiseLsize) {
  for (bool compressed : {true, false}) {
    Arc arc(MakeTunables({{"zfs_compressed_arc_enabled", compressed ? "true" : "false"}}), 0);
    arc.Insert(Block(1), 128 * kKiB, 32 * kKiB, false, false, 0);
    arc.Insert(ArcKey{1, 1, 0}, 16 * kKiB, 4 * kKiB, true, false, 0);
    const ArcStats& s = arc.stats();
    EXPECT_EQ(s.data_bytes, compressed ? 32 * kKiB : 128 * kKiB);
    EXPECT_EQ(s.metadata_bytes, compressed ? 4 * kKiB : 16 * kKiB);
    EXPECT_EQ(s.size_bytes, s.data_bytes + s.metadata_bytes);
    EXPECT_EQ(s.mru_bytes, s.size_bytes);
  }
  // 256 blocks of 1 MiB compressed 4:1 fit a 64 MiB compressed ARC.
  Arc arc(MakeTunables(), 0);
  for (int i = 0; i < 256; ++i) Read(arc, i, i, kMiB, 256 * kKiB);
  EXPECT_EQ(arc.stats().evictions, 0u);
  EXPECT_EQ(arc.stats().size_bytes, 64 * kMiB);
  Read(arc, 256, 256, kMiB, 256 * kKiB);
  EXPECT_EQ(arc.stats().evictions, 1u);
}

TEST(ArcTest, DecompressionOncePerDbufCacheResidency) {
  // dbuf cache: 64 MiB / 32 = 2 MiB, two 1 MiB blocks.
  Arc arc(MakeTunables(), 0);
  const int64_t ps = 256 * kKiB;
  SimTime t = 0;
  arc.Insert(Block(0), kMiB, ps, false, false, t);  // read from disk: decompressed by the read
  arc.Release(Block(0), true);
  EXPECT_EQ(arc.stats().dbuf_bytes, kMiB);
  for (int i = 0; i < 5; ++i) {  // repeated small reads of the block: no decompression
    const ArcLookupResult r = arc.Lookup(Block(0), false, t += kNsPerMs);
    EXPECT_EQ(r.where, Where::kArc);
    EXPECT_FALSE(r.needs_decompress);
    arc.Release(Block(0), true);
  }
  EXPECT_EQ(arc.stats().decompressions, 0u);
  // Two more blocks push block 0 out of the dbuf cache (LRU), not out of the ARC.
  for (int b = 1; b <= 2; ++b) {
    arc.Insert(Block(b), kMiB, ps, false, false, t += kNsPerMs);
    arc.Release(Block(b), true);
  }
  EXPECT_EQ(arc.stats().dbuf_bytes, 2 * kMiB);
  ArcLookupResult r = arc.Lookup(Block(0), false, t += kNsPerMs);
  EXPECT_EQ(r.where, Where::kArc);
  EXPECT_TRUE(r.needs_decompress);
  EXPECT_EQ(arc.stats().decompressions, 1u);
  // A second reader holding it at the same time shares the decompressed copy.
  EXPECT_FALSE(arc.Lookup(Block(0), false, t += kNsPerMs).needs_decompress);
  arc.Release(Block(0), true);
  EXPECT_FALSE(arc.Lookup(Block(0), false, t += kNsPerMs).needs_decompress);
  arc.Release(Block(0), true);
  EXPECT_EQ(arc.stats().decompressions, 1u);

  // A prefetched block sits compressed until its first demand use.
  arc.Insert(Block(9), kMiB, ps, false, true, t += kNsPerMs);
  EXPECT_TRUE(arc.Lookup(Block(9), false, t += kNsPerMs).needs_decompress);
  arc.Release(Block(9), true);
  // A block stored uncompressed (psize == lsize) needs none.
  arc.Insert(Block(10), kMiB, kMiB, false, true, t += kNsPerMs);
  EXPECT_FALSE(arc.Lookup(Block(10), false, t += kNsPerMs).needs_decompress);
  EXPECT_EQ(arc.stats().decompressions, 2u);
}

TEST(ArcTest, DbufCacheSizeFollowsTheTunable) {
  Arc arc(MakeTunables({{"dbuf_cache_max_bytes", "3M"}}), 0);
  for (int b = 0; b < 3; ++b) {
    arc.Insert(Block(b), kMiB, kMiB / 4, false, false, b);
    arc.Release(Block(b), true);
  }
  EXPECT_EQ(arc.stats().dbuf_bytes, 3 * kMiB);
  for (int b = 0; b < 3; ++b) EXPECT_FALSE(arc.Lookup(Block(b), false, 10).needs_decompress);
}

TEST(ArcTest, NoDecompressionWithoutCompressedArc) {
  Arc arc(MakeTunables({{"zfs_compressed_arc_enabled", "false"}}), 0);
  for (int b = 0; b < 8; ++b) {
    arc.Insert(Block(b), kMiB, kMiB / 4, false, b % 2 == 0, b);
    arc.Release(Block(b), true);
  }
  for (int b = 0; b < 8; ++b) EXPECT_FALSE(arc.Lookup(Block(b), false, kNsPerSec).needs_decompress);
  EXPECT_EQ(arc.stats().decompressions, 0u);
}

TEST(ArcTest, BlockInTheDbufCacheIsNotEvicted) {
  Arc arc(MakeTunables({{"zfs_compressed_arc_enabled", "false"}}), 0);
  arc.Insert(Block(0), kMiB, kMiB, false, false, 0);
  arc.Release(Block(0), true);
  for (int i = 1; i < 200; ++i) Read(arc, i, i);  // never released: not in the dbuf cache
  EXPECT_EQ(arc.StateOf(Block(0)), ArcState::kMru);
  EXPECT_EQ(arc.Lookup(Block(0), false, 1000).where, Where::kArc);
}

TEST(ArcTest, PrimarycacheReleaseDropsTheBlock) {
  Arc arc(MakeTunables(), 0);
  // A 1 MiB record read by 16 read calls of 64 KiB with primarycache=metadata:
  // every call misses and re-reads the whole record.
  for (int call = 0; call < 16; ++call) {
    EXPECT_EQ(arc.Lookup(Block(0), false, call).where, Where::kMiss);
    arc.Insert(Block(0), kMiB, kMiB / 2, false, false, call);
    arc.Release(Block(0), false);
    EXPECT_EQ(arc.StateOf(Block(0)), ArcState::kNone);
  }
  EXPECT_EQ(arc.stats().misses, 16u);
  EXPECT_EQ(arc.stats().dropped_on_release, 16u);
  EXPECT_EQ(arc.stats().size_bytes, 0);
  EXPECT_EQ(arc.stats().dbuf_bytes, 0);
  // With primarycache=all the record stays: one miss, then hits.
  Arc all(MakeTunables(), 0);
  for (int call = 0; call < 16; ++call) {
    if (all.Lookup(Block(0), false, call).where == Where::kMiss)
      all.Insert(Block(0), kMiB, kMiB / 2, false, false, call);
    all.Release(Block(0), true);
  }
  EXPECT_EQ(all.stats().misses, 1u);
  EXPECT_EQ(all.stats().hits, 15u);
}

TEST(ArcTest, PrefetchHitAccounting) {
  Arc arc(MakeTunables(), 0);
  arc.Insert(Block(0), kMiB, kMiB, false, true, 0);
  EXPECT_EQ(arc.StateOf(Block(0)), ArcState::kMru);
  // Another prefetch of it finds it and changes nothing.
  EXPECT_EQ(arc.Lookup(Block(0), true, kNsPerSec / 2).where, Where::kArc);
  EXPECT_EQ(arc.stats().prefetch_lookup_hits, 1u);
  EXPECT_EQ(arc.stats().hits, 0u);
  // First demand hit: a prefetch hit, stays in MRU.
  EXPECT_EQ(arc.Lookup(Block(0), false, kNsPerSec).where, Where::kArc);
  EXPECT_EQ(arc.stats().prefetch_hits, 1u);
  EXPECT_EQ(arc.stats().hits, 1u);
  EXPECT_EQ(arc.StateOf(Block(0)), ArcState::kMru);
  // Second demand hit: MFU.
  EXPECT_EQ(arc.Lookup(Block(0), false, 2 * kNsPerSec).where, Where::kArc);
  EXPECT_EQ(arc.stats().prefetch_hits, 1u);
  EXPECT_EQ(arc.StateOf(Block(0)), ArcState::kMfu);
  EXPECT_EQ(arc.Lookup(Block(1), true, 3 * kNsPerSec).where, Where::kMiss);
  EXPECT_EQ(arc.stats().prefetch_lookup_misses, 1u);
  EXPECT_EQ(arc.stats().misses, 0u);
}

TEST(ArcTest, ContainsCountsNothing) {
  Arc arc(L2Tunables(), 64 * kMiB);
  EXPECT_FALSE(arc.Contains(Block(0)));
  arc.Insert(Block(0), kMiB, kMiB, false, true, 0);
  EXPECT_TRUE(arc.Contains(Block(0)));
  EXPECT_EQ(arc.StateOf(Block(0)), ArcState::kMru);
  const ArcStats& s = arc.stats();
  EXPECT_EQ(s.hits + s.misses + s.prefetch_lookup_hits + s.prefetch_lookup_misses + s.prefetch_hits, 0u);
  arc.Release(Block(0), false);
  EXPECT_FALSE(arc.Contains(Block(0)));
}

TEST(ArcTest, DemandReadThatWaitedOnAPrefetchIsADemandUse) {
  // The DMU inserts the block as its (prefetch) read brought it in and releases
  // it for the demand reader that waited on that read.
  Arc arc(L2Tunables(), 64 * kMiB);
  for (int i = 0; i < 8; ++i) {
    arc.Insert(Block(i), kMiB, kMiB, false, true, i);
    arc.Release(Block(i), true);
  }
  // The 2 MiB dbuf cache keeps 6 and 7; 0..5 went back to the MRU list, in that order.
  for (int i = 8; i < 40; ++i) Read(arc, i, i);
  // Not a prefetch any more: the next demand hit is a plain hit, and the block may go to L2.
  EXPECT_EQ(arc.Lookup(Block(7), false, kNsPerSec).where, Where::kArc);
  EXPECT_EQ(arc.stats().prefetch_hits, 0u);
  EXPECT_EQ(arc.StateOf(Block(7)), ArcState::kMfu);
  EXPECT_EQ(arc.FeedL2(2 * kNsPerSec), 4 * kMiB);  // blocks 0..3, the eviction end
}

TEST(ArcTest, SecondAccessWithinArcMinTimeStaysInMru) {
  Arc arc(MakeTunables(), 0);
  arc.Insert(Block(0), kMiB, kMiB, false, false, 0);
  arc.Lookup(Block(0), false, 10 * kNsPerMs);
  arc.Lookup(Block(0), false, 50 * kNsPerMs);
  EXPECT_EQ(arc.StateOf(Block(0)), ArcState::kMru);  // 62 ms from the insert not yet passed
  arc.Lookup(Block(0), false, 100 * kNsPerMs);
  EXPECT_EQ(arc.StateOf(Block(0)), ArcState::kMfu);
}

// L2ARC: 4 MiB per pass, headroom 2 (x2 with compressed ARC: 16 MiB scanned).
Tunables L2Tunables(std::vector<std::pair<std::string, std::string>> more) {
  std::vector<std::pair<std::string, std::string>> s = {{"l2arc_write_max", "4M"}, {"l2arc_headroom", "2"}};
  for (auto& kv : more) s.push_back(kv);
  return MakeTunables(s);
}

TEST(ArcTest, L2FeedWritesAtMostWriteMaxFromTheEvictionEnd) {
  Arc arc(L2Tunables(), 64 * kMiB);
  for (int i = 0; i < 32; ++i) Read(arc, i, i);
  EXPECT_EQ(arc.FeedL2(kNsPerSec), 4 * kMiB);
  EXPECT_EQ(arc.FeedL2(2 * kNsPerSec), 4 * kMiB);
  EXPECT_EQ(arc.stats().l2_written_bytes, 8 * kMiB);
  EXPECT_EQ(arc.stats().l2_size_bytes, 8 * kMiB);
  // Evict blocks 0..9: the eight fed ones stay findable on the cache device.
  for (int i = 32; i < 74; ++i) Read(arc, i, 3 * kNsPerSec + i);
  for (int i = 0; i < 8; ++i) {
    EXPECT_EQ(arc.StateOf(Block(i)), ArcState::kL2Only) << i;
    const ArcLookupResult r = arc.Lookup(Block(i), false, 4 * kNsPerSec);
    EXPECT_EQ(r.where, Where::kL2) << i;
    EXPECT_EQ(r.l2_offset, i * kMiB) << i;  // the oldest first, sequentially from the hand
    EXPECT_EQ(r.l2_bytes, kMiB) << i;
  }
  EXPECT_EQ(arc.Lookup(Block(8), false, 4 * kNsPerSec).where, Where::kMiss);
  EXPECT_EQ(arc.Lookup(Block(10), false, 4 * kNsPerSec).where, Where::kArc);
  EXPECT_EQ(arc.stats().l2_hits, 8u);
  EXPECT_EQ(arc.stats().l2_misses, 74u + 1u);  // the first reads of 0..73, then block 8
}

TEST(ArcTest, L2EvictedBlockIsFoundAtItsOffsetAndComesBack) {
  Arc arc(L2Tunables(), 64 * kMiB);
  const int64_t ps = 100000;  // 196 sectors of 512 B and a bit
  for (int i = 0; i < 8; ++i) Read(arc, i, i, 128 * kKiB, ps);
  EXPECT_EQ(arc.FeedL2(kNsPerSec), 8 * 100352);
  // Push block 3 out: the ARC holds 64 MiB of psize.
  for (int i = 100; i < 100 + 64; ++i) Read(arc, i, 2 * kNsPerSec + i);
  ArcLookupResult r = arc.Lookup(Block(3), false, 3 * kNsPerSec);
  ASSERT_EQ(r.where, Where::kL2);
  EXPECT_EQ(r.l2_offset, 3 * 100352);
  EXPECT_EQ(r.l2_bytes, 100352);
  // A prefetch is not served from the L2ARC with l2arc_noprefetch.
  EXPECT_EQ(arc.Lookup(Block(3), true, 3 * kNsPerSec).where, Where::kMiss);
  // The block read back from the cache device is in the ARC again (and still on L2).
  arc.Insert(Block(3), 128 * kKiB, ps, false, false, 3 * kNsPerSec);
  EXPECT_EQ(arc.Lookup(Block(3), false, 4 * kNsPerSec).where, Where::kArc);
  EXPECT_EQ(arc.stats().l2_size_bytes, 8 * 100352);

  // Without l2arc_noprefetch a prefetch is served from there too.
  Arc pf(L2Tunables({{"l2arc_noprefetch", "false"}}), 64 * kMiB);
  for (int i = 0; i < 8; ++i) Read(pf, i, i);
  pf.FeedL2(kNsPerSec);
  for (int i = 100; i < 164; ++i) Read(pf, i, 2 * kNsPerSec + i);
  EXPECT_EQ(pf.Lookup(Block(0), true, 3 * kNsPerSec).where, Where::kL2);
}

TEST(ArcTest, L2FeedSkipsPrefetchedBlocksWithNoprefetch) {
  for (bool noprefetch : {true, false}) {
    Arc arc(L2Tunables({{"l2arc_noprefetch", noprefetch ? "true" : "false"}}), 64 * kMiB);
    for (int i = 0; i < 10; ++i) arc.Insert(Block(i), kMiB, kMiB, false, true, i);
    for (int i = 10; i < 32; ++i) Read(arc, i, i);
    EXPECT_EQ(arc.FeedL2(kNsPerSec), 4 * kMiB);
    for (int i = 32; i < 78; ++i) Read(arc, i, 2 * kNsPerSec + i);  // evicts 0..13
    for (int i = 0; i < 14; ++i) {
      const bool written = noprefetch ? i >= 10 : i < 4;
      EXPECT_EQ(arc.Lookup(Block(i), false, 3 * kNsPerSec).where, written ? Where::kL2 : Where::kMiss)
          << "noprefetch " << noprefetch << " block " << i;
    }
  }
}

TEST(ArcTest, L2FeedScansOnlyHeadroomFromTheEvictionEnd) {
  Arc arc(L2Tunables(), 64 * kMiB);
  // 16 MiB of prefetched blocks at the eviction end: the pass searches that far and stops.
  for (int i = 0; i < 16; ++i) arc.Insert(Block(i), kMiB, kMiB, false, true, i);
  for (int i = 16; i < 32; ++i) Read(arc, i, i);
  EXPECT_EQ(arc.FeedL2(kNsPerSec), 0);
  // A demand use of a prefetched block makes it eligible (arc_read carries L2CACHE).
  EXPECT_EQ(arc.Lookup(Block(0), false, 2 * kNsPerSec).where, Where::kArc);
  // Block 0 went to the MRU head, out of reach; blocks 1..16 are the eviction
  // end now, and 16, a demand-read block, is within the 16 MiB searched.
  EXPECT_EQ(arc.FeedL2(3 * kNsPerSec), kMiB);
  for (int i = 32; i < 81; ++i) Read(arc, i, 4 * kNsPerSec + i);  // evicts 1..16, not 0
  EXPECT_EQ(arc.Lookup(Block(16), false, 5 * kNsPerSec).where, Where::kL2);
  EXPECT_EQ(arc.Lookup(Block(0), false, 5 * kNsPerSec).where, Where::kArc);
}

TEST(ArcTest, L2WriteBoostWhileTheArcHasNeverBeenFull) {
  Arc arc(L2Tunables({{"l2arc_write_boost", "2M"}}), 64 * kMiB);
  for (int i = 0; i < 40; ++i) Read(arc, i, i);
  EXPECT_EQ(arc.FeedL2(kNsPerSec), 6 * kMiB);
  for (int i = 40; i < 80; ++i) Read(arc, i, i);  // the ARC fills
  EXPECT_EQ(arc.FeedL2(2 * kNsPerSec), 4 * kMiB);
}

TEST(ArcTest, L2RingWrapsAndDropsTheOldest) {
  Arc arc(L2Tunables(), 10 * kMiB);
  for (int i = 0; i < 32; ++i) Read(arc, i, i);
  EXPECT_EQ(arc.FeedL2(kNsPerSec), 4 * kMiB);      // blocks 0..3 at 0..3M
  EXPECT_EQ(arc.FeedL2(2 * kNsPerSec), 4 * kMiB);  // blocks 4..7 at 4..7M
  for (int i = 32; i < 68; ++i) Read(arc, i, 3 * kNsPerSec + i);  // 0..3 leave the ARC
  EXPECT_EQ(arc.StateOf(Block(0)), ArcState::kL2Only);
  // 8M + 4M does not fit in 10M: the hand wraps and overwrites 0..3M.
  EXPECT_EQ(arc.FeedL2(4 * kNsPerSec), 4 * kMiB);  // blocks 8..11 at 0..3M
  EXPECT_EQ(arc.stats().l2_overwritten, 4u);
  for (int i = 0; i < 4; ++i) {
    EXPECT_EQ(arc.StateOf(Block(i)), ArcState::kNone);
    EXPECT_EQ(arc.Lookup(Block(i), false, 5 * kNsPerSec).where, Where::kMiss);
  }
  for (int i = 68; i < 76; ++i) Read(arc, i, 6 * kNsPerSec + i);  // 4..11 leave the ARC
  for (int i = 4; i < 12; ++i) {
    const ArcLookupResult r = arc.Lookup(Block(i), false, 7 * kNsPerSec);
    ASSERT_EQ(r.where, Where::kL2) << i;
    EXPECT_EQ(r.l2_offset, i < 8 ? i * kMiB : (i - 8) * kMiB) << i;
  }
  EXPECT_EQ(arc.stats().l2_size_bytes, 8 * kMiB);
}

TEST(ArcTest, L2FeedInterval) {
  Arc none(L2Tunables(), 0);
  EXPECT_EQ(none.FeedL2(0), 0);
  Arc arc(L2Tunables(), 64 * kMiB);
  EXPECT_EQ(arc.NextL2FeedTime(), 0);
  for (int i = 0; i < 32; ++i) Read(arc, i, i);
  arc.FeedL2(kNsPerSec);  // wrote its whole target: again soon
  EXPECT_EQ(arc.NextL2FeedTime(), kNsPerSec + 200 * kNsPerMs);
  Arc idle(L2Tunables({{"l2arc_feed_secs", "3"}}), 64 * kMiB);
  idle.FeedL2(kNsPerSec);  // nothing to write
  EXPECT_EQ(idle.NextL2FeedTime(), 4 * kNsPerSec);
}

// A random mix of demand and prefetch reads, releases and feed passes.
std::vector<int64_t> RandomRun(uint64_t seed, ArcStats* stats) {
  Tunables t = L2Tunables({{"dbuf_cache_max_bytes", "4M"}});
  Arc arc(t, 32 * kMiB);
  std::mt19937_64 rng(seed);
  std::vector<int64_t> trace;
  SimTime now = 0;
  for (int op = 0; op < 200000; ++op) {
    now += static_cast<SimTime>(rng() % (5 * kNsPerMs));
    const int64_t blk = static_cast<int64_t>(rng() % 2000 < 1500 ? rng() % 60 : rng() % 5000);
    const bool prefetch = rng() % 4 == 0;
    const int64_t psize = static_cast<int64_t>(1 + rng() % 256) * 512;
    const ArcLookupResult r = arc.Lookup(Block(blk), prefetch, now);
    trace.push_back(static_cast<int64_t>(r.where) * 1000003 + r.l2_offset + r.needs_decompress);
    if (r.where != Where::kArc) arc.Insert(Block(blk), 128 * kKiB, psize, blk % 7 == 0, prefetch, now);
    if (!prefetch) arc.Release(Block(blk), rng() % 10 != 0);
    if (now >= arc.NextL2FeedTime()) trace.push_back(arc.FeedL2(now));
  }
  *stats = arc.stats();
  return trace;
}

TEST(ArcTest, Deterministic) {
  ArcStats a, b;
  EXPECT_EQ(RandomRun(42, &a), RandomRun(42, &b));
  EXPECT_EQ(a.hits, b.hits);
  EXPECT_EQ(a.misses, b.misses);
  EXPECT_EQ(a.l2_hits, b.l2_hits);
  EXPECT_EQ(a.evictions, b.evictions);
  EXPECT_EQ(a.decompressions, b.decompressions);
  EXPECT_EQ(a.size_bytes, b.size_bytes);
  EXPECT_EQ(a.l2_written_bytes, b.l2_written_bytes);
  EXPECT_EQ(a.mru_target_bytes, b.mru_target_bytes);
  // The run exercised everything.
  EXPECT_GT(a.hits, 0u);
  EXPECT_GT(a.evictions, 0u);
  EXPECT_GT(a.l2_hits, 0u);
  EXPECT_GT(a.l2_overwritten, 0u);
  EXPECT_GT(a.decompressions, 0u);
  EXPECT_GT(a.mru_ghost_hits + a.mfu_ghost_hits, 0u);
  EXPECT_GT(a.dropped_on_release, 0u);
  // Sizes add up and stay within bounds.
  EXPECT_EQ(a.size_bytes, a.mru_bytes + a.mfu_bytes);
  EXPECT_EQ(a.size_bytes, a.data_bytes + a.metadata_bytes);
  EXPECT_LE(a.size_bytes, 64 * kMiB);
  EXPECT_LE(a.dbuf_bytes, 4 * kMiB);
  EXPECT_LE(a.l2_size_bytes, 32 * kMiB);
  EXPECT_LE(a.mru_ghost_bytes + a.mfu_ghost_bytes, 64 * kMiB);
}

}  // namespace
}  // namespace ziosim
