// The one-pass line scanner (sim/trace/line_scanner.h) against slow
// references, and each reader's one-pass path against its general path: the
// same trace spelled so that every line takes the other path must give the
// same records.
#include "sim/trace/line_scanner.h"

#include <gtest/gtest.h>

#include <charconv>
#include <cstdio>
#include <random>
#include <string>
#include <vector>

#include "sim/trace/trace_reader.h"
#include "tests/test_util.h"

namespace ziosim {
namespace {

// What ScanDigits must give: all leading digits, if there are 1 to 18.
bool ReferenceDigits(std::string_view s, int64_t& v, size_t& used) {
  used = 0;
  while (used < s.size() && s[used] >= '0' && s[used] <= '9') ++used;
  if (used == 0 || used > 18) return false;
  std::from_chars(s.data(), s.data() + used, v);
  return true;
}

std::string RandomToken(std::mt19937_64& rng) {
  static const std::string kAlphabet = "0123456789.9/:a -\t";
  std::string s;
  const int n = static_cast<int>(rng() % 24);
  for (int i = 0; i < n; ++i) s += kAlphabet[rng() % (i < 20 ? 10 : kAlphabet.size())];
  // Mix in other bytes, digits' neighbours and high bytes among them.
  if (!s.empty() && rng() % 3 == 0) s[rng() % s.size()] = static_cast<char>("/:\x80\xff.0"[rng() % 6]);
  return s;
}

TEST(LineScanner, DigitsMatchTheReferenceOnRandomTokens) {
  std::mt19937_64 rng(7);
  for (int i = 0; i < 200000; ++i) {
    const std::string s = RandomToken(rng);
    int64_t want = -1, got = -1;
    size_t used = 0;
    const bool ok = ReferenceDigits(s, want, used);
    const char* p = s.data();
    ASSERT_EQ(ScanDigits(p, s.data() + s.size(), got), ok) << "'" << s << "'";
    if (ok) {
      EXPECT_EQ(got, want) << s;
      EXPECT_EQ(static_cast<size_t>(p - s.data()), used) << s;
    } else {
      EXPECT_EQ(p, s.data()) << "moved on failure: " << s;
    }
  }
}

TEST(LineScanner, DecimalIsExactAndRounds) {
  const auto scan = [](std::string_view s, int unit_exp, int64_t& v) {
    const char* p = s.data();
    const bool ok = ScanDecimal(p, s.data() + s.size(), unit_exp, v);
    return ok ? static_cast<int>(p - s.data()) : -1;
  };
  int64_t v = 0;
  EXPECT_EQ(scan("0.000031865 x", 9, v), 11);
  EXPECT_EQ(v, 31865);
  EXPECT_EQ(scan("0.0000315", 6, v), 9);  // 31.5 us rounds up
  EXPECT_EQ(v, 32);
  EXPECT_EQ(scan("0.0000314999", 6, v), 12);
  EXPECT_EQ(v, 31);
  EXPECT_EQ(scan("12", 3, v), 2);  // no decimals
  EXPECT_EQ(v, 12000);
  EXPECT_EQ(scan("5.", 9, v), 2);
  EXPECT_EQ(v, 5000000000);
  EXPECT_EQ(scan("1700000000.123456", 9, v), 17);
  EXPECT_EQ(v, 1700000000123456000);
  EXPECT_EQ(scan(".5", 9, v), -1);  // the general path reads these
  EXPECT_EQ(scan("-1.0", 9, v), -1);
  EXPECT_EQ(scan("99999999999999999.0", 9, v), -1);  // past kMaxTraceTimeNs
  EXPECT_EQ(scan("123456789012345678", 0, v), -1);   // 18 whole digits
}

TEST(LineScanner, DecimalMatchesExactArithmeticOnRandomTimes) {
  std::mt19937_64 rng(11);
  for (int i = 0; i < 100000; ++i) {
    const int64_t whole = static_cast<int64_t>(rng() % 100000000);
    const int decimals = static_cast<int>(rng() % 13);
    std::string frac;
    for (int d = 0; d < decimals; ++d) frac += static_cast<char>('0' + rng() % 10);
    const std::string s = std::to_string(whole) + (decimals > 0 || rng() % 2 ? "." : "") + frac;
    // The count of ns: whole * 1e9 + the first 9 decimals, + 1 if the 10th is >= 5.
    std::string nine = frac.substr(0, std::min<size_t>(9, frac.size()));
    nine.resize(9, '0');
    const int64_t want = whole * 1000000000 + std::stoll(nine) + (frac.size() > 9 && frac[9] >= '5' ? 1 : 0);
    int64_t got = 0;
    const char* p = s.data();
    ASSERT_TRUE(ScanDecimal(p, s.data() + s.size(), 9, got)) << s;
    EXPECT_EQ(got, want) << s;
    EXPECT_EQ(p, s.data() + s.size()) << s;
  }
}

TEST(LineScanner, StepsConsumeOnlyWhatTheyMatch) {
  LineScanner s("  8,16\t 5 read(3</a b>, \"x\\\"y\"..., 9) = 9");
  int64_t v = 0;
  std::string_view field;
  EXPECT_FALSE(s.Digits(v));
  EXPECT_TRUE(s.Blanks());
  EXPECT_FALSE(s.Blanks());
  EXPECT_TRUE(s.Digits(v) && v == 8);
  EXPECT_TRUE(s.Char(','));
  EXPECT_TRUE(s.Digits(v) && v == 16);
  EXPECT_TRUE(s.Blanks());  // a tab and a space
  EXPECT_TRUE(s.Digits(v) && v == 5);
  EXPECT_TRUE(s.Blanks());
  EXPECT_FALSE(s.Until(')', field));  // a blank comes first
  EXPECT_TRUE(s.Until('(', field));
  EXPECT_EQ(field, "read");
  EXPECT_TRUE(s.Digits(v) && v == 3);
  EXPECT_TRUE(s.Char('<'));
  EXPECT_TRUE(s.Through('>', field));  // blanks allowed
  EXPECT_EQ(field, "/a b");
  EXPECT_FALSE(s.Literal(",  "));
  EXPECT_TRUE(s.Literal(", "));
  EXPECT_TRUE(s.Quoted());  // the escaped quote does not end it
  EXPECT_TRUE(s.Literal("..., "));
  EXPECT_TRUE(s.Digits(v) && v == 9);
  EXPECT_EQ(s.Rest(), ") = 9");
  EXPECT_FALSE(s.AtEnd());
  EXPECT_FALSE(LineScanner("\"open").Quoted());
  EXPECT_FALSE(LineScanner("\"ends in a backslash\\").Quoted());
}

std::vector<TraceRecord> ReadAll(const std::string& text, TraceFormat format) {
  test::TempFile f("fast_path.trace", text);
  auto reader = OpenTrace(f.path(), format);
  std::vector<TraceRecord> out;
  TraceRecord r;
  while (reader->Next(r)) out.push_back(r);
  return out;
}

void ExpectSameRecords(const std::vector<TraceRecord>& a, const std::vector<TraceRecord>& b) {
  ASSERT_EQ(a.size(), b.size());
  for (size_t i = 0; i < a.size(); ++i) {
    SCOPED_TRACE("record " + std::to_string(i));
    EXPECT_EQ(a[i].time_ns, b[i].time_ns);
    EXPECT_EQ(a[i].op, b[i].op);
    EXPECT_EQ(a[i].offset_bytes, b[i].offset_bytes);
    EXPECT_EQ(a[i].size_bytes, b[i].size_bytes);
    EXPECT_EQ(a[i].measured_latency_ns, b[i].measured_latency_ns);
    EXPECT_EQ(a[i].line, b[i].line);
    EXPECT_EQ(a[i].device, b[i].device);
    EXPECT_EQ(a[i].file, b[i].file);
    EXPECT_EQ(a[i].stream, b[i].stream);
  }
}

// Each trace is written twice: as its tools print it (the one-pass path) and
// respelled in a way only the general path accepts, with the same meaning.
TEST(ReaderFastPath, MsrGivesWhatTheGeneralPathGives) {
  std::mt19937_64 rng(3);
  std::string plain, spaced;
  for (int i = 0; i < 2000; ++i) {
    const std::string t = std::to_string(128166372000000000LL + i * 977);
    const char* type = rng() % 3 == 0 ? "Write" : (rng() % 2 ? "Read" : "read");
    const std::string rest = std::to_string(rng() % 2) + "," + type + "," + std::to_string((rng() % 100000) * 512) +
                             "," + std::to_string(512 * (1 + rng() % 64)) + "," + std::to_string(rng() % 90000);
    plain += t + ",hm," + rest + "\n";
    spaced += t + ", hm," + rest + "\n";  // a blank after a comma
  }
  ExpectSameRecords(ReadAll(plain, TraceFormat::kMsr), ReadAll(spaced, TraceFormat::kMsr));
}

TEST(ReaderFastPath, BlkparseGivesWhatTheGeneralPathGives) {
  std::mt19937_64 rng(5);
  std::string plain, respelled;
  double t = 0;
  for (int i = 0; i < 2000; ++i) {
    t += (rng() % 1000) * 1e-6;
    const long long sector = static_cast<long long>(rng() % 100000000);
    const int n = 8 * static_cast<int>(1 + rng() % 32);
    const char* rwbs = rng() % 4 == 0 ? "WS" : "R";
    char line[512];
    // Q (passed over), D, C, and now and then a flush without data.
    for (const auto& [action, dt, pid] : {std::tuple{"Q", 0.0, 4711}, {"D", 1e-5, 4711}, {"C", 3e-4, 0}}) {
      std::snprintf(line, sizeof line, "  8,16   1 %8d %14.9f %5d  %s  %3s %lld + %d [fio]\n", i, t + dt, pid, action,
                    rwbs, sector, n);
      plain += line;
      // The cpu column is not read; only the general path lets it be anything.
      std::snprintf(line, sizeof line, "  8,16   x %8d %14.9f %5d  %s  %3s %lld + %d [fio]\n", i, t + dt, pid, action,
                    rwbs, sector, n);
      respelled += line;
    }
    if (i % 50 == 0) {
      std::snprintf(line, sizeof line, "  8,16   0 %8d %14.9f  4711  D  FWS [kworker]\n", i, t + 2e-5);
      plain += line;
      std::snprintf(line, sizeof line, "  8,16   x %8d %14.9f  4711  D  FWS [kworker]\n", i, t + 2e-5);
      respelled += line;
    }
  }
  const auto a = ReadAll(plain, TraceFormat::kBlkparse);
  EXPECT_EQ(a.size(), 2000u);
  ExpectSameRecords(a, ReadAll(respelled, TraceFormat::kBlkparse));
}

TEST(ReaderFastPath, StraceGivesWhatTheGeneralPathGives) {
  std::mt19937_64 rng(9);
  std::string plain = "4711 23:59:59.000000 openat(AT_FDCWD</d>, \"f\", O_RDONLY) = 3</d/f> <0.000010>\n";
  std::string respelled = plain;
  int64_t us = 86399000000;  // one second before midnight: the clock wraps
  for (int i = 0; i < 2000; ++i) {
    us += static_cast<int64_t>(rng() % 3000);
    char clock[32], line[256];
    std::snprintf(clock, sizeof clock, "%02lld:%02lld:%02lld.%06lld", static_cast<long long>(us / 3600000000 % 24),
                  static_cast<long long>(us / 60000000 % 60), static_cast<long long>(us / 1000000 % 60),
                  static_cast<long long>(us % 1000000));
    const int bytes = static_cast<int>(rng() % 131073);
    if (rng() % 3 == 0) {
      std::snprintf(line, sizeof line, "pread64(3</d/f>, \"\"..., 131072, %d) = %d <0.000%03d>",
                    static_cast<int>(rng() % 1000000), bytes, static_cast<int>(rng() % 1000));
    } else {
      std::snprintf(line, sizeof line, "read(3</d/f>, \"\"..., 131072) = %d <0.000%03d>", bytes,
                    static_cast<int>(rng() % 1000));
    }
    const std::string pid = std::to_string(4711 + rng() % 2);
    plain += pid + " " + clock + " " + line + "\n";
    respelled += "[pid " + pid + "] " + clock + " " + line + "\n";  // strace without -ff's column
  }
  const auto a = ReadAll(plain, TraceFormat::kStrace);
  EXPECT_GT(a.size(), 1900u);  // reads that returned 0 are passed over
  ExpectSameRecords(a, ReadAll(respelled, TraceFormat::kStrace));
}

}  // namespace
}  // namespace ziosim
