// `dd`-like writers end to end: the throttle engages only when writers outrun
// the disks, dirty data stays under its limit, the disks write data + parity
// + metadata of the bytes written, layouts read back, runs are deterministic.
#include "sim/workload/writers.h"

#include <gtest/gtest.h>

#include "sim/zfs/vdev/raidz_map.h"
#include "sim/core/status.h"

namespace ziosim {
namespace {

WritersOptions Base() {
  WritersOptions o;
  o.pool = "raidz2 5xwd-re4-1tb";
  o.writers = {1};
  o.file_size = 256 << 20;
  o.bs = 1 << 20;
  o.recordsize = 128 << 10;
  return o;
}

// Writers far faster than the disks fill dirty data up to the delay zone and
// are throttled; dirty data never exceeds zfs_dirty_data_max by more than one
// write per writer. Writers whose data fits well under the delay threshold
// are never delayed.
TEST(WritersTest, ThrottleEngagesOnlyWhenWritersOutrunTheDisks) {
  WritersOptions o = Base();
  o.writers = {1, 4};
  o.settings = {{"zfs_dirty_data_max", "64M"}};
  for (const WritersRun& r : RunWriters(o)) {
    EXPECT_GT(r.throttle_pct, 10.0) << r.writers << " writers";
    EXPECT_GT(r.dmu.delayed_calls, 0u);
    EXPECT_EQ(r.dirty_max_bytes, 64 << 20);
    EXPECT_LE(r.max_dirty_bytes, r.dirty_max_bytes + r.writers * o.bs);
    EXPECT_GT(r.max_dirty_bytes, r.dirty_max_bytes / 100 * 60);
  }
  o.writers = {1};
  o.file_size = 16 << 20;  // 16 MiB against a 819 MiB dirty max: no delay
  o.settings.clear();
  const WritersRun small = RunWriters(o)[0];
  EXPECT_EQ(small.throttle_pct, 0.0);
  EXPECT_EQ(small.dmu.delayed_calls, 0u);
  // Nothing reached the disks before the writer returned: it ran at memory speed.
  EXPECT_GT(small.throughput_mb_s, 1000.0);
  EXPECT_GT(small.final_sync_ns, 0);
}

// The disks write the data, its RAID-Z2 parity, indirect blocks and labels:
// for 128K records on 5 disks (no skip sectors at ashift 12), exactly the
// allocated size of the data plus the metadata.
TEST(WritersTest, DisksWriteDataParityAndMetadata) {
  const WritersRun r = RunWriters(Base())[0];
  const int64_t blocks = (256 << 20) / (128 << 10);
  EXPECT_EQ(r.txg.data_blocks, blocks);
  EXPECT_EQ(r.txg.data_asize_bytes, blocks * RaidzAsize(5, 2, 12, 128 << 10));
  EXPECT_EQ(r.disk_bytes_written, r.txg.data_asize_bytes + r.txg.indirect_asize_bytes + r.txg.uberblock_bytes);
  EXPECT_EQ(r.app_bytes_written, 256 << 20);
  EXPECT_EQ(r.txg.dirtied_bytes, r.txg.undirtied_bytes);
  // Parity on every disk: each writes about a fifth.
  for (int64_t b : r.disk_written_bytes) EXPECT_NEAR(static_cast<double>(b) / r.disk_bytes_written, 0.2, 0.01);
}

// dd conv=fsync: the writer returns only once its data is on disk.
TEST(WritersTest, FsyncAtEndWaitsForTheSync) {
  WritersOptions o = Base();
  const WritersRun plain = RunWriters(o)[0];
  o.fsync_at_end = true;
  const WritersRun fsync = RunWriters(o)[0];
  EXPECT_LT(fsync.throughput_mb_s, plain.throughput_mb_s);
  EXPECT_EQ(fsync.final_sync_ns, 0);
  EXPECT_NEAR(static_cast<double>(fsync.elapsed_ns), static_cast<double>(plain.elapsed_ns + plain.final_sync_ns),
              0.02 * static_cast<double>(plain.elapsed_ns + plain.final_sync_ns));
}

// Two writers in the same txgs interleave their files in txg-sized runs; one
// of those files, read alone, is slower than a file written alone. Small
// txgs (zfs_dirty_data_max 16M: 3.2 MB sync threshold) make the runs short.
// (On a 2-way mirror the model reads such a file faster: the mirror policy
// sends alternate runs to alternate disks.)
TEST(WritersTest, FileWrittenBesideAnotherReadsBackSlower) {
  WritersOptions o = Base();
  o.file_size = 128 << 20;
  o.settings = {{"zfs_dirty_data_max", "16M"}};
  o.writers = {1, 2};
  const std::vector<WritersRun> runs = RunWriters(o);
  ReadersOptions r;
  r.pool = o.pool;
  r.settings = o.settings;
  r.file_size = o.file_size;
  r.readers = {1};
  const double alone = RunReadersOnLayouts(r, 1, {runs[0].layouts[0]}).throughput_mb_s;
  const double beside = RunReadersOnLayouts(r, 1, {runs[1].layouts[0]}).throughput_mb_s;
  EXPECT_LT(beside, 0.9 * alone);
  // And the read-back of a run reports the readers' figure.
  o.writers = {1};
  o.read_back = true;
  EXPECT_NEAR(RunWriters(o)[0].read_back_mb_s, alone, 1e-9);
}

TEST(WritersTest, SameSeedSameResults) {
  WritersOptions o = Base();
  o.writers = {3};
  o.settings = {{"zfs_dirty_data_max", "64M"}};
  const WritersRun a = RunWriters(o)[0];
  const WritersRun b = RunWriters(o)[0];
  EXPECT_EQ(a.elapsed_ns, b.elapsed_ns);
  EXPECT_EQ(a.final_sync_ns, b.final_sync_ns);
  EXPECT_EQ(a.disk_written_bytes, b.disk_written_bytes);
  EXPECT_EQ(a.txg.sync_ns_sum, b.txg.sync_ns_sum);
  EXPECT_EQ(a.per_writer_mb_s, b.per_writer_mb_s);
}

TEST(WritersTest, BadOptionsAreInputErrors) {
  WritersOptions o = Base();
  o.writers = {0};
  EXPECT_THROW(RunWriters(o), InputError);
  o = Base();
  o.recordsize = 3000;
  EXPECT_THROW(RunWriters(o), InputError);
  o = Base();
  o.file_size = int64_t{1} << 50;  // far more than 5 x 1 TB
  EXPECT_THROW(RunWriters(o), InputError);
  o = Base();
  o.settings = {{"zfs_delay_scale", "-1"}};
  EXPECT_THROW(RunWriters(o), InputError);
}

}  // namespace
}  // namespace ziosim
