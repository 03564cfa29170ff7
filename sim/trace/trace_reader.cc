#include "sim/trace/trace_reader.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <charconv>
#include <cmath>
#include <limits>

#include "sim/core/text.h"
#include "sim/trace/line_trace_reader.h"

namespace ziosim {
namespace {

struct FormatName {
  TraceFormat format;
  std::string_view name;
};
constexpr std::array<FormatName, 12> kFormatNames = {{
    {TraceFormat::kDisksimValidate, "validate"},
    {TraceFormat::kDisksimAscii, "ascii"},
    {TraceFormat::kBlkparse, "blkparse"},
    {TraceFormat::kFioIolog, "fio-iolog"},
    {TraceFormat::kFioLatLog, "fio-lat"},
    {TraceFormat::kMsr, "msr"},
    {TraceFormat::kSpc, "spc"},
    {TraceFormat::kFtraceCsv, "ftrace"},
    {TraceFormat::kCloudPhysics, "cloudphysics"},
    {TraceFormat::kStrace, "strace"},
    {TraceFormat::kDtrace, "dtrace"},
    {TraceFormat::kAuto, "auto"},
}};
constexpr std::array<FormatName, 4> kAliases = {{
    {TraceFormat::kDisksimValidate, "disksim-validate"},
    {TraceFormat::kDisksimAscii, "disksim-ascii"},
    {TraceFormat::kSpc, "umass"},
    {TraceFormat::kFtraceCsv, "tracefs"},
}};

bool IsDigits(std::string_view t) {
  return !t.empty() && std::all_of(t.begin(), t.end(), [](char c) { return c >= '0' && c <= '9'; });
}

// A decimal number such as "12", "0.000031865", "1.5e3".
bool IsNumber(std::string_view t) {
  double v = 0;
  const auto [end, ec] = std::from_chars(t.data(), t.data() + t.size(), v);
  return !t.empty() && ec == std::errc() && end == t.data() + t.size();
}

bool IsHex(std::string_view t) {
  if (t.size() > 2 && t[0] == '0' && (t[1] == 'x' || t[1] == 'X')) t.remove_prefix(2);
  return !t.empty() && std::all_of(t.begin(), t.end(), [](char c) { return std::isxdigit(static_cast<unsigned char>(c)); });
}

bool IsAlpha(std::string_view t) {
  return !t.empty() && std::all_of(t.begin(), t.end(), [](char c) { return std::isalpha(static_cast<unsigned char>(c)); });
}

// "8,16": blkparse's MAJOR,MINOR device column.
bool IsDeviceNumber(std::string_view t) {
  const size_t comma = t.find(',');
  return comma != std::string_view::npos && IsDigits(t.substr(0, comma)) && IsDigits(t.substr(comma + 1));
}

// "10:23:45.123456" (strace -tt) or "1700000000.123456" (-ttt).
bool IsStraceTime(std::string_view t) {
  if (t.size() >= 9 && t[2] == ':' && t[5] == ':') return IsDigits(t.substr(0, 2)) && IsNumber(t.substr(6));
  return t.find('.') != std::string_view::npos && IsNumber(t);
}

// An strace line: [PID |[pid PID] ]TIME NAME(... or TIME <... or TIME +++/---.
bool IsStraceLine(std::string_view trimmed) {
  std::vector<std::string_view> f;
  if (trimmed.starts_with("[pid")) {
    const size_t close = trimmed.find(']');
    if (close == std::string_view::npos) return false;
    trimmed = Trim(trimmed.substr(close + 1));
  }
  SplitWhitespace(trimmed, f);
  size_t i = f.size() >= 2 && IsDigits(f[0]) && IsStraceTime(f[1]) ? 1 : 0;
  if (f.size() < i + 2 || !IsStraceTime(f[i])) return false;
  const std::string_view call = f[i + 1];
  const size_t paren = call.find('(');
  return call == "<..." || call == "+++" || call == "---" ||
         (paren != std::string_view::npos && paren > 0 &&
          std::all_of(call.begin(), call.begin() + static_cast<std::ptrdiff_t>(paren),
                      [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }));
}

// The format the line `text` starts, or kAuto if it fits none.
TraceFormat DetectFromLine(std::string_view text) {
  const std::string_view trimmed = Trim(text);
  const std::string lower = Lower(trimmed);
  if (lower.starts_with("fio version 2 iolog") || lower.starts_with("fio version 3 iolog")) {
    return TraceFormat::kFioIolog;
  }
  if (lower.starts_with("issue_s,")) return TraceFormat::kFtraceCsv;
  if (lower.starts_with("version,time,op")) return TraceFormat::kCloudPhysics;
  if (lower.starts_with("asu,lba")) return TraceFormat::kSpc;
  if (trimmed.starts_with("# ziosim-dtrace")) return TraceFormat::kDtrace;
  if (IsStraceLine(trimmed)) return TraceFormat::kStrace;

  std::vector<std::string_view> f;
  if (trimmed.find(',') != std::string_view::npos && !IsDeviceNumber(trimmed.substr(0, trimmed.find_first_of(" \t")))) {
    SplitCommas(trimmed, f);
    const size_t n = f.size();
    if (n == 7 && (EqualsIgnoringCase(f[3], "read") || EqualsIgnoringCase(f[3], "write")) && IsDigits(f[0])) {
      return TraceFormat::kMsr;
    }
    if (n >= 5 && f[3].size() == 1 && std::string_view("rRwW").find(f[3][0]) != std::string_view::npos &&
        IsNumber(f[4])) {
      return TraceFormat::kSpc;
    }
    if (n == 6 && IsNumber(f[0]) && IsNumber(f[1]) && IsAlpha(f[2]) && IsDigits(f[3])) {
      return TraceFormat::kFtraceCsv;
    }
    if (n == 5 && IsDigits(f[0]) && IsNumber(f[1]) && IsHex(f[2]) && !IsDigits(f[2]) && IsDigits(f[3])) {
      return TraceFormat::kCloudPhysics;
    }
    if (n >= 4 && IsNumber(f[0]) && IsDigits(f[1]) && (f[2] == "0" || f[2] == "1" || f[2] == "2") &&
        std::all_of(f.begin() + 3, f.end(), IsDigits)) {
      return TraceFormat::kFioLatLog;
    }
    if (n == 5 && IsDigits(f[0]) && IsNumber(f[1]) && IsHex(f[2]) && IsDigits(f[3])) {
      return TraceFormat::kCloudPhysics;  // an opcode written without letters ("28")
    }
    return TraceFormat::kAuto;
  }
  SplitWhitespace(trimmed, f);
  const size_t n = f.size();
  if (n >= 6 && IsDeviceNumber(f[0]) && IsNumber(f[3])) return TraceFormat::kBlkparse;
  if (n == 6 && (f[0] == "R" || f[0] == "W") &&
      (f[1] == "Hit" || f[1] == "Miss" || f[1] == "Doub" || f[1] == "Trip")) {
    return TraceFormat::kDisksimValidate;
  }
  if (n == 5 && IsNumber(f[0]) && IsDigits(f[1]) && IsDigits(f[2]) && IsDigits(f[3]) && IsHex(f[4])) {
    return TraceFormat::kDisksimAscii;
  }
  return TraceFormat::kAuto;
}

}  // namespace

std::string FormatTraceMs(SimTime ns) {
  if (ns < 0) return "-" + FormatTraceMs(-ns);
  std::string s = std::to_string(ns / kNsPerMs);
  SimTime frac = ns % kNsPerMs;
  if (frac != 0) {
    std::string digits = std::to_string(frac);
    digits.insert(0, 6 - digits.size(), '0');
    while (!digits.empty() && digits.back() == '0') digits.pop_back();
    s += "." + digits;
  }
  return s + " ms";
}

// ---------------------------------------------------------------- names

const char* TraceFormatName(TraceFormat format) {
  for (const FormatName& f : kFormatNames) {
    if (f.format == format) return f.name.data();
  }
  return "?";
}

std::string TraceFormatList() {
  std::vector<std::string> names;
  for (const FormatName& f : kFormatNames) names.emplace_back(f.name);
  return Join(names);
}

TraceFormat ParseTraceFormat(std::string_view text) {
  const std::string lower = Lower(Trim(text));
  for (const FormatName& f : kFormatNames) {
    if (lower == f.name) return f.format;
  }
  for (const FormatName& f : kAliases) {
    if (lower == f.name) return f.format;
  }
  throw InputError("--format: unknown trace format '" + std::string(text) + "' (one of: " + TraceFormatList() + ")");
}

std::string FormatTraceDevice(TraceFormat format, int64_t device) {
  if (format == TraceFormat::kBlkparse) {
    return std::to_string(device >> 20) + "," + std::to_string(device & ((int64_t{1} << 20) - 1));
  }
  return std::to_string(device);
}

int64_t ParseTraceDevice(std::string_view text) {
  const auto number = [&](std::string_view t, int64_t max) {
    int64_t v = -1;
    const auto [end, ec] = std::from_chars(t.data(), t.data() + t.size(), v);
    if (t.empty() || ec != std::errc() || end != t.data() + t.size() || v < 0 || v > max) {
      throw InputError("--device: expected a device number or MAJOR,MINOR (blkparse), got '" + std::string(text) +
                       "'");
    }
    return v;
  };
  const size_t comma = text.find(',');
  if (comma == std::string_view::npos) return number(text, std::numeric_limits<int64_t>::max());
  return MakeTraceDevice(number(text.substr(0, comma), (int64_t{1} << 12) - 1),
                         number(text.substr(comma + 1), (int64_t{1} << 20) - 1));
}

// ---------------------------------------------------------------- splitting

bool IsBlankLine(std::string_view text) { return std::all_of(text.begin(), text.end(), IsTraceSpace); }

void SplitWhitespace(std::string_view text, std::vector<std::string_view>& out, size_t max_fields) {
  out.clear();
  const char* p = text.data();
  const char* const end = p + text.size();
  while (out.size() < max_fields) {
    while (p != end && IsTraceSpace(*p)) ++p;
    if (p == end) break;
    const char* const start = p;
    while (p != end && !IsTraceSpace(*p)) ++p;
    out.emplace_back(start, static_cast<size_t>(p - start));
  }
}

void SplitCommas(std::string_view text, std::vector<std::string_view>& out) {
  out.clear();
  size_t begin = 0;
  for (;;) {
    const size_t comma = text.find(',', begin);
    std::string_view field = text.substr(begin, comma == std::string_view::npos ? std::string_view::npos : comma - begin);
    while (!field.empty() && IsTraceSpace(field.front())) field.remove_prefix(1);
    while (!field.empty() && IsTraceSpace(field.back())) field.remove_suffix(1);
    out.push_back(field);
    if (comma == std::string_view::npos) break;
    begin = comma + 1;
  }
}

// ---------------------------------------------------------------- FieldParser

void FieldParser::Fail(std::string_view field, const std::string& what) const {
  throw InputError(file_, line_, "field " + std::string(field) + ": " + Printable(what));
}

int64_t FieldParser::CheckedInteger(std::string_view field, std::string_view token, int64_t min) const {
  int64_t v = 0;
  const auto [end, ec] = std::from_chars(token.data(), token.data() + token.size(), v);
  if (ec == std::errc::result_out_of_range) Fail(field, "out of range: '" + std::string(token) + "'");
  if (token.empty() || ec != std::errc() || end != token.data() + token.size()) {
    Fail(field, "expected an integer, got '" + std::string(token) + "'");
  }
  if (v < min) Fail(field, "must be at least " + std::to_string(min) + ", got " + std::string(token));
  return v;
}

int64_t FieldParser::Hex(std::string_view field, std::string_view token) const {
  std::string_view digits = token;
  if (digits.size() > 2 && digits[0] == '0' && (digits[1] == 'x' || digits[1] == 'X')) digits.remove_prefix(2);
  uint64_t v = 0;
  const auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), v, 16);
  if (ec == std::errc::result_out_of_range || v > static_cast<uint64_t>(std::numeric_limits<int64_t>::max())) {
    Fail(field, "out of range: '" + std::string(token) + "'");
  }
  if (digits.empty() || ec != std::errc() || end != digits.data() + digits.size()) {
    Fail(field, "expected a hexadecimal number, got '" + std::string(token) + "'");
  }
  return static_cast<int64_t>(v);
}

namespace {

// Whether `token` is plain "DIGITS[.DIGITS]" with a whole part short enough
// not to overflow (the common case, read in one pass); `dot` gets the '.'
// (npos if none).
bool IsPlainDecimal(std::string_view token, size_t& dot) {
  dot = std::string_view::npos;
  size_t digits = 0;
  for (size_t i = 0; i < token.size(); ++i) {
    const char c = token[i];
    if (c >= '0' && c <= '9') {
      ++digits;
    } else if (c == '.' && dot == std::string_view::npos) {
      dot = i;
    } else {
      return false;
    }
  }
  return digits > 0 && (dot == std::string_view::npos ? token.size() : dot) <= 18;
}

}  // namespace

SimTime FieldParser::CheckedTime(std::string_view field, std::string_view token, int unit_exp, const char* unit) const {
  const int64_t scale = kTracePow10[static_cast<size_t>(unit_exp)];
  size_t dot = 0;
  if (IsPlainDecimal(token, dot)) {
    // The whole part and the first unit_exp decimals are exact, the next one rounds.
    const std::string_view whole = token.substr(0, dot);
    const std::string_view frac = dot == std::string_view::npos ? std::string_view() : token.substr(dot + 1);
    int64_t w = 0;
    for (const char c : whole) w = w * 10 + (c - '0');
    if (w > kMaxTraceTimeNs / scale) Fail(field, "too large: " + std::string(token));
    int64_t f = 0;
    for (int i = 0; i < unit_exp; ++i) f = f * 10 + (i < static_cast<int>(frac.size()) ? frac[i] - '0' : 0);
    if (static_cast<int>(frac.size()) > unit_exp && frac[unit_exp] >= '5') ++f;
    return w * scale + f;
  }
  const auto bad = [&] { Fail(field, std::string("expected a number of ") + unit + ", got '" + std::string(token) + "'"); };
  if (!IsNumber(token) || token.find_first_of("nN") != std::string_view::npos) bad();  // no "nan", "inf"
  if (token.front() == '-') {
    double v = 0;
    std::from_chars(token.data(), token.data() + token.size(), v);
    if (v != 0) Fail(field, "must not be negative, got " + std::string(token));
    return 0;
  }
  if (token.find_first_of("eE") != std::string_view::npos) {
    // Exponent notation: go through a double (exact enough for such traces).
    double v = 0;
    std::from_chars(token.data(), token.data() + token.size(), v);
    const double ns = v * static_cast<double>(scale);
    if (!std::isfinite(ns) || ns >= static_cast<double>(kMaxTraceTimeNs)) Fail(field, "too large: " + std::string(token));
    return static_cast<SimTime>(std::llround(ns));
  }
  // Digits and a dot only, but more than 18 before it.
  Fail(field, "too large: " + std::string(token));
}

void FieldParser::FailTooLarge(std::string_view field, int64_t count) const {
  Fail(field, "too large: " + std::to_string(count));
}

RwbsKind ParseRwbs(const FieldParser& fields, std::string_view field, std::string_view token) {
  const auto fail = [&] {
    fields.Fail(field, "expected the request type as letters (R, W, RS, WS, RA, FWS, D, N...), got '" +
                           std::string(token) + "'");
  };
  if (token.empty()) fail();
  bool read = false, write = false, discard = false;
  for (const char c : token) {
    if (!((c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z'))) fail();
    read |= c == 'R';
    write |= c == 'W';
    discard |= c == 'D';
  }
  if (discard) return RwbsKind::kNoData;
  if (read) return RwbsKind::kRead;
  if (write) return RwbsKind::kWrite;
  return RwbsKind::kNoData;  // "N", a bare flush "F", ...
}

// ---------------------------------------------------------------- LineTraceReader

LineTraceReader::LineTraceReader(std::string path, TraceFormat format, const TraceReaderOptions& options)
    : reader_(std::move(path)), format_(format), skip_bad_(options.skip_bad) {}

bool LineTraceReader::Next(TraceRecord& record) {
  std::string_view text;
  while (out_.empty()) {
    if (finished_) return false;
    if (stopped_ || !reader_.Next(text)) {
      finished_ = true;
      Finish();
      continue;
    }
    if (IsBlankLine(text)) continue;
    const FieldParser fields(reader_.path(), reader_.line_number());
    try {
      ProcessLine(text, fields);
    } catch (const FatalTraceError&) {
      throw;
    } catch (const InputError& e) {
      if (!skip_bad_) throw;
      ++stats_.skipped;
      if (stats_.first_skipped.empty()) stats_.first_skipped = e.what();
    }
  }
  record = out_.front();
  out_.pop_front();
  ++stats_.records;
  return true;
}

void LineTraceReader::FailBackwards(const FieldParser& fields, std::string_view field, SimTime time_ns,
                                    SimTime earlier_ns) {
  fields.Fail(field, "goes backwards: " + FormatTraceMs(time_ns) + " is before " + FormatTraceMs(earlier_ns) +
                         ", the arrival of an earlier request (the trace must be in arrival order)");
}

void LineTraceReader::CheckForward(const FieldParser& fields, std::string_view field, SimTime time_ns) {
  if (have_last_ && time_ns < last_ns_) FailBackwards(fields, field, time_ns, last_ns_);
  have_last_ = true;
  last_ns_ = time_ns;
}

// ---------------------------------------------------------------- detection and factory

int32_t FileNumbers::Number(std::string_view path) {
  const auto [it, added] = numbers_.try_emplace(std::string(path), static_cast<int32_t>(names_.size()));
  if (added) names_.emplace_back(path);
  return it->second;
}

bool IsUnder(std::string_view path, std::string_view directory) {
  while (directory.size() > 1 && directory.ends_with('/')) directory.remove_suffix(1);
  if (directory.empty()) return true;
  if (directory == "/") return path.starts_with('/');
  return path.starts_with(directory) && (path.size() == directory.size() || path[directory.size()] == '/');
}

bool TimesFromZero(TraceFormat format) { return format == TraceFormat::kDisksimAscii; }

bool IsFileLevel(TraceFormat format) {
  return format == TraceFormat::kFioIolog || format == TraceFormat::kStrace || format == TraceFormat::kDtrace;
}

TraceFormat DetectTraceFormat(const std::string& path) {
  LineReader reader(path);
  std::string_view text;
  while (reader.Next(text)) {
    if (IsBlankLine(text)) continue;
    const TraceFormat format = DetectFromLine(text);
    if (format == TraceFormat::kAuto) {
      const std::string shown = Printable(Trim(text).substr(0, 80));
      throw InputError(path, reader.line_number(),
                       "cannot tell the trace format from this line ('" + shown + "'); pass --format (one of: " +
                           TraceFormatList() + ")");
    }
    return format;
  }
  throw InputError(path + ": the trace is empty, so its format cannot be told");
}

std::unique_ptr<TraceReader> OpenTrace(const std::string& path, TraceFormat format, const TraceReaderOptions& options) {
  if (format == TraceFormat::kAuto) format = DetectTraceFormat(path);
  if (!options.files_under.empty() && !IsFileLevel(format)) {
    throw InputError(std::string("--files-under: applies to a file-level trace (strace, dtrace, fio-iolog), and ") +
                     path + " is " + TraceFormatName(format));
  }
  switch (format) {
    case TraceFormat::kDisksimValidate: return MakeDisksimValidateReader(path, options);
    case TraceFormat::kDisksimAscii: return MakeDisksimAsciiReader(path, options);
    case TraceFormat::kBlkparse: return MakeBlkparseReader(path, options);
    case TraceFormat::kFioIolog: return MakeFioIologReader(path, options);
    case TraceFormat::kFioLatLog: return MakeFioLatLogReader(path, options);
    case TraceFormat::kMsr: return MakeMsrReader(path, options);
    case TraceFormat::kSpc: return MakeSpcReader(path, options);
    case TraceFormat::kFtraceCsv: return MakeFtraceCsvReader(path, options);
    case TraceFormat::kCloudPhysics: return MakeCloudPhysicsReader(path, options);
    case TraceFormat::kStrace: return MakeStraceReader(path, options);
    case TraceFormat::kDtrace: return MakeDtraceReader(path, options);
    case TraceFormat::kAuto: break;
  }
  throw std::logic_error("internal error: OpenTrace: no reader for the format");
}

}  // namespace ziosim
