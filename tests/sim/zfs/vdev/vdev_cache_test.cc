// The vdev cache by the rules of vdev_cache.c (reference section 5.6): which
// reads it takes, hits, fills shared by concurrent reads, LRU eviction that
// spares lines still being filled, stale lines after a missed write, and what
// it does to a whole read path (metadata inflated to 64 KiB lines, data never).
#include "sim/zfs/vdev/vdev_cache.h"

#include <gtest/gtest.h>

#include "sim/core/bytes.h"
#include "sim/workload/readers.h"

namespace ziosim {
namespace {

constexpr int kBshift = 16;  // 64 KiB lines

Zio MetadataRead(int64_t offset, int64_t size) {
  Zio z;
  z.type = ZioType::kRead;
  z.offset = offset;
  z.size = size;
  z.metadata = true;
  return z;
}

struct Decision {
  VdevCache::Action action;
  int line = -1;
  int64_t fill_offset = -1;
};

Decision Read(VdevCache& c, Zio& z, SimTime now = 0) {
  Decision d;
  d.action = c.Read(&z, now, &d.line, &d.fill_offset);
  return d;
}

TEST(VdevCacheTest, TakesOnlySmallMetadataReadsInsideOneLine) {
  VdevCache c(10 << 20, 16 * kKiB, kBshift);
  Zio data = MetadataRead(0, 4 * kKiB);
  data.metadata = false;  // file data: ZIO_FLAG_DONT_CACHE
  EXPECT_EQ(Read(c, data).action, VdevCache::Action::kBypass);
  Zio big = MetadataRead(0, 16 * kKiB + 512);  // over zfs_vdev_cache_max
  EXPECT_EQ(Read(c, big).action, VdevCache::Action::kBypass);
  Zio straddle = MetadataRead(64 * kKiB - 4 * kKiB, 8 * kKiB);  // P2BOUNDARY
  EXPECT_EQ(Read(c, straddle).action, VdevCache::Action::kBypass);
  Zio write = MetadataRead(0, 4 * kKiB);
  write.type = ZioType::kWrite;
  EXPECT_EQ(Read(c, write).action, VdevCache::Action::kBypass);
  EXPECT_EQ(c.stats().misses, 0u);
  VdevCache off(0, 16 * kKiB, kBshift);
  Zio md = MetadataRead(0, 4 * kKiB);
  EXPECT_EQ(Read(off, md).action, VdevCache::Action::kBypass);
}

TEST(VdevCacheTest, MissFillsTheAlignedLineThenHits) {
  VdevCache c(10 << 20, 16 * kKiB, kBshift);
  Zio a = MetadataRead(5 * 64 * kKiB + 12 * kKiB, 16 * kKiB);
  const Decision miss = Read(c, a);
  ASSERT_EQ(miss.action, VdevCache::Action::kFill);
  EXPECT_EQ(miss.fill_offset, 5 * 64 * kKiB);
  // A second read of the same line while the fill is in flight waits for it.
  Zio b = MetadataRead(5 * 64 * kKiB, 4 * kKiB);
  const Decision join = Read(c, b);
  EXPECT_EQ(join.action, VdevCache::Action::kJoinFill);
  EXPECT_EQ(join.line, miss.line);
  // The fill hands back both waiters.
  Zio* w = c.FillDone(miss.line, 10);
  int waiters = 0;
  for (; w != nullptr; w = w->cache_next) ++waiters;
  EXPECT_EQ(waiters, 2);
  Zio again = MetadataRead(5 * 64 * kKiB + 32 * kKiB, 8 * kKiB);
  EXPECT_EQ(Read(c, again, 20).action, VdevCache::Action::kHit);
  EXPECT_EQ(c.stats().misses, 1u);
  EXPECT_EQ(c.stats().delegations, 1u);
  EXPECT_EQ(c.stats().hits, 1u);
}

// vdev_cache_allocate evicts only once lines x 64K exceed the size: a 256 KiB
// cache holds 5 lines, and the sixth evicts the least recently used.
TEST(VdevCacheTest, EvictsTheLeastRecentlyUsedLineOnceOverSize) {
  VdevCache c(256 * kKiB, 16 * kKiB, kBshift);
  for (int i = 0; i < 5; ++i) {
    Zio z = MetadataRead(i * 64 * kKiB, 4 * kKiB);
    const Decision d = Read(c, z, i);
    ASSERT_EQ(d.action, VdevCache::Action::kFill) << i;
    c.FillDone(d.line, i);
  }
  Zio touch = MetadataRead(0, 4 * kKiB);  // line 0 becomes the most recent
  EXPECT_EQ(Read(c, touch, 100).action, VdevCache::Action::kHit);
  Zio sixth = MetadataRead(9 * 64 * kKiB, 4 * kKiB);
  const Decision d = Read(c, sixth, 101);
  ASSERT_EQ(d.action, VdevCache::Action::kFill);
  c.FillDone(d.line, 101);
  Zio line0 = MetadataRead(0, 4 * kKiB);
  EXPECT_EQ(Read(c, line0, 102).action, VdevCache::Action::kHit);
  Zio line1 = MetadataRead(64 * kKiB, 4 * kKiB);  // the LRU one: gone
  EXPECT_EQ(Read(c, line1, 103).action, VdevCache::Action::kFill);
}

TEST(VdevCacheTest, BypassesWhenTheOldestLineIsStillFilling) {
  VdevCache c(64 * kKiB, 16 * kKiB, kBshift);  // two lines at most
  Zio a = MetadataRead(0, 4 * kKiB);
  Zio b = MetadataRead(64 * kKiB, 4 * kKiB);
  ASSERT_EQ(Read(c, a, 1).action, VdevCache::Action::kFill);
  ASSERT_EQ(Read(c, b, 2).action, VdevCache::Action::kFill);
  Zio z = MetadataRead(2 * 64 * kKiB, 4 * kKiB);
  EXPECT_EQ(Read(c, z, 3).action, VdevCache::Action::kBypass);
  EXPECT_EQ(c.stats().bypassed, 1u);
}

TEST(VdevCacheTest, WriteDuringFillMakesTheLineStale) {
  VdevCache c(10 << 20, 16 * kKiB, kBshift);
  Zio a = MetadataRead(0, 4 * kKiB);
  const Decision d = Read(c, a);
  ASSERT_EQ(d.action, VdevCache::Action::kFill);
  c.Write(60 * kKiB, 8 * kKiB);  // overlaps line 0
  Zio b = MetadataRead(8 * kKiB, 4 * kKiB);
  EXPECT_EQ(Read(c, b).action, VdevCache::Action::kBypass);  // ESTALE
  EXPECT_NE(c.FillDone(d.line, 5), nullptr);                 // the waiter still gets its data
  Zio again = MetadataRead(0, 4 * kKiB);
  EXPECT_EQ(Read(c, again, 6).action, VdevCache::Action::kFill);  // the stale line was evicted
}

// Whole read path: with the b134 profile every L1 indirect read becomes one
// 64 KiB-aligned 64 KiB leaf read and file data is never inflated; without the
// cache no leaf read is 64 KiB.
TEST(VdevCacheTest, Onnv134InflatesIndirectReadsOnly) {
  ReadersOptions o;
  o.pool = "mirror 2xfixed:latency=1ms,bandwidth=150MB/s,capacity=4G";
  o.profile = "onnv-134";
  o.readers = {1};
  o.file_size = 64 << 20;
  o.bs = 128 << 10;
  o.recordsize = 128 << 10;
  const ReadersRun on = RunReaders(o)[0];
  uint64_t misses = 0;
  uint64_t served = 0;
  for (const DiskReport& d : on.disks) {
    misses += d.vdev_cache_misses;
    served += d.vdev_cache_misses + d.vdev_cache_hits + d.vdev_cache_delegations;
  }
  // 512 records / 128 pointers per 16K L1: 4 L1 blocks, each read once, all through the cache.
  EXPECT_EQ(on.dmu.indirect_reads, 4u);
  EXPECT_EQ(served, on.dmu.indirect_reads);
  EXPECT_GT(misses, 0u);
  const int64_t data_bytes = o.file_size;
  EXPECT_EQ(on.disk_bytes_read, data_bytes + static_cast<int64_t>(misses) * 64 * kKiB);
  o.settings = {{"zfs_vdev_cache_size", "0"}};
  const ReadersRun off = RunReaders(o)[0];
  for (const DiskReport& d : off.disks) EXPECT_EQ(d.vdev_cache_misses, 0u);
  EXPECT_LT(off.disk_bytes_read, on.disk_bytes_read);
  EXPECT_EQ(off.dmu.indirect_reads, on.dmu.indirect_reads);
}

}  // namespace
}  // namespace ziosim
