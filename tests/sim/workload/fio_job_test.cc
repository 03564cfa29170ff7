#include "sim/workload/fio_job.h"

#include <string>

#include <gtest/gtest.h>

#include "sim/core/status.h"
#include "sim/core/units.h"

namespace ziosim {
namespace {

FioJobFile Parse(const std::string& text) { return ParseFioJobs(text, "t.fio"); }

// The InputError message `text` raises.
std::string ErrorOf(const std::string& text) {
  try {
    Parse(text);
  } catch (const InputError& e) {
    return e.what();
  }
  return "(no error)";
}

TEST(FioJobTest, DefaultsAreFios) {
  const FioJob j = Parse("[a]\n").jobs.at(0);
  EXPECT_EQ(j.name, "a");
  EXPECT_EQ(j.rw, FioRw::kRead);
  EXPECT_EQ(j.bs_bytes, 4096);
  EXPECT_EQ(j.ioengine, FioEngine::kPsync);
  EXPECT_EQ(j.iodepth, 1);
  EXPECT_EQ(j.numjobs, 1);
  EXPECT_FALSE(j.direct);
  EXPECT_EQ(j.rwmixread, 50);
  EXPECT_EQ(j.line, 1);
}

TEST(FioJobTest, GlobalValuesAreInheritedAndJobValuesOverride) {
  const FioJobFile f = Parse(
      "; a comment\n"
      "[global]\n"
      "bs=64k\n"
      "ioengine=libaio\n"
      "direct=1\n"
      "time_based\n"
      "runtime=10\n"
      "\n"
      "[first]\n"
      "rw=randread\n"
      "iodepth=16   # trailing comment\n"
      "[second]\n"
      "bs=1m\n"
      "[global]\n"
      "iodepth=4\n"
      "[third]\n");
  ASSERT_EQ(f.jobs.size(), 3u);
  const FioJob& a = f.jobs[0];
  EXPECT_EQ(a.name, "first");
  EXPECT_EQ(a.bs_bytes, 64 << 10);
  EXPECT_EQ(a.ioengine, FioEngine::kLibaio);
  EXPECT_TRUE(a.direct);
  EXPECT_TRUE(a.time_based);
  EXPECT_EQ(a.runtime_ns, 10 * kNsPerSec);
  EXPECT_EQ(a.rw, FioRw::kRandRead);
  EXPECT_EQ(a.iodepth, 16);
  EXPECT_EQ(a.line, 9);
  const FioJob& b = f.jobs[1];
  EXPECT_EQ(b.bs_bytes, 1 << 20);
  EXPECT_EQ(b.rw, FioRw::kRead);  // the first job's rw stays its own
  EXPECT_EQ(b.iodepth, 1);
  // A later [global] changes the defaults of the jobs after it only.
  EXPECT_EQ(f.jobs[2].iodepth, 4);
  EXPECT_EQ(f.jobs[2].bs_bytes, 64 << 10);
  // "job options" hold the section's own options as written; globals are kept apart.
  ASSERT_EQ(a.options.size(), 2u);
  EXPECT_EQ(a.options[1], (std::pair<std::string, std::string>("iodepth", "16")));
  EXPECT_EQ(f.global_options.size(), 6u);
  EXPECT_EQ(f.global_options[3], (std::pair<std::string, std::string>("time_based", "")));
}

TEST(FioJobTest, SizesAreBinaryAndTimesDefaultToSeconds) {
  const FioJob j = Parse(
                       "[j]\n"
                       "size=2g\nbs=4kib\noffset=1M\noffset_increment=512m\nfilesize=3K\n"
                       "runtime=2m\nramp_time=1500ms\n")
                       .jobs[0];
  EXPECT_EQ(j.size_bytes, int64_t{2} << 30);
  EXPECT_EQ(j.bs_bytes, 4000);  // fio's kb_base=1024 (its default): an IEC prefix is a power of 10
  EXPECT_EQ(j.offset_bytes, 1 << 20);
  EXPECT_EQ(j.offset_increment_bytes, int64_t{512} << 20);
  EXPECT_EQ(j.filesize_bytes, 3072);
  EXPECT_EQ(j.runtime_ns, 120 * kNsPerSec);
  EXPECT_EQ(j.ramp_time_ns, 1500 * kNsPerMs);
  EXPECT_EQ(ParseDuration("3", "x"), 3 * kNsPerSec);
  EXPECT_EQ(ParseDuration("250us", "x"), 250 * kNsPerUs);
  EXPECT_EQ(ParseDuration("1h", "x"), 3600 * kNsPerSec);
  const FioJob pct = Parse("[j]\nsize=25%\n").jobs[0];
  EXPECT_EQ(pct.size_pct, 25.0);
  EXPECT_EQ(pct.size_bytes, 0);
}

TEST(FioJobTest, ReadsEveryRwModeEngineAndFlag) {
  const FioJob j = Parse(
                       "[j]\nreadwrite=randrw\nrwmixwrite=30\nioengine=io_uring\nnumjobs=8\nnrfiles=2\n"
                       "randseed=42\ngroup_reporting\nstonewall\nbuffered=1\n")
                       .jobs[0];
  EXPECT_EQ(j.rw, FioRw::kRandReadWrite);
  EXPECT_EQ(j.rwmixread, 70);
  EXPECT_EQ(j.ioengine, FioEngine::kIoUring);
  EXPECT_EQ(j.numjobs, 8);
  EXPECT_EQ(j.nrfiles, 2);
  EXPECT_TRUE(j.randseed_given);
  EXPECT_EQ(j.randseed, 42u);
  EXPECT_TRUE(j.group_reporting);
  EXPECT_TRUE(j.stonewall);
  EXPECT_FALSE(j.direct);
  EXPECT_EQ(Parse("[j]\nrw=rw\n").jobs[0].rw, FioRw::kReadWrite);
  EXPECT_EQ(Parse("[j]\nrw=write\n").jobs[0].rw, FioRw::kWrite);
  EXPECT_EQ(Parse("[j]\nname=other\n").jobs[0].name, "other");
}

TEST(FioJobTest, LoggingOptionsAreAcceptedAndIgnored) {
  const FioJob j = Parse("[j]\nwrite_lat_log=x\nlog_avg_msec=1000\nthread\ninvalidate=1\ndescription=hi\n").jobs[0];
  EXPECT_EQ(j.options.size(), 5u);
}

TEST(FioJobTest, EachErrorNamesFileLineAndField) {
  EXPECT_EQ(ErrorOf("[j]\nbogus=1\n"), "t.fio:2: unknown fio option 'bogus'");
  EXPECT_EQ(ErrorOf("[j]\nioengin=libaio\n"), "t.fio:2: unknown fio option 'ioengin' (did you mean 'ioengine'?)");
  EXPECT_EQ(ErrorOf("[j]\n\nbs=4q\n"),
            "t.fio:3: field bs: \"4q\" is not a size: expected a number and an optional unit: K, M, G, T or KiB ... "
            "TiB (2^10 steps), KB ... TB (10^3 steps)");
  EXPECT_EQ(ErrorOf("[j]\nbs=4k,8k\n"),
            "t.fio:2: field bs: separate read,write block sizes are not supported: give one size");
  EXPECT_EQ(ErrorOf("[j]\nrw=trim\n"),
            "t.fio:2: field rw: \"trim\" is not read, write, randread, randwrite, rw, readwrite or randrw");
  EXPECT_EQ(ErrorOf("[j]\nioengine=mmap\n"),
            "t.fio:2: field ioengine: \"mmap\" is not simulated (psync, sync, libaio, io_uring or posixaio)");
  EXPECT_EQ(ErrorOf("[j]\nnumjobs=0\n"), "t.fio:2: field numjobs: \"0\" is not an integer from 1 to 1024");
  EXPECT_EQ(ErrorOf("[j]\ndirect=2\n"), "t.fio:2: field direct: \"2\" is not 0 or 1");
  EXPECT_EQ(ErrorOf("[j]\nbs\n"), "t.fio:2: field bs: needs a value");
  EXPECT_EQ(ErrorOf("[j]\nruntime=5x\n"),
            "t.fio:2: field runtime: \"5x\" has an unknown unit (ns, us, ms, s, m, h or d; seconds when omitted)");
  EXPECT_EQ(ErrorOf("[j]\nsize=150%\n"), "t.fio:2: field size: \"150%\" is not a percentage in (0, 100]");
  EXPECT_EQ(ErrorOf("[j]\nfilename=a:b\n"),
            "t.fio:2: field filename: several files (a:b) are not supported: use nrfiles");
  EXPECT_EQ(ErrorOf("bs=4k\n[j]\n"), "t.fio:1: option before the first [section]");
  EXPECT_EQ(ErrorOf("[j\n"), "t.fio:1: section header without ']'");
  EXPECT_EQ(ErrorOf("[global]\nbs=4k\n"), "t.fio: no job section (only [global] or nothing)");
  EXPECT_EQ(ErrorOf("[global]\ntime_based\n[j]\n"), "t.fio:3: job 'j': time_based needs a runtime");
}

}  // namespace
}  // namespace ziosim
