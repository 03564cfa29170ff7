#include "sim/core/units.h"

#include <cstdio>

#include <cctype>
#include <charconv>
#include <cmath>
#include <limits>
#include <string>
#include <utility>

#include "sim/core/status.h"

namespace ziosim {
namespace {

using Int128 = __int128;
constexpr Int128 kMaxBytes = std::numeric_limits<int64_t>::max();
// An integer part of more than 19 digits is above 2^63 bytes whatever the suffix.
constexpr size_t kMaxIntegerDigits = 19;
// All significant digits together, kept exactly: 10^25 * 2^40 < 2^127.
constexpr size_t kMaxDigits = 25;

constexpr std::string_view kNotASize =
    "is not a size: expected a number and an optional unit: K, M, G, T or KiB ... TiB (2^10 steps), "
    "KB ... TB (10^3 steps)";

[[noreturn]] void Fail(std::string_view field, std::string_view text, std::string_view what) {
  throw InputError(std::string(field) + ": \"" + std::string(text) + "\" " + std::string(what));
}

// The power (1 = kilo ... 4 = tera) of a unit's prefix letter, or 0 if `c` is not one.
int PrefixPower(char c) {
  switch (std::tolower(static_cast<unsigned char>(c))) {
    case 'k': return 1;
    case 'm': return 2;
    case 'g': return 3;
    case 't': return 4;
    default: return 0;
  }
}

bool EqualsIgnoreCase(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i) {
    if (std::tolower(static_cast<unsigned char>(a[i])) != std::tolower(static_cast<unsigned char>(b[i]))) {
      return false;
    }
  }
  return true;
}

// The multiplier of a unit: "" or "B" (bytes), a prefix letter alone (binary,
// as fio and dd read "4K"), or with "iB" or "B" (binary and decimal in
// ziosim's grammar; the other way round in fio's, see units.h). 0 if `unit`
// is not one.
int64_t UnitMultiplier(std::string_view unit, SizeGrammar grammar) {
  if (unit.empty() || EqualsIgnoreCase(unit, "b")) return 1;
  const int power = PrefixPower(unit.front());
  const std::string_view tail = unit.substr(1);
  const bool ib = EqualsIgnoreCase(tail, "ib");
  if (power == 0 || !(tail.empty() || ib || EqualsIgnoreCase(tail, "b"))) return 0;
  const bool decimal = !tail.empty() && (ib == (grammar == SizeGrammar::kFio));
  int64_t m = 1;
  for (int i = 0; i < power; ++i) m *= decimal ? 1000 : 1024;
  return m;
}

bool IsDigit(char c) { return c >= '0' && c <= '9'; }

// Leading run of decimal digits in `text` from `pos`.
std::string_view DigitRun(std::string_view text, size_t pos) {
  size_t end = pos;
  while (end < text.size() && IsDigit(text[end])) ++end;
  return text.substr(pos, end - pos);
}

std::string_view StripLeadingZeros(std::string_view s) {
  while (!s.empty() && s.front() == '0') s.remove_prefix(1);
  return s;
}

std::string_view StripTrailingZeros(std::string_view s) {
  while (!s.empty() && s.back() == '0') s.remove_suffix(1);
  return s;
}

std::string LowerCopy(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

}  // namespace

int64_t ParseSize(std::string_view text, std::string_view field, SizeGrammar grammar) {
  if (text.empty()) throw InputError(std::string(field) + ": empty size");
  if (text.front() == '-') Fail(field, text, "is negative");

  // Split into integer digits, fraction digits and suffix; the number is kept as
  // an exact decimal so that "1.5G" is exactly 1.5 * 2^30 and "0.3K" is refused
  // rather than rounded.
  const std::string_view whole = DigitRun(text, 0);
  size_t pos = whole.size();
  std::string_view fraction;
  if (pos < text.size() && text[pos] == '.') {
    fraction = DigitRun(text, pos + 1);
    pos += 1 + fraction.size();
  }
  if (whole.empty() && fraction.empty()) Fail(field, text, kNotASize);

  // A decimal exponent ("1e9", as Python prints a float byte count), only without a unit.
  int exponent = 0;
  if (pos + 1 < text.size() && (text[pos] == 'e' || text[pos] == 'E')) {
    const size_t sign = text[pos + 1] == '+' ? 1 : 0;
    const std::string_view e_digits = DigitRun(text, pos + 1 + sign);
    if (e_digits.empty() || e_digits.size() > 2 || pos + 1 + sign + e_digits.size() != text.size()) {
      Fail(field, text, kNotASize);
    }
    exponent = std::stoi(std::string(e_digits));
    if (exponent > 18) Fail(field, text, "is too large (more than 2^63-1 bytes)");
    pos = text.size();
  }
  // One space may part the number from its unit ("1 GB").
  if (pos + 1 < text.size() && text[pos] == ' ') ++pos;
  const int64_t multiplier = UnitMultiplier(text.substr(pos), grammar);
  if (multiplier == 0) Fail(field, text, kNotASize);
  const std::string_view int_digits = StripLeadingZeros(whole);
  const std::string_view frac_digits = StripTrailingZeros(fraction);
  if (int_digits.size() > kMaxIntegerDigits) Fail(field, text, "is too large (more than 2^63-1 bytes)");
  if (int_digits.size() + frac_digits.size() > kMaxDigits) Fail(field, text, "has too many decimal places");
  if (!int_digits.empty() && int_digits.size() + exponent > kMaxIntegerDigits) {
    Fail(field, text, "is too large (more than 2^63-1 bytes)");
  }

  // value = digits * multiplier * 10^(exponent - fraction digits). The exponent
  // cancels the fraction's digits before anything is multiplied: 25 digits
  // times 10^18 would pass 2^127, and the checks above bound what is left.
  Int128 digits = 0;
  for (char c : int_digits) digits = digits * 10 + (c - '0');
  for (char c : frac_digits) digits = digits * 10 + (c - '0');
  const int shift = exponent - static_cast<int>(frac_digits.size());
  Int128 scale = multiplier;
  Int128 divisor = 1;
  for (int i = 0; i < shift; ++i) scale *= 10;
  for (int i = 0; i < -shift; ++i) divisor *= 10;
  const Int128 scaled = digits * scale;
  if (scaled % divisor != 0) Fail(field, text, "is not a whole number of bytes");
  const Int128 bytes = scaled / divisor;
  if (bytes > kMaxBytes) Fail(field, text, "is too large (more than 2^63-1 bytes)");
  return static_cast<int64_t>(bytes);
}

std::string SizeText(int64_t bytes) {
  static constexpr std::pair<int, char> kUnits[] = {{40, 'T'}, {30, 'G'}, {20, 'M'}, {10, 'K'}};
  for (const auto& [shift, letter] : kUnits) {
    if (bytes > 0 && bytes % (int64_t{1} << shift) == 0) return std::to_string(bytes >> shift) + letter;
  }
  return std::to_string(bytes);
}

std::string NiceBytes(int64_t bytes) {
  static constexpr char kUnits[] = "BKMGTPE";
  double v = static_cast<double>(bytes);
  int u = 0;
  while (v >= 1024 && u < 6) {
    v /= 1024;
    ++u;
  }
  char buf[32];
  if (u == 0) {
    std::snprintf(buf, sizeof buf, "%lldB", static_cast<long long>(bytes));
  } else {
    std::snprintf(buf, sizeof buf, v < 10 ? "%.2f%c" : v < 100 ? "%.1f%c" : "%.0f%c", v, kUnits[u]);
  }
  return buf;
}

int64_t ParsePositiveSize(std::string_view text, std::string_view field) {
  if (!text.empty() && text.front() == '-') Fail(field, text, "is not a positive size");
  const int64_t bytes = ParseSize(text, field);
  if (bytes == 0) Fail(field, text, "is not a positive size");
  return bytes;
}

SimTime ParseDuration(std::string_view text, std::string_view field) {
  const std::string what = std::string(field) + ": \"" + std::string(text) + "\" ";
  const std::string_view digits = DigitRun(text, 0);
  if (digits.empty() || digits.size() > 15) {
    throw InputError(what + "is not a time: expected a whole number with an optional unit");
  }
  int64_t n = 0;
  std::from_chars(digits.data(), digits.data() + digits.size(), n);
  const std::string unit = LowerCopy(text.substr(digits.size()));
  static constexpr std::pair<std::string_view, SimTime> kUnits[] = {
      {"", kNsPerSec},          {"s", kNsPerSec},        {"sec", kNsPerSec},     {"ns", 1},
      {"nsec", 1},              {"us", kNsPerUs},        {"usec", kNsPerUs},     {"ms", kNsPerMs},
      {"msec", kNsPerMs},       {"m", 60 * kNsPerSec},   {"min", 60 * kNsPerSec}, {"h", 3600 * kNsPerSec},
      {"d", 86400 * kNsPerSec}};
  for (const auto& [name, scale] : kUnits) {
    if (unit != name) continue;
    if (n > std::numeric_limits<SimTime>::max() / scale) throw InputError(what + "is too long to simulate");
    return n * scale;
  }
  throw InputError(what + "has an unknown unit (ns, us, ms, s, m, h or d; seconds when omitted)");
}

double ParseRate(std::string_view text, std::string_view field) {
  static constexpr std::pair<std::string_view, double> kUnits[] = {
      {"b/s", 1},           {"kb/s", 1e3},           {"mb/s", 1e6},           {"gb/s", 1e9},
      {"kib/s", 1024.0},    {"mib/s", 1048576.0},    {"gib/s", 1073741824.0}};
  double value = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  const std::string unit = LowerCopy(text.substr(static_cast<size_t>(end - text.data())));
  if (ec == std::errc() && std::isfinite(value) && value > 0 && !text.starts_with('+')) {
    for (const auto& [name, scale] : kUnits) {
      if (unit == name) return value * scale;
    }
  }
  Fail(field, text, "is not a positive rate: expected a number and B/s, KB/s, MB/s, GB/s (10^3 steps) or KiB/s, MiB/s, GiB/s");
}

}  // namespace ziosim
