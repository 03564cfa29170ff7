// The read path above the vdevs, end to end, by its mechanisms (reference
// sections 5-7): whole-record re-reads under primarycache=metadata, holes that
// cost CPU and no I/O, ARC hits that leave only CPU work, prefetch that keeps
// disks streaming, and determinism.
#include "sim/workload/readers.h"

#include <gtest/gtest.h>

#include "sim/core/status.h"

namespace ziosim {
namespace {

ReadersOptions Base() {
  ReadersOptions o;
  o.pool = "mirror 2xwd-re4-1tb";
  o.readers = {1};
  o.file_size = 64 << 20;
  o.bs = 1 << 20;
  o.recordsize = 128 << 10;
  return o;
}

double Amplification(const ReadersRun& r) {
  return static_cast<double>(r.disk_bytes_read) / static_cast<double>(r.app_bytes_read);
}

// 6.2: with primarycache=metadata each small read re-reads its whole record:
// disk bytes / app bytes = recordsize / readsize.
TEST(ReadersTest, PrimarycacheMetadataAmplifiesByRecordOverReadSize) {
  ReadersOptions o = Base();
  o.recordsize = 1 << 20;
  o.bs = 64 << 10;
  o.file_size = 16 << 20;
  o.primarycache = "metadata";
  const ReadersRun r = RunReaders(o)[0];
  EXPECT_NEAR(Amplification(r), 16.0, 0.2);
  o.primarycache = "all";
  EXPECT_NEAR(Amplification(RunReaders(o)[0]), 1.0, 0.05);
}

// 7: hole reads zero a whole record per block per call and touch no disk.
TEST(ReadersTest, HoleReadsCostCpuAndNoDiskIo) {
  ReadersOptions o = Base();
  o.sparse = true;
  o.bs = 4 << 10;
  o.file_size = 8 << 20;
  const ReadersRun big = RunReaders(o)[0];
  EXPECT_EQ(big.disk_bytes_read, 0);
  for (const DiskReport& d : big.disks) EXPECT_EQ(d.reads, 0u);
  EXPECT_GT(big.cpu_busy_pct, 0.0);
  // A 4K recordsize zeroes 32x less per call: faster.
  o.recordsize = 4 << 10;
  const ReadersRun small = RunReaders(o)[0];
  EXPECT_GT(small.throughput_mb_s, 3 * big.throughput_mb_s);
}

// 7 with the allocation cost by size: a hole's anonymous record buffer above
// the page threshold costs each of its 4 KiB pages too. One reader runs its
// calls back to back, so the run lasts exactly that much more per hole block.
TEST(ReadersTest, PerPageAllocationSlowsHoleReadsByItsCost) {
  ReadersOptions o = Base();
  o.sparse = true;
  o.bs = 4 << 10;
  o.file_size = 4 << 20;
  const ReadersRun plain = RunReaders(o)[0];
  constexpr int64_t kPerPageNs = 250;
  o.settings = {{"ziosim_cpu_buffer_alloc_per_page_ns", std::to_string(kPerPageNs)},
                {"ziosim_cpu_alloc_page_threshold_bytes", "64K"}};
  const ReadersRun paged = RunReaders(o)[0];
  const int64_t pages_per_record = (128 << 10) / 4096;
  ASSERT_GT(paged.dmu.hole_blocks, 0u);
  EXPECT_EQ(paged.elapsed_ns - plain.elapsed_ns,
            static_cast<int64_t>(paged.dmu.hole_blocks) * pages_per_record * kPerPageNs);
  EXPECT_LT(paged.throughput_mb_s, plain.throughput_mb_s);
  // A record the allocator's caches serve (at or below the threshold) costs no page.
  o.settings[1].second = "128K";
  EXPECT_EQ(RunReaders(o)[0].elapsed_ns, plain.elapsed_ns);
}

// A re-read of a file the ARC holds is served from memory: no disk reads in
// the measured pass, and far faster than from disk.
TEST(ReadersTest, ArcHitMakesReReadCpuBound) {
  ReadersOptions o = Base();
  const ReadersRun cold = RunReaders(o)[0];
  o.warm = true;
  const ReadersRun warm = RunReaders(o)[0];
  EXPECT_EQ(warm.disk_bytes_read, 0);
  EXPECT_GT(warm.throughput_mb_s, 10 * cold.throughput_mb_s);
  EXPECT_GT(warm.cpu_busy_pct, cold.cpu_busy_pct);
}

// With prefetch a single reader streams near the disk's media rate; without
// it each 1 MiB call waits for its own blocks.
TEST(ReadersTest, PrefetchKeepsTheDiskStreaming) {
  ReadersOptions o = Base();
  const ReadersRun on = RunReaders(o)[0];
  o.settings = {{"zfs_prefetch_disable", "true"}};
  const ReadersRun off = RunReaders(o)[0];
  EXPECT_GT(on.throughput_mb_s, off.throughput_mb_s);
  EXPECT_GT(on.dmu.prefetch_reads, 0u);
  EXPECT_EQ(off.dmu.prefetch_reads, 0u);
}

TEST(ReadersTest, EveryByteReadOnce) {
  ReadersOptions o = Base();
  o.readers = {1, 3};
  for (const ReadersRun& r : RunReaders(o)) {
    EXPECT_EQ(r.app_bytes_read, r.readers * o.file_size);
    EXPECT_EQ(r.per_reader_mb_s.size(), static_cast<size_t>(r.readers));
  }
}

TEST(ReadersTest, SameSeedSameResult) {
  ReadersOptions o = Base();
  o.readers = {2};
  o.random = true;
  o.pool = "raidz2 5xhgst-nas-4tb";
  const ReadersRun a = RunReaders(o)[0], b = RunReaders(o)[0];
  EXPECT_EQ(a.elapsed_ns, b.elapsed_ns);
  EXPECT_EQ(a.disk_bytes_read, b.disk_bytes_read);
}

TEST(ReadersTest, BadOptionsAreInputErrors) {
  ReadersOptions o = Base();
  o.readers = {0};
  EXPECT_THROW(RunReaders(o), InputError);
  o = Base();
  o.recordsize = 3000;
  EXPECT_THROW(RunReaders(o), InputError);
  o = Base();
  o.primarycache = "some";
  EXPECT_THROW(RunReaders(o), InputError);
}

}  // namespace
}  // namespace ziosim

namespace ziosim {
namespace {

// A pool's drives spin unsynchronised, each from the angle its name and the run
// seed draw: the same seed gives the same run to the bit, another seed other
// angles and so other rotational waits (a two-disk mirror, one reader).
TEST(ReadersTest, ThePoolsSpindlePhasesComeFromTheSeed) {
  ReadersOptions o = Base();
  o.file_size = 16 << 20;
  const ReadersRun a = RunReaders(o)[0];
  const ReadersRun again = RunReaders(o)[0];
  EXPECT_EQ(a.elapsed_ns, again.elapsed_ns);
  o.seed = 2;
  EXPECT_NE(RunReaders(o)[0].elapsed_ns, a.elapsed_ns);
}

// 2.2 / 5.5: a demand read that finds its block's prefetch in flight waits for
// it; from ZoL 0.8 (a8b2e30685) that prefetch is promoted to sync_read.
TEST(ReadersTest, DemandReadsPromoteWaitedOnPrefetchFromZol08) {
  ReadersOptions o = Base();
  o.pool = "raidz2 5xhgst-nas-4tb";
  o.recordsize = 1 << 20;
  o.file_size = 256 << 20;
  o.profile = "zol-0.8";
  const ReadersRun modern = RunReaders(o)[0];
  EXPECT_GT(modern.dmu.waited_on_inflight, 0u);
  EXPECT_EQ(modern.dmu.promoted, modern.dmu.waited_on_inflight);
  o.profile = "freebsd-11";
  const ReadersRun old = RunReaders(o)[0];
  EXPECT_GT(old.dmu.waited_on_inflight, 0u);
  EXPECT_EQ(old.dmu.promoted, 0u);
}

}  // namespace
}  // namespace ziosim

namespace ziosim {
namespace {

// dd skip= count=: a reader reads only its range, and a range past the end is refused.
TEST(ReadersRangeTest, ReadsOnlyTheRange) {
  ReadersOptions o = Base();
  o.read_offset = 4 << 20;
  o.read_length = 8 << 20;
  const ReadersRun r = RunReaders(o)[0];
  EXPECT_EQ(r.app_bytes_read, 8 << 20);
  o.read_length = o.file_size;
  EXPECT_THROW(RunReaders(o), InputError);
  o.read_length = 0;
  o.read_offset = o.file_size;
  EXPECT_THROW(RunReaders(o), InputError);
}

// Prefetch run-ahead past a partial read is the prefetcher's, not the device's:
// the old zfetch (cap doubling to 256 blocks) and the 2015 one (8 MiB
// zfetch_max_distance, OpenZFS 2.1.0 - 2.1.5) issue the same blocks on a 4 ms disk and on a 20 us one.
// Only 2.2's distance adapts, and only upwards: a reader that catches up with
// its prefetch (late prefetches) grows it past zfetch_min_distance.
TEST(ReadersRangeTest, RunAheadPastAPartialReadDoesNotDependOnTheDevice) {
  ReadersOptions o = Base();
  o.file_size = 512 << 20;
  o.read_length = 16 << 20;
  o.bs = 128 << 10;
  const auto prefetched = [&](const std::string& profile, const std::string& device) {
    o.profile = profile;
    o.pool = "mirror 2x" + device;
    return RunReaders(o)[0].dmu.prefetch_reads;
  };
  const std::string slow = "fixed:latency=4ms,bandwidth=150MB/s,capacity=4G";
  const std::string fast = "fixed:latency=20us,bandwidth=3000MB/s,capacity=4G,rotational=no";
  const uint64_t old_slow = prefetched("onnv-134", slow);
  EXPECT_EQ(prefetched("onnv-134", fast), old_slow);
  // 128 accesses: the stream keeps 257-512 blocks ahead (reference 5.1).
  EXPECT_GE(old_slow, 128u + 257u);
  EXPECT_LE(old_slow, 128u + 512u);
  const uint64_t rewrite = prefetched("openzfs-2.1.0", slow);
  EXPECT_EQ(prefetched("openzfs-2.1.0", fast), rewrite);
  // The stream starts at block 1 (block 0 is ignored) and hits from block 2,
  // so blocks 3 .. 191 are prefetched: up to 8 MiB (64 records) past block 127.
  EXPECT_EQ(rewrite, (128u + 64u) - 3u);
  EXPECT_GE(prefetched("openzfs-2.2", fast) * (128 << 10), uint64_t{16 + 4} << 20);
}

}  // namespace
}  // namespace ziosim
