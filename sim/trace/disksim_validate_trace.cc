#include "sim/trace/disksim_validate_trace.h"

#include <array>
#include <charconv>
#include <cmath>
#include <cstddef>
#include <limits>

#include "sim/core/status.h"
#include "sim/trace/line_trace_reader.h"

namespace ziosim {
namespace {

constexpr int kFields = 6;
constexpr std::array<const char*, kFields> kFieldNames = {
    "op", "annotation", "blkno", "nsectors", "measured_service_us", "next_interarrival_us"};

// Splits off the next whitespace-separated token of `rest`; empty if none is left.
std::string_view NextToken(std::string_view& rest) {
  size_t b = 0;
  while (b < rest.size() && IsTraceSpace(rest[b])) ++b;
  size_t e = b;
  while (e < rest.size() && !IsTraceSpace(rest[e])) ++e;
  const std::string_view token = rest.substr(b, e - b);
  rest.remove_prefix(e);
  return token;
}

// The traces' own number format, DIGITS or DIGITS.DIGITS with at most 19
// digits in all, read from `p` on: sets `digits` (the digits without the point,
// which cannot overflow 64 bits) and `decimals` (how many follow the point), so
// that the value is exactly digits / 10^decimals, and leaves `p` after the
// number. False if there is no number in that form there (signs, exponents,
// "inf", ".5", "5."), which the general parsers handle. Always inlined: a
// line's four calls cost more in their prologues than in their digits.
[[gnu::always_inline]] inline bool ScanFixedPointAt(const char*& p, const char* end, uint64_t& digits,
                                                    int& decimals) {
  uint64_t v = 0;  // may wrap on too many digits; then rejected below
  const char* i = p;
  const ptrdiff_t integer_digits = AppendDigits(i, end, v);
  if (integer_digits == 0) return false;
  i += integer_digits;
  ptrdiff_t fraction_digits = 0;
  if (i != end && *i == '.') {
    ++i;
    fraction_digits = AppendDigits(i, end, v);
    if (fraction_digits == 0) return false;
    i += fraction_digits;
  }
  if (integer_digits + fraction_digits > 19) return false;
  digits = v;
  decimals = static_cast<int>(fraction_digits);
  p = i;
  return true;
}

// The same for a whole token.
bool ScanFixedPoint(std::string_view t, uint64_t& digits, int& decimals) {
  const char* p = t.data();
  const char* const end = p + t.size();
  return ScanFixedPointAt(p, end, digits, decimals) && p == end;
}

// Exact powers of ten as doubles (every 10^k up to 10^22 is).
constexpr std::array<double, 20> kPowersOfTen = {1e0,  1e1,  1e2,  1e3,  1e4,  1e5,  1e6,  1e7,  1e8,  1e9,
                                                 1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19};

// Fixed-point text (ScanFixedPoint) as the nearest double, without from_chars'
// general algorithm: when the digits fit a double's 53-bit mantissa, digits and
// 10^decimals are both exact doubles and one IEEE division rounds their
// quotient correctly (Clinger's fast path), so the value is bit for bit the
// one from_chars gives. False when the text is not in that form.
bool FixedPointValue(uint64_t digits, int decimals, double& value) {
  if (digits > (uint64_t{1} << 53)) return false;
  value = static_cast<double>(digits) / kPowersOfTen[static_cast<size_t>(decimals)];
  return true;
}

bool FixedPointValue(std::string_view t, double& value) {
  uint64_t digits = 0;
  int decimals = 0;
  return ScanFixedPoint(t, digits, decimals) && FixedPointValue(digits, decimals, value);
}

// A measured time, as validate records keep it.
double MicrosToMs(double us) { return us / 1000.0; }

// A gap too long for 64-bit ns (292 years) is a corrupt line, not an overflow.
bool MicrosFitNs(double us) { return us * kNsPerUs < static_cast<double>(std::numeric_limits<SimTime>::max() / 2); }
// std::llround(us * 1000) for us >= 0 (the parsers refuse negative times), without
// the library call: a double's fractional part is exact, so comparing it with one
// half rounds halves away from zero, as llround does.
SimTime RoundMicrosToNs(double us) {
  const double ns = us * kNsPerUs;
  const auto whole = static_cast<SimTime>(ns);
  return ns - static_cast<double>(whole) >= 0.5 ? whole + 1 : whole;
}

// A line in the traces' own layout, read in one pass without splitting it into
// tokens first (the general parser below costs several times as much a line):
// blanks, R|W, an annotation, two plain integers and two fixed-point times
// (ScanFixedPointAt), each field ended by blanks or the line's end. Any other
// line -- signs, exponents, a zero nsectors, a malformed or missing field -- is
// left to the general parser, which reads it or reports it; for a line that
// both read they give the same record.
class LayoutScanner {
 public:
  explicit LayoutScanner(std::string_view text) : p_(text.data()), end_(text.data() + text.size()) {}

  bool Parse(ValidateRecord& r) {
    SkipBlanks();
    uint64_t measured_digits = 0;
    int measured_decimals = 0;
    double measured_us = 0, gap_us = 0;
    if (!Op(r.op) || !Annotation(r.annotation) || !Count(0, r.lbn) || !Count(1, r.blocks) ||
        !Micros(measured_us, measured_digits, measured_decimals) || !Micros(gap_us) || p_ != end_ ||
        !MicrosFitNs(gap_us)) {
      return false;
    }
    r.measured_ms = MicrosToMs(measured_us);
    r.measured_digits = measured_digits;
    r.measured_decimals = measured_decimals;
    r.gap_after_ns = RoundMicrosToNs(gap_us);
    return true;
  }

 private:
  void SkipBlanks() { p_ = ziosim::SkipBlanks(p_, end_); }
  // A field ends with blanks (skipped) or with the line.
  bool FieldEnd() {
    if (p_ == end_) return true;
    if (!IsTraceSpace(*p_)) return false;
    SkipBlanks();
    return true;
  }
  // `word` as the whole next field.
  bool Word(std::string_view word) {
    if (static_cast<size_t>(end_ - p_) < word.size() || std::string_view(p_, word.size()) != word) return false;
    p_ += word.size();
    return FieldEnd();
  }
  bool Op(IoOp& op) {
    op = p_ != end_ && *p_ == 'W' ? IoOp::kWrite : IoOp::kRead;
    return Word(op == IoOp::kWrite ? "W" : "R");
  }
  bool Annotation(ValidateAnnotation& a) {
    if (p_ == end_) return false;
    switch (*p_) {
      case 'H': a = ValidateAnnotation::kHit; return Word("Hit");
      case 'M': a = ValidateAnnotation::kMiss; return Word("Miss");
      case 'D': a = ValidateAnnotation::kDoub; return Word("Doub");
      case 'T': a = ValidateAnnotation::kTrip; return Word("Trip");
      default: return false;
    }
  }
  bool Count(int64_t min, int64_t& v) {
    uint64_t digits = 0;
    int decimals = 0;
    if (!ScanFixedPointAt(p_, end_, digits, decimals) || decimals != 0 ||
        digits > static_cast<uint64_t>(std::numeric_limits<int64_t>::max())) {
      return false;
    }
    v = static_cast<int64_t>(digits);
    return v >= min && FieldEnd();
  }
  bool Micros(double& v, uint64_t& digits, int& decimals) {
    return ScanFixedPointAt(p_, end_, digits, decimals) && FixedPointValue(digits, decimals, v) && FieldEnd();
  }
  bool Micros(double& v) {
    uint64_t digits = 0;
    int decimals = 0;
    return Micros(v, digits, decimals);
  }

  const char* p_;
  const char* const end_;
};

// Parses a line's fields; knows where the line came from so it can say so.
class LineParser {
 public:
  LineParser(std::string_view text, const std::string& file, int line)
      : rest_(text), file_(file), line_(line) {}

  ValidateRecord Parse() {
    ValidateRecord r;
    r.line = line_;
    r.op = ParseOp(Field(0));
    r.annotation = ParseAnnotation(Field(1));
    r.lbn = ParseCount(2, Field(2), /*min=*/0);
    r.blocks = ParseCount(3, Field(3), /*min=*/1);
    ParseMeasured(Field(4), r);
    r.gap_after_ns = MicrosToNs(5, ParseMicros(5, Field(5)));
    RequireEnd();
    return r;
  }

 private:
  [[noreturn]] void Fail(int field, const std::string& what) const {
    throw InputError(file_, line_, std::string("field ") + kFieldNames[field] + ": " + what);
  }

  std::string_view Field(int field) {
    const std::string_view token = NextToken(rest_);
    if (token.empty()) {
      Fail(field, "missing (a line holds " + std::to_string(kFields) + " fields: op annotation blkno " +
                      "nsectors measured_service_us next_interarrival_us)");
    }
    return token;
  }

  void RequireEnd() {
    const std::string_view extra = NextToken(rest_);
    if (!extra.empty()) Fail(kFields - 1, "unexpected text after the last field: '" + std::string(extra) + "'");
  }

  IoOp ParseOp(std::string_view t) const {
    if (t == "R") return IoOp::kRead;
    if (t == "W") return IoOp::kWrite;
    Fail(0, "expected R or W, got '" + std::string(t) + "'");
  }

  ValidateAnnotation ParseAnnotation(std::string_view t) const {
    if (t == "Hit") return ValidateAnnotation::kHit;
    if (t == "Miss") return ValidateAnnotation::kMiss;
    if (t == "Doub") return ValidateAnnotation::kDoub;
    if (t == "Trip") return ValidateAnnotation::kTrip;
    Fail(1, "expected Hit, Miss, Doub or Trip, got '" + std::string(t) + "'");
  }

  int64_t ParseCount(int field, std::string_view t, int64_t min) const {
    uint64_t digits = 0;
    int decimals = 0;
    const bool plain = ScanFixedPoint(t, digits, decimals) && decimals == 0 &&
                       digits <= static_cast<uint64_t>(std::numeric_limits<int64_t>::max());
    const int64_t v = plain ? static_cast<int64_t>(digits) : ParseInteger(field, t);
    if (v < min) Fail(field, "must be at least " + std::to_string(min) + ", got " + std::string(t));
    return v;
  }

  // Any other integer text, or the reason it is not one.
  int64_t ParseInteger(int field, std::string_view t) const {
    int64_t v = 0;
    const auto [end, ec] = std::from_chars(t.data(), t.data() + t.size(), v);
    if (ec == std::errc::result_out_of_range) Fail(field, "out of range: '" + std::string(t) + "'");
    if (ec != std::errc() || end != t.data() + t.size()) {
      Fail(field, "expected an integer, got '" + std::string(t) + "'");
    }
    return v;
  }

  double ParseMicros(int field, std::string_view t) const {
    double v = 0;
    if (FixedPointValue(t, v)) return v;  // the traces' own format: finite and not negative
    const auto [end, ec] = std::from_chars(t.data(), t.data() + t.size(), v);
    if (ec != std::errc() || end != t.data() + t.size() || !std::isfinite(v)) {
      Fail(field, "expected a finite number of microseconds, got '" + std::string(t) + "'");
    }
    if (v < 0) Fail(field, "must not be negative, got " + std::string(t));
    return v;
  }

  // The measured time, with its digits when the text is in fixed point.
  void ParseMeasured(std::string_view t, ValidateRecord& r) const {
    uint64_t digits = 0;
    int decimals = 0;
    double us = 0;
    if (ScanFixedPoint(t, digits, decimals) && FixedPointValue(digits, decimals, us)) {
      r.measured_digits = digits;
      r.measured_decimals = decimals;
    } else {
      us = ParseMicros(4, t);
    }
    r.measured_ms = MicrosToMs(us);
  }

  SimTime MicrosToNs(int field, double us) const {
    if (!MicrosFitNs(us)) Fail(field, "too large");
    return RoundMicrosToNs(us);
  }

  std::string_view rest_;
  const std::string& file_;
  int line_;
};

}  // namespace

const char* AnnotationName(ValidateAnnotation a) {
  switch (a) {
    case ValidateAnnotation::kHit: return "Hit";
    case ValidateAnnotation::kMiss: return "Miss";
    case ValidateAnnotation::kDoub: return "Doub";
    case ValidateAnnotation::kTrip: return "Trip";
  }
  return "?";
}

double FixedPointMicrosToMs(uint64_t digits, int decimals) {
  double us = 0;
  FixedPointValue(digits, decimals, us);
  return MicrosToMs(us);
}

ValidateRecord ParseValidateLine(std::string_view text, const std::string& file, int line_number) {
  ValidateRecord r;
  if (!LayoutScanner(text).Parse(r)) return LineParser(text, file, line_number).Parse();
  r.line = line_number;
  return r;
}

bool DisksimValidateTrace::Next(ValidateRecord& record) {
  std::string_view text;
  while (reader_.Next(text)) {
    if (IsBlankLine(text)) continue;
    record = ParseValidateLine(text, reader_.path(), reader_.line_number());
    return true;
  }
  return false;
}

}  // namespace ziosim
