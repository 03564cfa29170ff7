// `ziosim workload`: same seed, same results; a log device takes the sync
// writes off the data disks and shortens their latency; sync=disabled and an
// async NFS export make nothing wait for the log.
#include "sim/workload/workload.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>
#include <string>

#include "tests/test_util.h"

namespace ziosim {
namespace {

// A small database-like mix so the tests run quickly, in a file of its own
// (ctest runs the tests of this file in parallel processes).
class SmallDatabase {
 public:
  SmallDatabase()
      : file_("workload_test_db.toml",
              "description = \"small database\"\nfiles = 1\nfile_size = \"64M\"\n"
              "recordsize = \"8K\"\nthreads = 4\nread_pct = 50\nrandom_pct = 100\n"
              "sync = \"o_dsync\"\nio_sizes = [[\"8K\", 100]]\n") {}
  const std::string& path() const { return file_.path(); }

 private:
  test::TempFile file_;
};

WorkloadOptions Options(const SmallDatabase& db, const std::string& pool) {
  WorkloadOptions o;
  o.personality = db.path();
  o.pool = pool;
  o.profile = "solaris-11-express";
  o.duration_ns = 2 * kNsPerSec;
  return o;
}

TEST(WorkloadTest, SameSeedSameResults) {
  const SmallDatabase db;
  const WorkloadOptions o = Options(db, "raidz1 5xwd-re4-1tb");
  const WorkloadRun a = RunWorkload(o);
  EXPECT_GT(a.reads, 0u);
  EXPECT_GT(a.sync_writes, 0u);
  EXPECT_EQ(a.sync_writes, a.writes);  // every O_DSYNC write waited for the log
  EXPECT_EQ(WorkloadToJson(a).dump(), WorkloadToJson(RunWorkload(o)).dump());
  WorkloadOptions other = o;
  other.seed = 2;
  EXPECT_NE(WorkloadToJson(a).dump(), WorkloadToJson(RunWorkload(other)).dump());
}

TEST(WorkloadTest, LogDeviceShortensSyncWrites) {
  const SmallDatabase db;
  const WorkloadRun plain = RunWorkload(Options(db, "raidz1 5xwd-re4-1tb"));
  const WorkloadRun slog = RunWorkload(Options(db, "raidz1 5xwd-re4-1tb log generic-ssd"));
  EXPECT_LT(slog.sync_p50_ms * 2, plain.sync_p50_ms);
  EXPECT_GT(slog.ops_per_s, plain.ops_per_s);
  EXPECT_EQ(slog.zil.indirect_records, 0u);
  EXPECT_EQ(slog.disks.back().vdev, "log/d5");
}

TEST(WorkloadTest, NothingWaitsForTheLogWhenSyncIsOff) {
  const SmallDatabase db;
  WorkloadOptions o = Options(db, "raidz1 5xwd-re4-1tb");
  o.sync = "disabled";
  const WorkloadRun off = RunWorkload(o);
  EXPECT_EQ(off.sync_writes, 0u);
  EXPECT_EQ(off.zil.lwbs, 0u);

  WorkloadOptions nfs = Options(db, "raidz1 5xwd-re4-1tb");
  nfs.use_nfs = true;
  nfs.nfs = "async";
  const WorkloadRun async_export = RunWorkload(nfs);
  EXPECT_EQ(async_export.sync_writes, 0u);
  EXPECT_TRUE(async_export.nfs);
}

}  // namespace
}  // namespace ziosim
