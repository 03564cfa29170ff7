#include "sim/trace/trace_reader.h"

#include <gtest/gtest.h>
#include <zlib.h>

#include <filesystem>
#include <limits>
#include <string>
#include <vector>

#include "sim/core/status.h"
#include "tests/test_util.h"

namespace ziosim {
namespace trace_reader_test {

using test::TempFile;

// Replaces the file at `path` with `text`, gzip-compressed.
void WriteGzip(const std::string& path, const std::string& text) {
  gzFile gz = gzopen(path.c_str(), "wb");
  gzwrite(gz, text.data(), static_cast<unsigned>(text.size()));
  gzclose(gz);
}

std::vector<TraceRecord> ReadAll(TraceReader& reader) {
  std::vector<TraceRecord> out;
  TraceRecord r;
  while (reader.Next(r)) out.push_back(r);
  return out;
}

std::vector<TraceRecord> ReadAll(const std::string& path, TraceFormat format = TraceFormat::kAuto,
                                 bool skip_bad = false) {
  TraceReaderOptions o;
  o.skip_bad = skip_bad;
  auto reader = OpenTrace(path, format, o);
  return ReadAll(*reader);
}

// The InputError message reading `text` as `format` gives, or "" if none.
std::string ErrorFor(TraceFormat format, const std::string& text, const std::string& name = "bad.trace") {
  TempFile f(name, text);
  try {
    ReadAll(f.path(), format);
  } catch (const InputError& e) {
    const std::string what = e.what();
    // Drop the temp dir so that the expectations read "bad.trace:LINE: ...".
    return what.substr(what.find(name));
  }
  return "";
}

struct Want {
  SimTime time_ns;
  IoOp op;
  int64_t offset;
  int64_t size;
  SimTime measured_ns;
  int line;
};

void ExpectRecords(const std::vector<TraceRecord>& got, const std::vector<Want>& want) {
  ASSERT_EQ(got.size(), want.size());
  for (size_t i = 0; i < want.size(); ++i) {
    SCOPED_TRACE("record " + std::to_string(i));
    EXPECT_EQ(got[i].time_ns, want[i].time_ns);
    EXPECT_EQ(got[i].op, want[i].op);
    EXPECT_EQ(got[i].offset_bytes, want[i].offset);
    EXPECT_EQ(got[i].size_bytes, want[i].size);
    EXPECT_EQ(got[i].measured_latency_ns, want[i].measured_ns);
    EXPECT_EQ(got[i].line, want[i].line);
  }
}

constexpr IoOp R = IoOp::kRead;
constexpr IoOp W = IoOp::kWrite;

// ---------------------------------------------------------------- names

TEST(TraceFormatTest, NamesRoundTripAndUnknownNamesListTheKnownOnes) {
  for (TraceFormat f : {TraceFormat::kDisksimValidate, TraceFormat::kDisksimAscii, TraceFormat::kBlkparse,
                        TraceFormat::kFioIolog, TraceFormat::kFioLatLog, TraceFormat::kMsr, TraceFormat::kSpc,
                        TraceFormat::kFtraceCsv, TraceFormat::kCloudPhysics, TraceFormat::kAuto}) {
    EXPECT_EQ(ParseTraceFormat(TraceFormatName(f)), f);
  }
  EXPECT_EQ(ParseTraceFormat("UMass"), TraceFormat::kSpc);
  try {
    ParseTraceFormat("iolog");
    FAIL();
  } catch (const InputError& e) {
    EXPECT_STREQ(e.what(),
                 "--format: unknown trace format 'iolog' (one of: validate, ascii, blkparse, fio-iolog, fio-lat, "
                 "msr, spc, ftrace, cloudphysics, strace, dtrace, auto)");
  }
}

// ---------------------------------------------------------------- each fixture, field by field

TEST(TraceReaderTest, DisksimValidateRebuildsTheDrivesTimeline) {
  auto reader = OpenTrace(test::FormatFixture("disksim_validate.txt"));
  EXPECT_EQ(reader->format(), TraceFormat::kDisksimValidate);
  const auto got = ReadAll(*reader);
  ExpectRecords(got, {{0, R, 1975000 * 512LL, 4 * 512, 15'000'000, 1},
                      {71'000'000, W, 100 * 512, 8 * 512, 2'000'500, 2},
                      {73'000'500, R, 0, 16 * 512, 8'000'000, 3}});
  EXPECT_EQ(got[0].think_ns, 56'000'000);
  EXPECT_EQ(got[1].think_ns, 0);
  EXPECT_EQ(got[2].think_ns, 1'000'000);
}

TEST(TraceReaderTest, DisksimAscii) {
  auto reader = OpenTrace(test::FormatFixture("disksim_ascii.txt"));
  EXPECT_EQ(reader->format(), TraceFormat::kDisksimAscii);
  ExpectRecords(ReadAll(*reader), {{0, R, 1000 * 512, 8 * 512, -1, 1},
                                   {1'500'000, W, 2048 * 512, 16 * 512, -1, 2},
                                   {1'500'000, R, 4096 * 512, 8 * 512, -1, 3},
                                   {10'250'000, R, 0, 512, -1, 4}});
}

// The urgency DiskSim's priority schedulers read, from the flags as its ascii reader
// takes them: TIME_CRITICAL (0x2) and TIME_LIMITED (0x4) as given, an ASYNCHRONOUS
// (0x100) read time-limited, a SYNCHRONOUS (0x80) request not also asynchronous
// time-critical, any other none.
TEST(TraceReaderTest, DisksimAsciiFlagsGiveTheUrgency) {
  test::TempFile f("flags.ascii",
                   "0 0 10 8 1\n"     // a plain read
                   "1 0 10 8 0\n"     // a plain write
                   "2 0 10 8 2\n"     // TIME_CRITICAL write
                   "3 0 10 8 5\n"     // TIME_LIMITED read
                   "4 0 10 8 101\n"   // asynchronous read
                   "5 0 10 8 100\n"   // asynchronous write
                   "6 0 10 8 80\n"    // synchronous write
                   "7 0 10 8 181\n"   // both: asynchronous read
                   "8 0 10 8 180\n");  // both: a write, neither
  const std::vector<TraceRecord> got = ReadAll(f.path(), TraceFormat::kDisksimAscii);
  std::vector<Urgency> urgency;
  for (const TraceRecord& r : got) urgency.push_back(r.urgency);
  using U = Urgency;
  EXPECT_EQ(urgency, (std::vector<Urgency>{U::kNone, U::kNone, U::kTimeCritical, U::kTimeLimited, U::kTimeLimited,
                                           U::kNone, U::kTimeCritical, U::kTimeLimited, U::kNone}));
}

TEST(TraceReaderTest, BlkparsePairsDWithCAndKeepsIssueOrder) {
  auto reader = OpenTrace(test::FormatFixture("blkparse.txt"));
  EXPECT_EQ(reader->format(), TraceFormat::kBlkparse);
  ExpectRecords(ReadAll(*reader), {{30'000, R, 1000 * 512, 8 * 512, 650'000 - 30'000, 3},
                                   {120'000, W, 5000 * 512, 16 * 512, 350'000 - 120'000, 4},
                                   {2'000'000, R, 2000 * 512, 256 * 512, 2'000'000, 10},
                                   {3'000'000, R, 3000 * 512, 8 * 512, -1, 12}});
  EXPECT_EQ(reader->stats().records, 4);
  EXPECT_EQ(reader->stats().ignored, 1);    // the flush's D
  EXPECT_EQ(reader->stats().unmatched, 2);  // C 777 without D; D 3000 without C
}

TEST(TraceReaderTest, BlkparseGivesUpOnADWithoutCAfterTheWindow) {
  const std::string text =
      "  8,0 0 1 0.000000000 1 D R 100 + 8 [a]\n"
      "  8,0 0 2 1.000000000 1 D R 200 + 8 [a]\n"
      "  8,0 0 3 1.000100000 1 C R 200 + 8 [0]\n"
      "  8,0 0 4 61.000000001 1 D R 300 + 8 [a]\n"  // more than 60 s after the first D
      "  8,0 0 5 61.000000002 1 C R 300 + 8 [0]\n";
  TempFile f("window.blkparse", text);
  auto reader = OpenTrace(f.path());
  std::vector<TraceRecord> got;
  TraceRecord r;
  ASSERT_TRUE(reader->Next(r));  // released by line 4, before the end of the file
  got.push_back(r);
  EXPECT_EQ(reader->stats().unmatched, 1);
  while (reader->Next(r)) got.push_back(r);
  ExpectRecords(got, {{0, R, 100 * 512, 4096, -1, 1},
                      {1'000'000'000, R, 200 * 512, 4096, 100'000, 2},
                      {61'000'000'001, R, 300 * 512, 4096, 1, 4}});
}

TEST(TraceReaderTest, FioIologVersion2UsesWaitsForTime) {
  auto reader = OpenTrace(test::FormatFixture("fio_v2.iolog"));
  EXPECT_EQ(reader->format(), TraceFormat::kFioIolog);
  ExpectRecords(ReadAll(*reader), {{0, R, 0, 4096, -1, 4}, {0, W, 8192, 8192, -1, 5}, {1'500'000, R, 4096, 4096, -1, 7}});
  EXPECT_EQ(reader->stats().ignored, 2);  // wait, trim
}

TEST(TraceReaderTest, FioIologVersion3TimesAreMicroseconds) {
  ExpectRecords(ReadAll(test::FormatFixture("fio_v3.iolog")), {{1'700'000, R, 892911616, 4096, -1, 4},
                                                   {2'500'000, R, 242405376, 4096, -1, 5},
                                                   {2'600'000, R, 564465664, 4096, -1, 6},
                                                   {2'700'000, R, 868192256, 4096, -1, 7},
                                                   {3'300'000, W, 146268160, 8192, -1, 8}});
}

TEST(TraceReaderTest, FioLatLogIsSortedBackIntoArrivalOrder) {
  auto reader = OpenTrace(test::FormatFixture("fio_lat.1.log"));
  EXPECT_EQ(reader->format(), TraceFormat::kFioLatLog);
  ExpectRecords(ReadAll(*reader), {{50'000, W, 4096, 8192, 1'950'000, 3},
                                   {90'000, R, 892911616, 4096, 910'000, 1},
                                   {300'000, R, 242405376, 4096, 700'000, 2},
                                   {1'750'000, R, 146268160, 4096, 250'000, 4}});
  EXPECT_EQ(reader->stats().ignored, 1);  // the trim
}

TEST(TraceReaderTest, Msr) {
  auto reader = OpenTrace(test::FormatFixture("msr.csv"));
  EXPECT_EQ(reader->format(), TraceFormat::kMsr);
  ExpectRecords(ReadAll(*reader), {{0, W, 9056010240, 2048, 290'000, 1},
                                   {21'500, R, 11855355904, 512, 271'700, 2},
                                   {593'685'700, R, 3163103232, 40960, 4'353'800, 3}});
}

TEST(TraceReaderTest, Spc) {
  auto reader = OpenTrace(test::FormatFixture("spc.csv"));
  EXPECT_EQ(reader->format(), TraceFormat::kSpc);
  ExpectRecords(ReadAll(*reader), {{600'000'000, W, 20000000LL * 512, 8192, -1, 1},
                                   {602'500'000, W, 20001000LL * 512, 8192, -1, 2},
                                   {605'000'000, R, 3500000LL * 512, 15872, -1, 3}});
}

TEST(TraceReaderTest, FtraceCsv) {
  auto reader = OpenTrace(test::FormatFixture("ftrace_block.csv"));
  EXPECT_EQ(reader->format(), TraceFormat::kFtraceCsv);
  ExpectRecords(ReadAll(*reader), {{512'100'000'000, R, 34840000LL * 512, 4096, 300'000, 2},
                                   {512'102'000'000, R, 34870120LL * 512, 4096, 100'000, 3},
                                   {512'107'000'000, R, 22422200LL * 512, 8192, 125'000, 4},
                                   {512'420'000'000, R, 37357120LL * 512, 4096, 250'000, 5},
                                   {512'500'000'000, W, 100 * 512, 4096, 1'000'000, 7}});
  EXPECT_EQ(reader->stats().ignored, 1);  // the flush
}

TEST(TraceReaderTest, CloudPhysics) {
  auto reader = OpenTrace(test::FormatFixture("cloudphysics.csv"));
  EXPECT_EQ(reader->format(), TraceFormat::kCloudPhysics);
  ExpectRecords(ReadAll(*reader), {{7'200'000'000'000'000, W, 51200000LL * 512, 512, -1, 2},
                                   {7'200'000'000'000'000, R, 51200064LL * 512, 4096, -1, 3},
                                   {7'200'002'000'000'000, R, 100 * 512, 8192, -1, 5}});
  EXPECT_EQ(reader->stats().ignored, 1);  // SYNCHRONIZE CACHE
}

// ---------------------------------------------------------------- devices

std::vector<int64_t> Devices(const std::string& path) {
  std::vector<int64_t> out;
  for (const TraceRecord& r : ReadAll(path)) out.push_back(r.device);
  return out;
}

TEST(TraceDeviceTest, EachFormatNamesTheDeviceItsRecordsWentTo) {
  EXPECT_EQ(Devices(test::FormatFixture("msr.csv")), (std::vector<int64_t>{0, 0, 1}));            // DiskNumber
  EXPECT_EQ(Devices(test::FormatFixture("spc.csv")), (std::vector<int64_t>{0, 1, 0}));            // ASU
  EXPECT_EQ(Devices(test::FormatFixture("disksim_ascii.txt")), (std::vector<int64_t>{0, 0, 1, 0}));  // devno
  // 8,16 packed as the kernel's dev_t: major << 20 | minor.
  const int64_t sdb = (int64_t{8} << 20) | 16;
  EXPECT_EQ(Devices(test::FormatFixture("blkparse.txt")), (std::vector<int64_t>{sdb, sdb, sdb, sdb}));
  for (const char* one_device : {"fio_v3.iolog", "fio_lat.1.log", "ftrace_block.csv", "cloudphysics.csv",
                                 "disksim_validate.txt"}) {
    for (int64_t d : Devices(test::FormatFixture(one_device))) EXPECT_EQ(d, 0) << one_device;
  }
}

TEST(TraceDeviceTest, BlkparseDevicesAreKeptApartAndChecked) {
  const std::string text =
      "  8,0 0 1 0.1 1 D R 8 + 8 [a]\n"
      "  8,16 0 2 0.2 1 D R 8 + 8 [a]\n"
      "  8,16 0 3 0.3 1 C R 8 + 8 [0]\n"
      "  8,0 0 4 0.4 1 C R 8 + 8 [0]\n";
  TempFile f("two.blkparse", text);
  const std::vector<TraceRecord> got = ReadAll(f.path());
  ASSERT_EQ(got.size(), 2u);
  EXPECT_EQ(got[0].device, MakeTraceDevice(8, 0));
  EXPECT_EQ(got[0].measured_latency_ns, 300'000'000);  // same sector, the other disk's C does not match
  EXPECT_EQ(got[1].device, MakeTraceDevice(8, 16));
  EXPECT_EQ(got[1].measured_latency_ns, 100'000'000);
  EXPECT_EQ(ErrorFor(TraceFormat::kBlkparse, "  8,1048576 0 1 0.1 1 D R 8 + 8 [a]\n"),
            "bad.trace:1: field device: '8,1048576' is not a Linux device number (major < 4096, minor < 2^20)");
}

TEST(TraceDeviceTest, DeviceNumbersParseAndPrint) {
  EXPECT_EQ(ParseTraceDevice("3"), 3);
  EXPECT_EQ(ParseTraceDevice("8,16"), MakeTraceDevice(8, 16));
  EXPECT_EQ(FormatTraceDevice(TraceFormat::kBlkparse, MakeTraceDevice(8, 16)), "8,16");
  EXPECT_EQ(FormatTraceDevice(TraceFormat::kMsr, 3), "3");
  for (const char* bad : {"", "-1", "x", "8,", ",1", "4096,0", "8,1048576", "1.5"}) {
    try {
      ParseTraceDevice(bad);
      ADD_FAILURE() << bad;
    } catch (const InputError& e) {
      EXPECT_EQ(std::string(e.what()),
                std::string("--device: expected a device number or MAJOR,MINOR (blkparse), got '") + bad + "'");
    }
  }
}

TEST(TraceReaderTest, ReadsGzipAndBlankLines) {
  const TempFile f("msr.csv.gz", "");
  WriteGzip(f.path(), "\n130000000000000000,lab,0,Read,4096,4096,10\n\n");
  ExpectRecords(ReadAll(f.path()), {{0, R, 4096, 4096, 1000, 2}});
}

// ---------------------------------------------------------------- detection

TEST(TraceDetectTest, EveryFixtureIsRecognised) {
  const std::vector<std::pair<std::string, TraceFormat>> cases = {
      {"disksim_validate.txt", TraceFormat::kDisksimValidate}, {"disksim_ascii.txt", TraceFormat::kDisksimAscii},
      {"blkparse.txt", TraceFormat::kBlkparse},                  {"fio_v2.iolog", TraceFormat::kFioIolog},
      {"fio_v3.iolog", TraceFormat::kFioIolog},                  {"fio_lat.1.log", TraceFormat::kFioLatLog},
      {"msr.csv", TraceFormat::kMsr},                            {"spc.csv", TraceFormat::kSpc},
      {"ftrace_block.csv", TraceFormat::kFtraceCsv},             {"cloudphysics.csv", TraceFormat::kCloudPhysics},
  };
  for (const auto& [name, format] : cases) EXPECT_EQ(DetectTraceFormat(test::FormatFixture(name)), format) << name;
}

TEST(TraceDetectTest, HeaderlessVariantsAndLeadingBlankLines) {
  TempFile ftrace("f.csv", "\n\n512.100000,512.100300,RA,34840000,8,300.0\n");
  EXPECT_EQ(DetectTraceFormat(ftrace.path()), TraceFormat::kFtraceCsv);
  TempFile cp("c.csv", "1,7200000,28,4096,51200064\n");
  EXPECT_EQ(DetectTraceFormat(cp.path()), TraceFormat::kCloudPhysics);
  TempFile lat("l.log", "5, 100, 1, 4096\n");  // no offset column: still a latency log
  EXPECT_EQ(DetectTraceFormat(lat.path()), TraceFormat::kFioLatLog);
}

TEST(TraceDetectTest, UnknownAndEmptyFilesAreErrors) {
  TempFile junk("junk.txt", "\nhello world\n");
  try {
    DetectTraceFormat(junk.path());
    FAIL();
  } catch (const InputError& e) {
    EXPECT_EQ(std::string(e.what()),
              junk.path() + ":2: cannot tell the trace format from this line ('hello world'); pass --format (one "
                            "of: validate, ascii, blkparse, fio-iolog, fio-lat, msr, spc, ftrace, cloudphysics, strace, dtrace, auto)");
  }
  TempFile empty("empty.txt", "\n  \n");
  try {
    DetectTraceFormat(empty.path());
    FAIL();
  } catch (const InputError& e) {
    EXPECT_EQ(std::string(e.what()), empty.path() + ": the trace is empty, so its format cannot be told");
  }
}

TEST(TraceDetectTest, FormatOverridesDetection) {
  // An ascii trace read as validate: the override applies, so the first field is not an op.
  try {
    ReadAll(test::FormatFixture("disksim_ascii.txt"), TraceFormat::kDisksimValidate);
    FAIL();
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("disksim_ascii.txt:1: field op: expected R or W, got '0.000000'"),
              std::string::npos)
        << e.what();
  }
}

// ---------------------------------------------------------------- malformed lines, one class each

TEST(TraceMalformedTest, MissingField) {
  EXPECT_EQ(ErrorFor(TraceFormat::kMsr, "1,hm,0,Read,4096\n"),
            "bad.trace:1: field Size: missing (a line holds 7 fields: "
            "Timestamp,Hostname,DiskNumber,Type,Offset,Size,ResponseTime)");
  EXPECT_EQ(ErrorFor(TraceFormat::kDisksimAscii, "0.5 0 100\n"),
            "bad.trace:1: field nsectors: missing (a line holds 5 fields: time_ms devno blkno nsectors flags)");
}

TEST(TraceMalformedTest, NotANumber) {
  EXPECT_EQ(ErrorFor(TraceFormat::kSpc, "0,12x,512,R,0.5\n"), "bad.trace:1: field LBA: expected an integer, got '12x'");
  EXPECT_EQ(ErrorFor(TraceFormat::kDisksimAscii, "soon 0 1 1 1\n"),
            "bad.trace:1: field time: expected a number of milliseconds, got 'soon'");
  EXPECT_EQ(ErrorFor(TraceFormat::kCloudPhysics, "1,5,zz,512,1\n"),
            "bad.trace:1: field op: expected a hexadecimal number, got 'zz'");
}

TEST(TraceMalformedTest, BelowTheMinimum) {
  EXPECT_EQ(ErrorFor(TraceFormat::kDisksimAscii, "0.5 0 100 0 1\n"),
            "bad.trace:1: field nsectors: must be at least 1, got 0");
  EXPECT_EQ(ErrorFor(TraceFormat::kSpc, "0,1,512,R,-0.5\n"), "bad.trace:1: field Timestamp: must not be negative, got -0.5");
}

TEST(TraceMalformedTest, UnknownOperation) {
  EXPECT_EQ(ErrorFor(TraceFormat::kMsr, "1,hm,0,Delete,0,512,1\n"),
            "bad.trace:1: field Type: expected Read or Write, got 'Delete'");
  EXPECT_EQ(ErrorFor(TraceFormat::kSpc, "0,1,512,X,0.5\n"), "bad.trace:1: field Opcode: expected r, R, w or W, got 'X'");
  EXPECT_EQ(ErrorFor(TraceFormat::kFioIolog, "fio version 2 iolog\nf read 0 512\nf erase 0 512\n"),
            "bad.trace:3: field action: expected add, open, close, read, write, trim, sync, datasync, "
            "sync_file_range or wait, got 'erase'");
  EXPECT_EQ(ErrorFor(TraceFormat::kFioLatLog, "1, 100, 7, 4096, 0\n"),
            "bad.trace:1: field ddir: expected 0 (read), 1 (write) or 2 (trim), got 7");
  EXPECT_EQ(ErrorFor(TraceFormat::kFtraceCsv, "1.0,1.1,R1,8,8,100\n"),
            "bad.trace:1: field rwbs: expected the request type as letters (R, W, RS, WS, RA, FWS, D, N...), got 'R1'");
}

TEST(TraceMalformedTest, TextAfterTheLastField) {
  EXPECT_EQ(ErrorFor(TraceFormat::kDisksimAscii, "0.5 0 100 8 1 junk\n"),
            "bad.trace:1: field flags: unexpected text after the last field: 'junk'");
  EXPECT_EQ(ErrorFor(TraceFormat::kMsr, "1,hm,0,Read,0,512,1,2\n"),
            "bad.trace:1: field ResponseTime: unexpected text after the last field: '2'");
}

TEST(TraceMalformedTest, OutOfRange) {
  EXPECT_EQ(ErrorFor(TraceFormat::kMsr, "1,hm,0,Read,99999999999999999999,512,1\n"),
            "bad.trace:1: field Offset: out of range: '99999999999999999999'");
  EXPECT_EQ(ErrorFor(TraceFormat::kSpc, "0,1,512,R,1e300\n"), "bad.trace:1: field Timestamp: too large: 1e300");
  EXPECT_EQ(ErrorFor(TraceFormat::kDisksimAscii, "0 0 9000000000000000000 1 1\n"),
            "bad.trace:1: field blkno: too large: 9000000000000000000");
}

TEST(TraceMalformedTest, FormatSpecificShapes) {
  EXPECT_EQ(ErrorFor(TraceFormat::kBlkparse, "  8,16 5 1 0.1 7 D R 100 - 8 [x]\n"),
            "bad.trace:1: field nsectors: expected '+ COUNT' after the sector, got '-'");
  EXPECT_EQ(ErrorFor(TraceFormat::kBlkparse, "  8:16 5 1 0.1 7 D R 100 + 8 [x]\n"),
            "bad.trace:1: field device: expected MAJOR,MINOR, got '8:16'");
  EXPECT_EQ(ErrorFor(TraceFormat::kBlkparse, "  8,16 5 1 0.2 7 D R 100 + 8 [x]\n  8,16 5 2 0.1 7 C R 100 + 8 [0]\n"),
            "bad.trace:2: field time: the request completes before its D event on line 1");
  EXPECT_EQ(ErrorFor(TraceFormat::kFioIolog, "fio version 4 iolog\n"),
            "bad.trace:1: field header: expected 'fio version 2 iolog' or 'fio version 3 iolog', got 'fio version 4 "
            "iolog'");
  EXPECT_EQ(ErrorFor(TraceFormat::kFioIolog, "fio version 3 iolog\n10 f read 0\n"),
            "bad.trace:2: field length: missing (a line holds: timestamp filename action [offset length])");
  EXPECT_EQ(ErrorFor(TraceFormat::kFioLatLog, "1, 100, 0, 4096\n"),
            "bad.trace:1: field offset: missing: fio logs offsets only with log_offset=1, and replay needs them");
  EXPECT_EQ(ErrorFor(TraceFormat::kFtraceCsv, "1.0,0.9,R,8,8,100\n"), "bad.trace:1: field complete_s: before issue_s");
  EXPECT_EQ(ErrorFor(TraceFormat::kDisksimValidate, "R Hit 0 8 1.0\n"),
            "bad.trace:1: field next_interarrival_us: missing (a line holds 6 fields: op annotation blkno nsectors "
            "measured_service_us next_interarrival_us)");
}

// ---------------------------------------------------------------- time going backwards

TEST(TraceBackwardsTest, EachTimedFormatRejectsAnEarlierArrival) {
  EXPECT_EQ(ErrorFor(TraceFormat::kDisksimAscii, "2.0 0 1 1 1\n1.5 0 1 1 1\n"),
            "bad.trace:2: field time: goes backwards: 1.5 ms is before 2 ms, the arrival of an earlier request "
            "(the trace must be in arrival order)");
  EXPECT_EQ(ErrorFor(TraceFormat::kMsr, "1000,hm,0,Read,0,512,1\n990,hm,0,Read,0,512,1\n"),
            "bad.trace:2: field Timestamp: goes backwards: -0.001 ms is before 0 ms, the arrival of an earlier "
            "request (the trace must be in arrival order)");
  EXPECT_EQ(ErrorFor(TraceFormat::kSpc, "0,1,512,R,0.5\n0,1,512,R,0.25\n"),
            "bad.trace:2: field Timestamp: goes backwards: 250 ms is before 500 ms, the arrival of an earlier "
            "request (the trace must be in arrival order)");
  EXPECT_EQ(ErrorFor(TraceFormat::kFioIolog, "fio version 3 iolog\n20 f read 0 512\n10 f read 0 512\n"),
            "bad.trace:3: field timestamp: goes backwards: 0.01 ms is before 0.02 ms, the arrival of an earlier "
            "request (the trace must be in arrival order)");
  EXPECT_EQ(ErrorFor(TraceFormat::kBlkparse, "  8,0 0 1 0.5 1 D R 8 + 8 [a]\n  8,0 0 2 0.4 1 D R 16 + 8 [a]\n"),
            "bad.trace:2: field time: goes backwards: 400 ms is before 500 ms, the arrival of an earlier request "
            "(the trace must be in arrival order)");
  EXPECT_EQ(ErrorFor(TraceFormat::kFtraceCsv, "2.0,2.1,R,8,8,100\n1.0,1.1,R,8,8,100\n"),
            "bad.trace:2: field issue_s: goes backwards: 1000 ms is before 2000 ms, the arrival of an earlier "
            "request (the trace must be in arrival order)");
  EXPECT_EQ(ErrorFor(TraceFormat::kCloudPhysics, "1,5,28,512,1\n1,4,28,512,1\n"),
            "bad.trace:2: field time: goes backwards: 4000 ms is before 5000 ms, the arrival of an earlier "
            "request (the trace must be in arrival order)");
}

TEST(TraceBackwardsTest, FioLatLogOnlyFailsBeyondTheReorderWindow) {
  // Within the window, an earlier arrival on a later line is sorted back (see the fixture test).
  EXPECT_EQ(ErrorFor(TraceFormat::kFioLatLog, "20000, 1000000, 0, 512, 0\n21000, 9000000000, 0, 512, 0\n"), "");
  // Line 1 arrives at 20 s - 1 ms and is released by line 2's completion at 30 s (10 s
  // later); line 3 completes at 31 s after 30 s: it arrived at 1 s, before line 1.
  EXPECT_EQ(ErrorFor(TraceFormat::kFioLatLog,
                     "20000, 1000000, 0, 512, 0\n30000, 1000, 0, 512, 0\n31000, 30000000000, 0, 512, 0\n"),
            "bad.trace:3: field time: goes backwards: 1000 ms is before 19999 ms, the arrival of a request already "
            "replayed (a latency longer than the 10 s reorder window)");
}

// ---------------------------------------------------------------- --skip-bad

TEST(TraceSkipBadTest, CountsAndSkipsEachMalformedLine) {
  const std::string text =
      "1000,hm,0,Read,0,512,1\n"
      "1001,hm,0,Read,x,512,1\n"     // not a number
      "1002,hm,0,Read,0\n"           // missing fields
      "999,hm,0,Read,0,512,1\n"      // goes backwards
      "1003,hm,0,Trim,0,512,1\n"     // unknown op
      "1004,hm,0,Write,512,512,1\n";
  TempFile f("skip.csv", text);
  TraceReaderOptions o;
  o.skip_bad = true;
  auto reader = OpenTrace(f.path(), TraceFormat::kAuto, o);
  const auto got = ReadAll(*reader);
  ExpectRecords(got, {{0, R, 0, 512, 100, 1}, {400, W, 512, 512, 100, 6}});
  EXPECT_EQ(reader->stats().skipped, 4);
  EXPECT_EQ(reader->stats().first_skipped, f.path() + ":2: field Offset: expected an integer, got 'x'");
  // Without the option, the first bad line stops the read.
  EXPECT_THROW(ReadAll(f.path()), InputError);
}

TEST(TraceSkipBadTest, AMissingIologHeaderIsNotSkipped) {
  TempFile f("nohead.iolog", "f read 0 512\n");
  EXPECT_THROW(ReadAll(f.path(), TraceFormat::kFioIolog, /*skip_bad=*/true), InputError);
}

TEST(TraceSkipBadTest, BlkparseSkipsABadEventAndKeepsPairing) {
  const std::string text =
      "  8,0 0 1 0.1 1 D R 8 + 8 [a]\n"
      "  8,0 0 2 0.2 1 D R 16 + x [a]\n"
      "  8,0 0 3 0.3 1 C R 8 + 8 [0]\n";
  TempFile f("skip.blk", text);
  TraceReaderOptions o;
  o.skip_bad = true;
  auto reader = OpenTrace(f.path(), TraceFormat::kAuto, o);
  ExpectRecords(ReadAll(*reader), {{100'000'000, R, 4096, 4096, 200'000'000, 1}});
  EXPECT_EQ(reader->stats().skipped, 1);
}

// ---------------------------------------------------------------- the shared data

struct SharedCase {
  std::string path;  // under ../shared/data
  TraceFormat format;
  int64_t min_records;
  bool measured;
};

TEST(TraceSharedDataTest, EveryFormatInSharedDataParses) {
  const std::vector<SharedCase> cases = {
      {"disksim-valid/barracuda.trace", TraceFormat::kDisksimValidate, 10000, true},
      {"disksim-valid/hp_c2490a.trace", TraceFormat::kDisksimValidate, 7000, true},
      {"traces/msr-cambridge/msr-cambridge1-sample.csv", TraceFormat::kMsr, 1000, true},
      {"traces/blkparse/blktrace.txt", TraceFormat::kBlkparse, 150, true},
      {"traces/cloudphysics/cloudPhysicsIO.csv", TraceFormat::kCloudPhysics, 100000, false},
      {"fio-vm/pertrace/randread_qd4.iolog.gz", TraceFormat::kFioIolog, 70000, false},
      {"fio-vm/pertrace/randread_qd4_lat.1.log.gz", TraceFormat::kFioLatLog, 70000, true},
      {"fio-vm/pertrace/randread_qd4_clat.1.log.gz", TraceFormat::kFioLatLog, 70000, true},
      {"fio-vm/pertrace/ftrace_block_DC.csv.gz", TraceFormat::kFtraceCsv, 30000, true},
  };
  int present = 0;
  for (const SharedCase& c : cases) {
    const std::string path = test::SharedDataDir() + "/" + c.path;
    if (!std::filesystem::exists(path)) continue;
    ++present;
    SCOPED_TRACE(c.path);
    EXPECT_EQ(DetectTraceFormat(path), c.format);
    auto reader = OpenTrace(path);
    TraceRecord r;
    int64_t n = 0, measured = 0;
    SimTime last = std::numeric_limits<SimTime>::min();
    while (reader->Next(r)) {
      ++n;
      EXPECT_GE(r.time_ns, last);
      last = r.time_ns;
      EXPECT_GT(r.size_bytes, 0);
      EXPECT_GE(r.offset_bytes, 0);
      if (r.measured_latency_ns >= 0) ++measured;
    }
    EXPECT_GE(n, c.min_records);
    EXPECT_EQ(reader->stats().skipped, 0);
    if (c.measured) {
      EXPECT_GE(measured, n * 9 / 10);
    } else {
      EXPECT_EQ(measured, 0);
    }
  }
  if (present == 0) GTEST_SKIP() << "../shared/data is absent: nothing to parse";
}

}  // namespace trace_reader_test
}  // namespace ziosim
