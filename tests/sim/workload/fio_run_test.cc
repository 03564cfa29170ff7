#include "sim/workload/fio_run.h"

#include <string>

#include <gtest/gtest.h>

#include "sim/core/status.h"
#include "sim/workload/fio_json.h"

namespace ziosim {
namespace {

constexpr const char* kHdd = "wd-re4-1tb";
constexpr const char* kSsd = "generic-ssd";

FioResult RunJobs(const std::string& jobs, const std::string& target, uint64_t seed = 1) {
  return RunFioJobs(ParseFioJobs(jobs, "t.fio").jobs, FioTargetFromText(target), seed);
}

std::string ErrorOf(const std::string& jobs, const std::string& target) {
  try {
    RunJobs(jobs, target);
  } catch (const InputError& e) {
    return e.what();
  }
  return "(no error)";
}

double ReadIops(const FioResult& r, size_t clone = 0) {
  return FioIops(r.clones.at(clone).read, r.clones.at(clone).runtime_ns);
}

TEST(FioRunTest, TargetTextTellsDriveFromPool) {
  EXPECT_EQ(FioTargetFromText("wd-re4-1tb").drive, "wd-re4-1tb");
  EXPECT_EQ(FioTargetFromText("1xwd-re4-1tb").pool.pool, "1xwd-re4-1tb");
  EXPECT_EQ(FioTargetFromText("mirror 2xwd-re4-1tb").pool.pool, "mirror 2xwd-re4-1tb");
  EXPECT_TRUE(FioTargetFromText("mirror 2xwd-re4-1tb").drive.empty());
}

TEST(FioRunTest, NcqGivesMoreRandomIopsAtDepth16ThanPsyncOnAnHdd) {
  const std::string common = "[global]\nrw=randread\nbs=4k\ndirect=1\ntime_based\nruntime=3\n";
  const FioResult qd1 = RunJobs(common + "[j]\nioengine=psync\niodepth=16\n", kHdd);
  const FioResult qd16 = RunJobs(common + "[j]\nioengine=libaio\niodepth=16\n", kHdd);
  EXPECT_EQ(qd1.clones[0].effective_iodepth, 1);
  EXPECT_EQ(qd16.clones[0].effective_iodepth, 16);
  ASSERT_EQ(qd1.notes.size(), 1u);  // psync cannot use iodepth=16: said so
  // Shortest-positioning-time-first over 16 queued commands cuts seek and rotation.
  EXPECT_GT(ReadIops(qd16), 1.5 * ReadIops(qd1));
  // Time-based: the measured period is the runtime (the last I/O may end a little after).
  EXPECT_GE(qd1.clones[0].runtime_ns, 3 * kNsPerSec);
  EXPECT_LT(qd1.clones[0].runtime_ns, 3 * kNsPerSec + 100 * kNsPerMs);
  ASSERT_EQ(qd16.disks.size(), 1u);
  EXPECT_GT(qd16.disks[0].util_pct, 99.0);
  EXPECT_EQ(qd16.disks[0].read_ios, static_cast<uint64_t>(qd16.clones[0].read.total_ios));
}

TEST(FioRunTest, LibaioIodepthHasNoEffectOnAZfsFile) {
  const std::string common = "[global]\nrw=randread\nbs=4k\ndirect=1\nioengine=libaio\nsize=256m\nruntime=1\n";
  const FioResult qd1 = RunJobs(common + "[j]\niodepth=1\n", "1xwd-re4-1tb");
  const FioResult qd16 = RunJobs(common + "[j]\niodepth=16\n", "1xwd-re4-1tb");
  EXPECT_EQ(qd16.clones[0].effective_iodepth, 1);
  ASSERT_EQ(qd16.notes.size(), 1u);
  EXPECT_NE(qd16.notes[0].find("ZFS before 2.3 ignores O_DIRECT"), std::string::npos);
  EXPECT_GT(qd1.clones[0].read.total_ios, 10);
  EXPECT_EQ(qd1.clones[0].read.total_ios, qd16.clones[0].read.total_ios);
  EXPECT_EQ(ReadIops(qd1), ReadIops(qd16));
  // io_uring hands blocking reads to its workers: the depth is real there.
  const FioResult uring = RunJobs(common + "[j]\nioengine=io_uring\niodepth=16\n", "1xwd-re4-1tb");
  EXPECT_EQ(uring.clones[0].effective_iodepth, 16);
  EXPECT_GT(ReadIops(uring), 1.5 * ReadIops(qd1));
}

TEST(FioRunTest, SizeBoundedJobMovesExactlySizeBytesPerClone) {
  const FioResult r = RunJobs("[j]\nrw=read\nbs=128k\nsize=8m\nnumjobs=3\noffset_increment=8m\n", kSsd);
  ASSERT_EQ(r.clones.size(), 3u);
  for (const FioCloneResult& c : r.clones) {
    EXPECT_EQ(c.read.io_bytes, 8 << 20);
    EXPECT_EQ(c.read.total_ios, 64);
    EXPECT_EQ(c.write.total_ios, 0);
    EXPECT_GT(c.runtime_ns, 0);
  }
  // On a pool, through the DMU, the same bound holds.
  const FioResult p = RunJobs("[j]\nrw=randread\nbs=16k\nsize=4m\n", "1xwd-re4-1tb");
  EXPECT_EQ(p.clones[0].read.io_bytes, 4 << 20);
}

TEST(FioRunTest, NumjobsSumInAGroupReport) {
  const std::string job = "[j]\nrw=randread\nbs=4k\nsize=1m\nnumjobs=4\noffset_increment=1m\n";
  const FioJobFile separate = ParseFioJobs(job, "t.fio");
  const FioJobFile grouped = ParseFioJobs("[global]\ngroup_reporting\n" + job, "t.fio");
  const FioResult r = RunFioJobs(grouped.jobs, FioTargetFromText(kSsd), 1);
  const std::vector<FioReport> each = FioReports(separate.jobs, r);
  const std::vector<FioReport> merged = FioReports(grouped.jobs, r);
  ASSERT_EQ(each.size(), 4u);
  ASSERT_EQ(merged.size(), 1u);
  EXPECT_EQ(merged[0].clones, 4);
  EXPECT_EQ(merged[0].read.io_bytes, 4 << 20);
  int64_t ios = 0;
  SimTime longest = 0;
  for (const FioReport& e : each) {
    ios += e.read.total_ios;
    longest = std::max(longest, e.runtime_ns);
  }
  EXPECT_EQ(merged[0].read.total_ios, ios);
  EXPECT_EQ(merged[0].read.clat.count(), static_cast<uint64_t>(ios));
  EXPECT_EQ(merged[0].runtime_ns, longest);
}

TEST(FioRunTest, MixedJobsWriteOnADriveInTheirShare) {
  const FioResult r = RunJobs("[j]\nrw=randrw\nrwmixread=70\nbs=4k\nsize=8m\n", kSsd);
  const FioCloneResult& c = r.clones[0];
  EXPECT_EQ(c.read.total_ios + c.write.total_ios, 2048);
  EXPECT_NEAR(static_cast<double>(c.read.total_ios) / 2048.0, 0.70, 0.05);
  EXPECT_EQ(r.disks[0].write_ios, static_cast<uint64_t>(c.write.total_ios));
}

TEST(FioRunTest, RampTimeIsNotCounted) {
  const FioResult r = RunJobs("[j]\nrw=randread\nbs=4k\nruntime=1\nramp_time=1\n", kHdd);
  EXPECT_GE(r.elapsed_ns, 2 * kNsPerSec);
  EXPECT_LT(r.clones[0].runtime_ns, 1 * kNsPerSec + 100 * kNsPerMs);
  // The drive served the ramp's I/Os too (about half of the 2 s), the job counts only its second.
  const auto counted = static_cast<uint64_t>(r.clones[0].read.total_ios);
  EXPECT_LT(counted, r.disks[0].read_ios * 2 / 3);
  EXPECT_GT(counted, r.disks[0].read_ios / 3);
}

TEST(FioRunTest, StonewallRunsJobsOneAfterAnother) {
  const std::string a = "[global]\nrw=randread\nbs=4k\ntime_based\nruntime=500ms\n[a]\n[b]\n";
  const FioResult together = RunJobs(a, kHdd);
  const FioResult apart = RunJobs(a + "stonewall\n", kHdd);
  EXPECT_LT(together.elapsed_ns, 600 * kNsPerMs);
  EXPECT_GE(apart.elapsed_ns, 1000 * kNsPerMs);
  EXPECT_EQ(together.clones[1].groupid, 0);
  EXPECT_EQ(apart.clones[1].groupid, 1);
  // Alone on the drive, b gets about twice the I/Os it gets sharing it.
  EXPECT_GT(apart.clones[1].read.total_ios, 3 * together.clones[1].read.total_ios / 2);
}

TEST(FioRunTest, SameSeedSameBytesOtherSeedOtherOffsets) {
  const std::string job = "[j]\nrw=randread\nbs=4k\nioengine=libaio\ndirect=1\niodepth=4\nruntime=1\ntime_based\n";
  const FioJobFile f = ParseFioJobs(job, "t.fio");
  const std::string a = FioJson(f, RunFioJobs(f.jobs, FioTargetFromText(kHdd), 7)).dump();
  const std::string b = FioJson(f, RunFioJobs(f.jobs, FioTargetFromText(kHdd), 7)).dump();
  const std::string c = FioJson(f, RunFioJobs(f.jobs, FioTargetFromText(kHdd), 8)).dump();
  EXPECT_EQ(a, b);
  EXPECT_NE(a, c);
  // randseed= fixes a job's stream whatever the run seed.
  const FioJobFile s = ParseFioJobs(job + "randseed=5\n", "t.fio");
  EXPECT_EQ(FioJson(s, RunFioJobs(s.jobs, FioTargetFromText(kHdd), 7)).dump(),
            FioJson(s, RunFioJobs(s.jobs, FioTargetFromText(kHdd), 8)).dump());
}

// Writes on a pool go through the DMU write path; the run's end checks that
// every byte dirtied was synced out (SyncOutAndCheck throws otherwise).
TEST(FioRunTest, RandwriteOnAPoolMovesSizeBytes) {
  const FioResult r = RunJobs("[j]\nrw=randwrite\nbs=4k\nsize=8m\n", "mirror 2xwd-re4-1tb");
  ASSERT_EQ(r.clones.size(), 1u);
  EXPECT_EQ(r.clones[0].write.io_bytes, 8 << 20);
  EXPECT_EQ(r.clones[0].write.total_ios, 2048);
  EXPECT_EQ(r.clones[0].read.total_ios, 0);
}

// A file written whole, then read back: every record is in memory (dirty, or
// in the ARC after its sync), so the read phase reads no disk; read cold, it must.
TEST(FioRunTest, ReadsAfterWritesOnAPoolComeFromMemory) {
  const std::string read = "[r]\nstonewall\nrw=read\nbs=128k\nsize=4m\nfilename=f\n";
  const FioResult written = RunJobs("[w]\nrw=write\nbs=128k\nsize=4m\nfilename=f\n" + read, "mirror 2xwd-re4-1tb");
  const FioResult cold = RunJobs(read, "mirror 2xwd-re4-1tb");
  uint64_t written_reads = 0, cold_reads = 0;
  for (const FioDiskUtil& d : written.disks) written_reads += d.read_ios;
  for (const FioDiskUtil& d : cold.disks) cold_reads += d.read_ios;
  EXPECT_EQ(written.clones[1].read.io_bytes, 4 << 20);
  EXPECT_EQ(written_reads, 0u);
  EXPECT_GT(cold_reads, 0u);
}

TEST(FioRunTest, JobsThatCannotRunThereAreInputErrors) {
  EXPECT_EQ(ErrorOf("[j]\nrw=read\n", "1xwd-re4-1tb"),
            "t.fio:1: job 'j': needs size or filesize on a pool target (the files to create)");
  EXPECT_EQ(ErrorOf("[x]\n[j]\nnrfiles=2\n", kSsd),
            "t.fio:2: job 'j': nrfiles > 1 needs a pool target (a raw drive is one file)");
  EXPECT_EQ(ErrorOf("[j]\nbs=1000\n", kHdd),
            "t.fio:1: job 'j': bs 1000 is not a multiple of the drive's 512-byte sector");
  const std::string past = ErrorOf("[j]\nsize=1m\nnumjobs=2\noffset=1m\noffset_increment=1t\n", kHdd);
  EXPECT_NE(past.find("t.fio:1: job 'j': offset 1099512676352 lies beyond the drive's capacity"), std::string::npos)
      << past;
  EXPECT_EQ(ErrorOf("[j]\nsize=2k\nbs=4k\n", kSsd), "t.fio:1: job 'j': size 2048 is smaller than bs 4096");
}

}  // namespace
}  // namespace ziosim
