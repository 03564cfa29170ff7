// The file-level trace readers (strace, DTrace, fio iolog files): which file
// and offset each read() lands on, entry order, and their bad input.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "sim/core/status.h"
#include "sim/trace/trace_reader.h"
#include "tests/test_util.h"

namespace ziosim {
namespace file_trace_test {

using test::TempFile;

struct Read {
  std::vector<TraceRecord> records;
  std::vector<std::string> files;
  TraceReadStats stats;
};

Read ReadAll(const std::string& path, TraceReaderOptions options = {}, TraceFormat format = TraceFormat::kAuto) {
  auto reader = OpenTrace(path, format, options);
  Read out;
  TraceRecord r;
  while (reader->Next(r)) out.records.push_back(r);
  out.files = reader->files();
  out.stats = reader->stats();
  return out;
}

// The InputError message reading `text` as `format` gives ("bad.trace:LINE: ..."), or "" if none.
std::string ErrorFor(TraceFormat format, const std::string& text, TraceReaderOptions options = {}) {
  TempFile f("bad.trace", text);
  try {
    ReadAll(f.path(), options, format);
  } catch (const InputError& e) {
    const std::string what = e.what();
    return what.substr(what.find("bad.trace"));
  }
  return "";
}

struct Want {
  int line;
  int64_t stream;
  int32_t file;
  int64_t offset;
  int64_t size;
  SimTime latency_ns;
};

void ExpectRecords(const std::vector<TraceRecord>& got, const std::vector<Want>& want) {
  ASSERT_EQ(got.size(), want.size());
  for (size_t i = 0; i < want.size(); ++i) {
    SCOPED_TRACE("request " + std::to_string(i));
    EXPECT_EQ(got[i].line, want[i].line);
    EXPECT_EQ(got[i].stream, want[i].stream);
    EXPECT_EQ(got[i].file, want[i].file);
    EXPECT_EQ(got[i].offset_bytes, want[i].offset);
    EXPECT_EQ(got[i].size_bytes, want[i].size);
    EXPECT_EQ(got[i].measured_latency_ns, want[i].latency_ns);
    EXPECT_EQ(got[i].op, IoOp::kRead);
  }
}

constexpr SimTime kUs = 1000;
constexpr SimTime kSec = 1000 * 1000 * kUs;

TEST(StraceReaderTest, FollowsDescriptorsOffsetsAndEntryOrder) {
  const Read r = ReadAll(test::FormatFixture("strace.txt"));
  EXPECT_EQ(r.files, (std::vector<std::string>{"/data/big.bin", "/lib/libc.so.6"}));
  // The read entered on line 4 comes before line 5's pread, though it returned later.
  ExpectRecords(r.records, {{2, 4711, 0, 0, 131072, 100 * kUs},
                            {4, 4711, 0, 131072, 131072, 1700 * kUs},
                            {5, 4712, 1, 64, 784, 10 * kUs},
                            {8, 4711, 0, 1048576, 4096, 50 * kUs},
                            {9, 4711, 0, 65536, 8192, 300 * kUs}});
  // Entry times; the clock passed midnight before line 8.
  EXPECT_EQ(r.records[0].time_ns, 86399 * kSec + 900100 * kUs);
  EXPECT_EQ(r.records[1].time_ns, 86399 * kSec + 900300 * kUs);
  EXPECT_EQ(r.records[3].time_ns, 86400 * kSec + 100 * kUs);
  // openat x2, lseek, the read at the end of the file, the terminal's read, close, the exit.
  EXPECT_EQ(r.stats.ignored, 7);
}

TEST(StraceReaderTest, FilesUnderKeepsTheWorkloadsFilesOnly) {
  const Read r = ReadAll(test::FormatFixture("strace.txt"), TraceReaderOptions{.files_under = "/data/"});
  EXPECT_EQ(r.files, (std::vector<std::string>{"/data/big.bin"}));
  ASSERT_EQ(r.records.size(), 4u);
  for (const TraceRecord& rec : r.records) EXPECT_EQ(rec.file, 0);
  EXPECT_EQ(r.stats.ignored, 8);  // and libc's pread
  EXPECT_TRUE(IsUnder("/data/x", "/data"));
  EXPECT_FALSE(IsUnder("/database/x", "/data"));
  EXPECT_TRUE(IsUnder("/x", "/"));
}

TEST(StraceReaderTest, WithoutDashYThePathComesFromOpenat) {
  TempFile f("t.strace",
             "10:00:00.000000 openat(AT_FDCWD, \"a, (b)\", O_RDONLY) = 5 <0.000010>\n"
             "10:00:00.000100 read(5, \"x\\\")\"..., 100) = 100 <0.000020>\n"
             "10:00:00.000200 close(5) = 0 <0.000001>\n"
             "10:00:00.000300 openat(AT_FDCWD, \"c\", O_RDONLY) = 5 <0.000010>\n"
             "10:00:00.000400 read(5, \"\"..., 100) = 60 <0.000020>\n"
             "10:00:00.000500 openat(AT_FDCWD, \"a, (b)\", O_RDONLY) = 6 <0.000010>\n"
             "10:00:00.000600 read(6, \"\"..., 100) = 100 <0.000020>\n"
             "10:00:00.000700 read(5, \"\"..., 100) = -1 EINTR (Interrupted system call) <0.000020>\n");
  const Read r = ReadAll(f.path());
  EXPECT_EQ(r.files, (std::vector<std::string>{"a, (b)", "c"}));
  // A file opened again reads from its start; a failed read moves nothing.
  ExpectRecords(r.records, {{2, 0, 0, 0, 100, 20 * kUs}, {5, 0, 1, 0, 60, 20 * kUs}, {7, 0, 0, 0, 100, 20 * kUs}});
}

TEST(StraceReaderTest, PidPrefixesAndEpochTimes) {
  TempFile f("t.strace",
             "[pid  77] 1700000000.000001 read(3</f>, \"\"..., 8) = 8 <0.000002>\n"
             "1700000000.000003 read(3</f>, \"\"..., 8) = 8 <0.000002>\n");
  const Read r = ReadAll(f.path());
  ExpectRecords(r.records, {{1, 77, 0, 0, 8, 2 * kUs}, {2, 0, 0, 8, 8, 2 * kUs}});
  EXPECT_EQ(r.records[0].time_ns, 1700000000 * kSec + 1 * kUs);
  EXPECT_EQ(DetectTraceFormat(f.path()), TraceFormat::kStrace);
}

TEST(StraceReaderTest, BadInputNamesLineAndField) {
  EXPECT_EQ(ErrorFor(TraceFormat::kStrace, "1 10:00:00.000000 read(3, \"\"..., 8) = 8 <0.000002>\n"),
            "bad.trace:1: field fd: 3 was never opened in the trace, so its file is unknown (record with strace -y, "
            "or trace the open too)");
  EXPECT_EQ(ErrorFor(TraceFormat::kStrace, "1 10:00:00.000000 read(3</f>, \"\"..., 8) = 8\n"),
            "bad.trace:1: field duration: missing: record with strace -T (the call's time in <seconds> at the end "
            "of the line)");
  EXPECT_EQ(ErrorFor(TraceFormat::kStrace, "1 read(3</f>, \"\"..., 8) = 8 <0.1>\n"),
            "bad.trace:1: field time: expected HH:MM:SS.micro (strace -tt) or seconds.micro (strace -ttt), got "
            "'read(3</f>,'");
  EXPECT_EQ(ErrorFor(TraceFormat::kStrace, "1 10:00:00.000000 read(3</f>, \"\"..., 8 = 8 <0.1>\n"),
            "bad.trace:1: field call: the argument list of read is not closed");
  EXPECT_EQ(ErrorFor(TraceFormat::kStrace, "1 10:00:00.000000 pread64(3</f>, \"\"..., 8) = 8 <0.1>\n"),
            "bad.trace:1: field call: pread64 takes 4 arguments, the line has 3");
  EXPECT_EQ(ErrorFor(TraceFormat::kStrace, "1 10:00:01.000000 read(3</f>, \"\"..., 8) = 8 <0.1>\n"
                                           "1 10:00:00.000000 read(3</f>, \"\"..., 8) = 8 <0.1>\n"),
            "bad.trace:2: field time: goes backwards: 36000000 ms is before 36001000 ms, the arrival of an earlier "
            "request (the trace must be in arrival order)");
  EXPECT_EQ(ErrorFor(TraceFormat::kStrace, "1 10:00:00.000000 <... read resumed>\"\"..., 8) = 8 <0.1>\n"),
            "bad.trace:1: field call: 'read resumed' of process 1, which has no unfinished read call");
  EXPECT_EQ(ErrorFor(TraceFormat::kStrace, "1 10:00:00.000000 read(3</f>, \"\"..., 8) = 8x <0.1>\n"),
            "bad.trace:1: field result: expected an integer, got '8x'");
  EXPECT_EQ(ErrorFor(TraceFormat::kStrace, "1 10:00:00.000000 read(99999999</f>, \"\"..., 8) = 8 <0.1>\n"),
            "bad.trace:1: field fd: descriptor 99999999 is not below 1048576, the kernel's limit (fs.nr_open)");
  EXPECT_EQ(ErrorFor(TraceFormat::kDtrace, "1 10:00:00.000000 read(3</f>, \"\"..., 8) = 8 <0.1>\n"),
            "bad.trace:1: field header: expected '# ziosim-dtrace 1', got '1 10:00:00.000000 read(3</f>, "
            "\"\"..., 8) = 8 <0.1>'");
}

TEST(StraceReaderTest, SkipBadPassesOverALineAndKeepsTheOrder) {
  TempFile f("t.strace",
             "1 10:00:00.000000 read(3</f>,  <unfinished ...>\n"
             "2 10:00:00.000001 read(9, \"\"..., 8) = 8 <0.000002>\n"
             "1 10:00:00.000005 <... read resumed>\"\"..., 8) = 8 <0.000005>\n"
             "2 10:00:00.000007 read(3</f>, \"\"..., 8) = 8 <0.000002>\n");
  const Read r = ReadAll(f.path(), TraceReaderOptions{.skip_bad = true});
  EXPECT_EQ(r.stats.skipped, 1);
  ExpectRecords(r.records, {{1, 1, 0, 0, 8, 5 * kUs}, {4, 2, 0, 8, 8, 2 * kUs}});
}

TEST(StraceReaderTest, ACallStillUnfinishedAtTheEndIsUnmatched) {
  TempFile f("t.strace",
             "1 10:00:00.000000 read(3</f>,  <unfinished ...>\n"
             "2 10:00:00.000001 read(3</f>, \"\"..., 8) = 8 <0.000002>\n");
  const Read r = ReadAll(f.path());
  EXPECT_EQ(r.stats.unmatched, 1);
  ExpectRecords(r.records, {{2, 2, 0, 0, 8, 2 * kUs}});
}

TEST(DtraceReaderTest, GivesTheSameRequestsAsTheStraceOfTheSameCalls) {
  const Read d = ReadAll(test::FormatFixture("dtrace.txt"));
  const Read s = ReadAll(test::FormatFixture("strace.txt"));
  EXPECT_EQ(d.files, s.files);
  ASSERT_EQ(d.records.size(), s.records.size());
  for (size_t i = 0; i < d.records.size(); ++i) {
    SCOPED_TRACE("request " + std::to_string(i));
    EXPECT_EQ(d.records[i].file, s.records[i].file);
    EXPECT_EQ(d.records[i].offset_bytes, s.records[i].offset_bytes);
    EXPECT_EQ(d.records[i].size_bytes, s.records[i].size_bytes);
    EXPECT_EQ(d.records[i].measured_latency_ns, s.records[i].measured_latency_ns);
    EXPECT_EQ(d.records[i].stream, s.records[i].stream);
  }
  // Line 6 entered before line 5 and is sorted back in front of it.
  EXPECT_EQ(d.records[1].line, 6);
  EXPECT_EQ(d.records[1].time_ns, 1300000);
  EXPECT_EQ(DetectTraceFormat(test::FormatFixture("dtrace.txt")), TraceFormat::kDtrace);
}

TEST(DtraceReaderTest, Dup2GivesTheNewDescriptorTheFileAndItsOffset) {
  TempFile f("t.dtrace",
             "# ziosim-dtrace 1\n10 1 openat -1 -1 0 3 5 /d/big\n20 1 read 3 -1 100 100 5\n30 1 dup2 3 -1 0 0 5\n"
             "40 1 close 3 -1 0 0 5\n50 1 read 0 -1 100 100 5\n");
  const Read r = ReadAll(f.path());
  ExpectRecords(r.records, {{3, 1, 0, 0, 100, 5}, {6, 1, 0, 100, 100, 5}});
}

TEST(DtraceReaderTest, BadInput) {
  const std::string h = "# ziosim-dtrace 1\n";
  EXPECT_EQ(ErrorFor(TraceFormat::kDtrace, h + "100 1 read 0 -1 10 5 7\n"),
            "bad.trace:2: field fd: 0 was never opened in the trace, so its file is unknown (start the trace before "
            "the file is opened)");
  EXPECT_EQ(ErrorFor(TraceFormat::kDtrace, h + "100 1 read 0 -1 10 5\n"),
            "bad.trace:2: field latency_ns: missing (a line holds: entry_ns pid call fd offset size ret latency_ns "
            "[path])");
  EXPECT_EQ(ErrorFor(TraceFormat::kDtrace, h + "100 1 mmap 0 -1 10 5 7\n"),
            "bad.trace:2: field call: expected open, openat, read, pread, lseek, close, dup or dup2, got 'mmap'");
  EXPECT_EQ(ErrorFor(TraceFormat::kDtrace, h + "100 1 openat -1 -1 0 3 7\n"),
            "bad.trace:2: field path: missing: an open or openat line ends with the path");
  EXPECT_EQ(ErrorFor(TraceFormat::kDtrace, h + "100 1 openat -1 -1 0 3 7 /f\n100 1 read 3 -1 10 11 7\n"),
            "bad.trace:3: field ret: 11 bytes read of 10 asked");
  // Line 4 releases line 3 (its window has passed); line 5 then comes too late.
  EXPECT_EQ(ErrorFor(TraceFormat::kDtrace, h + "100 1 openat -1 -1 0 3 7 /f\n100 1 read 3 -1 10 5 7\n"
                                               "20000000000 1 read 3 -1 10 5 7\n50 1 read 3 -1 10 5 7\n"),
            "bad.trace:5: field entry_ns: goes backwards: 0.00005 ms is before 0.0001 ms, the entry of a call "
            "already replayed (a call longer than the 10 s reorder window)");
}

TEST(FioIologFilesTest, EachFileIsNumberedAsTheLogFirstNamesIt) {
  TempFile f("t.iolog",
             "fio version 2 iolog\n/d/a add\n/d/b add\n/d/b open\n/d/b read 0 4096\n/d/a read 8192 4096\n"
             "/x/c read 0 512\n");
  Read r = ReadAll(f.path());
  EXPECT_EQ(r.files, (std::vector<std::string>{"/d/b", "/d/a", "/x/c"}));
  ASSERT_EQ(r.records.size(), 3u);
  EXPECT_EQ(r.records[0].file, 0);
  EXPECT_EQ(r.records[1].file, 1);
  EXPECT_EQ(r.records[1].offset_bytes, 8192);
  r = ReadAll(f.path(), TraceReaderOptions{.files_under = "/d"});
  EXPECT_EQ(r.files, (std::vector<std::string>{"/d/b", "/d/a"}));
  EXPECT_EQ(r.records.size(), 2u);
  EXPECT_TRUE(IsFileLevel(TraceFormat::kFioIolog));
  EXPECT_FALSE(IsFileLevel(TraceFormat::kMsr));
  TempFile msr("t.csv", "1,h,0,Read,0,512,1\n");
  try {
    ReadAll(msr.path(), TraceReaderOptions{.files_under = "/d"});
    ADD_FAILURE() << "a block trace took --files-under";
  } catch (const InputError& e) {
    EXPECT_TRUE(std::string(e.what()).starts_with("--files-under: applies to a file-level trace")) << e.what();
  }
}

}  // namespace file_trace_test
}  // namespace ziosim
