#include "sim/trace/disksim_validate_trace.h"

#include <array>
#include <charconv>
#include <cmath>
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
    r.measured_ms = ParseMicros(4, Field(4)) / 1000.0;
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
    int64_t v = 0;
    const auto [end, ec] = std::from_chars(t.data(), t.data() + t.size(), v);
    if (ec == std::errc::result_out_of_range) Fail(field, "out of range: '" + std::string(t) + "'");
    if (ec != std::errc() || end != t.data() + t.size()) {
      Fail(field, "expected an integer, got '" + std::string(t) + "'");
    }
    if (v < min) Fail(field, "must be at least " + std::to_string(min) + ", got " + std::string(t));
    return v;
  }

  double ParseMicros(int field, std::string_view t) const {
    double v = 0;
    const auto [end, ec] = std::from_chars(t.data(), t.data() + t.size(), v);
    if (ec != std::errc() || end != t.data() + t.size() || !std::isfinite(v)) {
      Fail(field, "expected a finite number of microseconds, got '" + std::string(t) + "'");
    }
    if (v < 0) Fail(field, "must not be negative, got " + std::string(t));
    return v;
  }

  // A gap too long for 64-bit ns (292 years) is a corrupt line, not an overflow.
  SimTime MicrosToNs(int field, double us) const {
    if (us * kNsPerUs >= static_cast<double>(std::numeric_limits<SimTime>::max() / 2)) {
      Fail(field, "too large");
    }
    return static_cast<SimTime>(std::llround(us * kNsPerUs));
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

ValidateRecord ParseValidateLine(std::string_view text, const std::string& file, int line_number) {
  return LineParser(text, file, line_number).Parse();
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
