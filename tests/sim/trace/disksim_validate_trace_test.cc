#include "sim/trace/disksim_validate_trace.h"

#include <gtest/gtest.h>
#include <unistd.h>
#include <zlib.h>

#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <fstream>
#include <string>
#include <vector>

#include "sim/core/status.h"
#include "sim/trace/line_reader.h"
#include "tests/test_util.h"

namespace ziosim {
namespace {

using test::TempFile;

void WriteText(const TempFile& f, const std::string& text) { std::ofstream(f.path(), std::ios::binary) << text; }

void WriteGzip(const TempFile& f, const std::string& text) {
  gzFile gz = gzopen(f.path().c_str(), "wb");
  gzwrite(gz, text.data(), static_cast<unsigned>(text.size()));
  gzclose(gz);
}

std::vector<ValidateRecord> ReadAll(const std::string& path) {
  DisksimValidateTrace trace(path);
  std::vector<ValidateRecord> out;
  ValidateRecord r;
  while (trace.Next(r)) out.push_back(r);
  return out;
}

// The InputError message for `text` as the only line of a file, or "" if it parses.
std::string ErrorFor(const std::string& text) {
  try {
    ParseValidateLine(text, "t.trace", 7);
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

constexpr char kMissing[] =
    "missing (a line holds 6 fields: op annotation blkno nsectors measured_service_us next_interarrival_us)";

// ---- LineReader

TEST(LineReaderTest, ReadsLinesWithNumbersAndStripsLineEnds) {
  TempFile path_file("lines.txt", "");
  WriteText(path_file, "one\r\n\ntwo\nthree");
  const std::string& path = path_file.path();
  LineReader reader(path);
  std::string_view line;
  std::vector<std::pair<int, std::string>> got;
  while (reader.Next(line)) got.emplace_back(reader.line_number(), std::string(line));
  const std::vector<std::pair<int, std::string>> want = {{1, "one"}, {2, ""}, {3, "two"}, {4, "three"}};
  EXPECT_EQ(got, want);
  EXPECT_FALSE(reader.Next(line));
}

TEST(LineReaderTest, ReadsGzipTransparently) {
  TempFile path_file("lines.txt.gz", "");
  WriteGzip(path_file, "alpha\nbeta\n");
  const std::string& path = path_file.path();
  LineReader reader(path);
  std::string_view line;
  ASSERT_TRUE(reader.Next(line));
  EXPECT_EQ(line, "alpha");
  ASSERT_TRUE(reader.Next(line));
  EXPECT_EQ(line, "beta");
  EXPECT_FALSE(reader.Next(line));
  EXPECT_EQ(reader.line_number(), 2);
}

TEST(LineReaderTest, HandlesLinesLongerThanItsBuffer) {
  const std::string long_line(700 * 1024, 'x');
  TempFile path_file("long.txt", "");
  WriteText(path_file, "a\n" + long_line + "\nb\n");
  const std::string& path = path_file.path();
  LineReader reader(path);
  std::string_view line;
  ASSERT_TRUE(reader.Next(line));
  ASSERT_TRUE(reader.Next(line));
  EXPECT_EQ(line, long_line);
  ASSERT_TRUE(reader.Next(line));
  EXPECT_EQ(line, "b");
  EXPECT_EQ(reader.line_number(), 3);
}

TEST(LineReaderTest, MissingFileNamesTheFile) {
  const std::string path = ::testing::TempDir() + "ziosim_" + std::to_string(::getpid()) + "_does-not-exist.trace";
  try {
    LineReader reader(path);
    FAIL() << "expected InputError";
  } catch (const InputError& e) {
    EXPECT_EQ(std::string(e.what()), path + ": cannot open: No such file or directory");
  }
}

TEST(LineReaderTest, TruncatedGzipIsAnInputError) {
  std::string text;
  for (int i = 0; i < 20000; ++i) text += "R Hit " + std::to_string(i * 7919) + " 8 1000 2000\n";
  TempFile whole("whole.gz", "");
  WriteGzip(whole, text);
  std::ifstream in(whole.path(), std::ios::binary);
  const std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  TempFile cut_file("cut.gz", "");
  WriteText(cut_file, bytes.substr(0, bytes.size() / 2));
  const std::string& cut = cut_file.path();
  LineReader reader(cut);
  std::string_view line;
  try {
    while (reader.Next(line)) {
    }
    FAIL() << "expected InputError";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find(cut + ":"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("read error"), std::string::npos) << e.what();
  }
}

// ---- Good lines

TEST(DisksimValidateTraceTest, ParsesEveryField) {
  const ValidateRecord r = ParseValidateLine("W Trip 1205090    13     10133.390     19712.710", "t", 5);
  EXPECT_EQ(r.op, IoOp::kWrite);
  EXPECT_EQ(r.annotation, ValidateAnnotation::kTrip);
  EXPECT_EQ(r.lbn, 1205090);
  EXPECT_EQ(r.blocks, 13);
  EXPECT_DOUBLE_EQ(r.measured_ms, 10.13339);
  EXPECT_EQ(r.gap_after_ns, 19712710);
  EXPECT_EQ(r.line, 5);
}

TEST(DisksimValidateTraceTest, KeepsMeasuredTimeAsTraceMicrosecondsOverAThousand) {
  // The oracle's measured_ms is field 5 / 1000; rounding to ns first would differ.
  const ValidateRecord r = ParseValidateLine("R Hit 1390458 14 12434.375000 27307.318970", "t", 1);
  EXPECT_EQ(r.measured_ms, 12434.375 / 1000.0);
  EXPECT_EQ(r.gap_after_ns, 27307319);
}

// The parser reads the traces' DIGITS.DIGITS times without from_chars; the
// values must be the bits from_chars gives, on its fast path and off it.
TEST(DisksimValidateTraceTest, TimesAreTheValuesFromCharsGives) {
  for (const std::string t : {"0", "0.000", "1686.00000", "14095.370", "27307.318970", "0.1", "0.30000000000000004",
                              "9007199254740992", "9007199254740993", "1234567.89012345", "123456789.123456789",
                              "0000000000000000000001.5", "5.", ".5", "1e3", "2.5E-1",
                              // gaps of a half ns, and just below and above one
                              "0.0005", "0.0015", "0.0025", "0.00049999", "0.00050001", "1.0005", "7.9994999",
                              "123456789.0005"}) {
    double want = 0;
    std::from_chars(t.data(), t.data() + t.size(), want);
    const ValidateRecord r = ParseValidateLine("R Hit 0 1 " + t + " 0", "t", 1);
    EXPECT_EQ(r.measured_ms, want / 1000.0) << t;
    // The digits, where the text has them, give the same time.
    if (r.measured_decimals >= 0) {
      EXPECT_EQ(FixedPointMicrosToMs(r.measured_digits, r.measured_decimals), r.measured_ms) << t;
    }
    if (want < 1e12) {  // gaps beyond 292 years of ns are an error, not a value
      EXPECT_EQ(ParseValidateLine("R Hit 0 1 0 " + t, "t", 1).gap_after_ns, std::llround(want * 1000)) << t;
    }
  }
}

// The measured time's text in fixed point, from either parser (the one-pass
// scanner, and the general one for a line it leaves, here for its gap's exponent).
TEST(DisksimValidateTraceTest, KeepsTheMeasuredTimesDigits) {
  for (const std::string gap : {"0", "1e3"}) {
    const ValidateRecord r = ParseValidateLine("R Hit 0 1 0012434.375000 " + gap, "t", 1);
    EXPECT_EQ(r.measured_digits, 12434375000u) << gap;
    EXPECT_EQ(r.measured_decimals, 6) << gap;
    EXPECT_EQ(ParseValidateLine("R Hit 0 1 15362 " + gap, "t", 1).measured_decimals, 0) << gap;
  }
  // No fixed-point text, or more digits than a double holds exactly: no digits.
  for (const std::string t : {"1.5e3", "15E-1", "9007199254740993", "5.", ".5"}) {
    const ValidateRecord r = ParseValidateLine("R Hit 0 1 " + t + " 0", "t", 1);
    EXPECT_EQ(r.measured_decimals, -1) << t;
  }
}

// Any blanks separate the fields, before the first and after the last too.
TEST(DisksimValidateTraceTest, ReadsAnyBlanksAroundFields) {
  const ValidateRecord want = ParseValidateLine("W Doub 10 4 1.5 2.25", "t", 3);
  for (const std::string line : {"\tW  Doub\t10 4\v1.5 2.25  \t", " W Doub 10 4 1.5 2.25\r", "W\fDoub 10 4 1.5 2.25"}) {
    const ValidateRecord r = ParseValidateLine(line, "t", 3);
    EXPECT_EQ(r.op, want.op) << line;
    EXPECT_EQ(r.annotation, want.annotation) << line;
    EXPECT_EQ(r.lbn, want.lbn) << line;
    EXPECT_EQ(r.blocks, want.blocks) << line;
    EXPECT_EQ(r.measured_ms, want.measured_ms) << line;
    EXPECT_EQ(r.gap_after_ns, want.gap_after_ns) << line;
  }
  EXPECT_EQ(want.op, IoOp::kWrite);
  EXPECT_EQ(want.gap_after_ns, 2250);
}

TEST(DisksimValidateTraceTest, CountsUpToTheInt64Limit) {
  EXPECT_EQ(ParseValidateLine("R Hit 007 9223372036854775807 0 0", "t", 1).blocks, INT64_MAX);
  EXPECT_EQ(ParseValidateLine("R Hit 007 1 0 0", "t", 1).lbn, 7);
  EXPECT_EQ(ErrorFor("R Hit 9223372036854775808 8 1 1"),
            "t.trace:7: field blkno: out of range: '9223372036854775808'");
}

TEST(DisksimValidateTraceTest, AcceptsEveryAnnotation) {
  EXPECT_EQ(ParseValidateLine("R Hit 0 1 0 0", "t", 1).annotation, ValidateAnnotation::kHit);
  EXPECT_EQ(ParseValidateLine("R Miss 0 1 0 0", "t", 1).annotation, ValidateAnnotation::kMiss);
  EXPECT_EQ(ParseValidateLine("W Doub 0 1 0 0", "t", 1).annotation, ValidateAnnotation::kDoub);
  EXPECT_EQ(ParseValidateLine("W Trip 0 1 0 0", "t", 1).annotation, ValidateAnnotation::kTrip);
  EXPECT_STREQ(AnnotationName(ValidateAnnotation::kDoub), "Doub");
}

TEST(DisksimValidateTraceTest, StreamsAFileSkippingBlankLines) {
  TempFile file("good.trace", "");
  WriteText(file, "R Hit 100 8 1234.5 10.25\r\n\n   \n\tW\tHit\t200\t16\t500\t0\nR Miss 300 4 1 2");
  const std::string& path = file.path();
  const std::vector<ValidateRecord> rs = ReadAll(path);
  ASSERT_EQ(rs.size(), 3u);
  EXPECT_EQ(rs[0].op, IoOp::kRead);
  EXPECT_EQ(rs[0].lbn, 100);
  EXPECT_EQ(rs[0].blocks, 8);
  EXPECT_DOUBLE_EQ(rs[0].measured_ms, 1.2345);
  EXPECT_EQ(rs[0].gap_after_ns, 10250);
  EXPECT_EQ(rs[0].line, 1);
  EXPECT_EQ(rs[1].op, IoOp::kWrite);
  EXPECT_EQ(rs[1].line, 4);
  EXPECT_EQ(rs[2].annotation, ValidateAnnotation::kMiss);
  EXPECT_EQ(rs[2].line, 5);
}

TEST(DisksimValidateTraceTest, ReadsGzipTraces) {
  TempFile path_file("good.trace.gz", "");
  WriteGzip(path_file, "R Hit 100 8 1234.5 10.25\nW Hit 5 1 1 1\n");
  const std::string& path = path_file.path();
  const std::vector<ValidateRecord> rs = ReadAll(path);
  ASSERT_EQ(rs.size(), 2u);
  EXPECT_EQ(rs[1].lbn, 5);
}

TEST(DisksimValidateTraceTest, ReportsTheFileAndLineOfABadLine) {
  TempFile path_file("bad.trace", "");
  WriteText(path_file, "R Hit 100 8 1234.5 10.25\n\nR Hit 1 0 1 1\n");
  const std::string& path = path_file.path();
  DisksimValidateTrace trace(path);
  ValidateRecord r;
  ASSERT_TRUE(trace.Next(r));
  try {
    trace.Next(r);
    FAIL() << "expected InputError";
  } catch (const InputError& e) {
    EXPECT_EQ(std::string(e.what()), path + ":3: field nsectors: must be at least 1, got 0");
  }
}

// ---- Each class of malformed line, with its exact message

TEST(DisksimValidateTraceTest, WrongOp) {
  EXPECT_EQ(ErrorFor("X Hit 1 1 1 1"), "t.trace:7: field op: expected R or W, got 'X'");
  EXPECT_EQ(ErrorFor("r Hit 1 1 1 1"), "t.trace:7: field op: expected R or W, got 'r'");
}

TEST(DisksimValidateTraceTest, WrongAnnotation) {
  EXPECT_EQ(ErrorFor("R hit 1 1 1 1"),
            "t.trace:7: field annotation: expected Hit, Miss, Doub or Trip, got 'hit'");
}

TEST(DisksimValidateTraceTest, NonNumericFields) {
  EXPECT_EQ(ErrorFor("R Hit abc 1 1 1"), "t.trace:7: field blkno: expected an integer, got 'abc'");
  EXPECT_EQ(ErrorFor("R Hit 1 4x 1 1"), "t.trace:7: field nsectors: expected an integer, got '4x'");
  EXPECT_EQ(ErrorFor("R Hit 1 1.5 1 1"), "t.trace:7: field nsectors: expected an integer, got '1.5'");
  EXPECT_EQ(ErrorFor("R Hit 1 1 12us 1"),
            "t.trace:7: field measured_service_us: expected a finite number of microseconds, got '12us'");
  EXPECT_EQ(ErrorFor("R Hit 1 1 1 x"),
            "t.trace:7: field next_interarrival_us: expected a finite number of microseconds, got 'x'");
}

TEST(DisksimValidateTraceTest, NonFiniteTimes) {
  EXPECT_EQ(ErrorFor("R Hit 1 1 nan 1"),
            "t.trace:7: field measured_service_us: expected a finite number of microseconds, got 'nan'");
  EXPECT_EQ(ErrorFor("R Hit 1 1 1 inf"),
            "t.trace:7: field next_interarrival_us: expected a finite number of microseconds, got 'inf'");
  EXPECT_EQ(ErrorFor("R Hit 1 1 1 1e300"), "t.trace:7: field next_interarrival_us: too large");
}

TEST(DisksimValidateTraceTest, NegativeOrZeroSizes) {
  EXPECT_EQ(ErrorFor("R Hit 1 0 1 1"), "t.trace:7: field nsectors: must be at least 1, got 0");
  EXPECT_EQ(ErrorFor("R Hit 1 -8 1 1"), "t.trace:7: field nsectors: must be at least 1, got -8");
  EXPECT_EQ(ErrorFor("R Hit -1 8 1 1"), "t.trace:7: field blkno: must be at least 0, got -1");
  EXPECT_EQ(ErrorFor("R Hit 99999999999999999999 8 1 1"),
            "t.trace:7: field blkno: out of range: '99999999999999999999'");
}

TEST(DisksimValidateTraceTest, NegativeTimes) {
  EXPECT_EQ(ErrorFor("R Hit 1 1 -3 1"), "t.trace:7: field measured_service_us: must not be negative, got -3");
  EXPECT_EQ(ErrorFor("R Hit 1 1 3 -0.5"),
            "t.trace:7: field next_interarrival_us: must not be negative, got -0.5");
}

TEST(DisksimValidateTraceTest, MissingFields) {
  EXPECT_EQ(ErrorFor("R Hit 1 1 1"), std::string("t.trace:7: field next_interarrival_us: ") + kMissing);
  EXPECT_EQ(ErrorFor("R"), std::string("t.trace:7: field annotation: ") + kMissing);
}

TEST(DisksimValidateTraceTest, TrailingJunk) {
  EXPECT_EQ(ErrorFor("R Hit 1 1 1 1 junk"),
            "t.trace:7: field next_interarrival_us: unexpected text after the last field: 'junk'");
}

}  // namespace
}  // namespace ziosim
