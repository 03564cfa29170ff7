// Reading a trace line in one pass (internal to sim/trace/). Splitting a line
// into fields and then parsing each field looks at every byte twice, and the
// generic checks cost more than the reading; the readers' common lines are
// read here instead, left to right, each byte once (issue 15: a trace parses
// at >= 5 M lines/s on one core). A LineScanner only recognises the shape a
// format's writer produces; on anything else a step returns false and the
// reader takes its general path, which accepts every spelling the format
// allows and names the field in its error.
#ifndef ZIOSIM_SIM_TRACE_LINE_SCANNER_H_
#define ZIOSIM_SIM_TRACE_LINE_SCANNER_H_

#include <array>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <limits>
#include <string_view>

namespace ziosim {

// A blank: ' ', '\t', '\v', '\f' or '\r' (a bit mask of those byte values).
// Inline: the parsers test every byte of a trace with it.
inline bool IsTraceSpace(char c) {
  const auto byte = static_cast<unsigned char>(c);
  return byte <= ' ' && ((uint64_t{1} << byte) & uint64_t{0x100003A00}) != 0;
}

inline bool IsDigit(char c) { return static_cast<unsigned char>(c - '0') <= 9; }

// 10^0 to 10^18.
inline constexpr std::array<int64_t, 19> kTracePow10 = [] {
  std::array<int64_t, 19> p{};
  for (size_t i = 0; i < p.size(); ++i) p[i] = i == 0 ? 1 : 10 * p[i - 1];
  return p;
}();

// Appends the digits from `p` on to `v` (v = 10 v + digit for each, modulo
// 2^64) and returns how many there were. On little-endian hosts eight bytes
// are tested and combined at once while the line holds eight more: XOR with
// '0' turns digits into 0..9 and adding 0x76 sets a byte's top bit for
// anything else (a carry only leaves a byte that is not a digit, so the first
// such byte is always found); the digits are then combined in pairs, fours
// and eights by three multiplies.
inline ptrdiff_t AppendDigits(const char* p, const char* end, uint64_t& v) {
  const char* const from = p;
  if constexpr (std::endian::native == std::endian::little) {
    while (end - p >= 8) {
      uint64_t chunk = 0;
      std::memcpy(&chunk, p, sizeof chunk);
      const uint64_t x = chunk ^ 0x3030303030303030;
      const uint64_t other = (x | (x + 0x7676767676767676)) & 0x8080808080808080;
      const int n = other == 0 ? 8 : std::countr_zero(other) / 8;
      if (n == 0) return p - from;
      // The n digits moved to the top bytes: the bottom ones become leading zeros.
      uint64_t d = x << (8 * (8 - n));
      d = (d * 10 + (d >> 8)) & 0x00FF00FF00FF00FF;
      d = (d * 100 + (d >> 16)) & 0x0000FFFF0000FFFF;
      d = (d * 10000 + (d >> 32)) & 0xFFFFFFFF;
      v = v * static_cast<uint64_t>(kTracePow10[static_cast<size_t>(n)]) + d;
      p += n;
      if (n < 8) return p - from;
    }
  }
  for (; p != end && IsDigit(*p); ++p) v = v * 10 + static_cast<uint64_t>(*p - '0');
  return p - from;
}

// Reads up to `max` (<= 18) digits at p, moving p past them, into `value`;
// returns how many.
inline int ReadDigits(const char*& p, const char* end, int max, int64_t& value) {
  uint64_t v = 0;
  const ptrdiff_t n = AppendDigits(p, end - p > max ? p + max : end, v);
  p += n;
  value = static_cast<int64_t>(v);
  return static_cast<int>(n);
}

// Past the blanks at p; runs of ' ' (columns are padded with them) eight bytes at a time.
inline const char* SkipBlanks(const char* p, const char* end) {
  constexpr uint64_t kEightSpaces = 0x2020202020202020;
  for (;;) {
    if constexpr (std::endian::native == std::endian::little) {
      while (end - p >= 8) {
        uint64_t word;
        std::memcpy(&word, p, 8);
        const uint64_t other = word ^ kEightSpaces;  // zero bytes where the spaces are
        if (other != 0) {
          p += std::countr_zero(other) / 8;
          break;
        }
        p += 8;
      }
    }
    while (p != end && *p == ' ') ++p;
    if (p == end || !IsTraceSpace(*p)) return p;
    ++p;
  }
}

// Digits at p (1 to 18 of them: never an overflow) as a number; moves p past
// them. False, with p unmoved, when p holds no digit or more than 18.
inline bool ScanDigits(const char*& p, const char* end, int64_t& out) {
  const char* q = p;
  int64_t v = 0;
  const int n = ReadDigits(q, end, 18, v);
  if (n == 0 || (q != end && IsDigit(*q))) return false;
  out = v;
  p = q;
  return true;
}

// Times beyond this (146 years) are a corrupt field, and leave room for sums.
inline constexpr int64_t kMaxTraceTimeNs = std::numeric_limits<int64_t>::max() / 2;

// DIGITS[.DIGITS] at p (1 to 17 whole digits) as a count of 10^-unit_exp
// units (unit_exp <= 9), converted exactly: the first unit_exp decimals are
// kept and the next one rounds ("0.0000315" with unit_exp 6 is 32). Moves p
// past it. False, with p unmoved, when p holds no such number or its count
// would pass kMaxTraceTimeNs.
inline bool ScanDecimal(const char*& p, const char* end, int unit_exp, int64_t& out) {
  const char* q = p;
  int64_t whole = 0;
  if (ReadDigits(q, end, 17, whole) == 0 || (q != end && IsDigit(*q))) return false;
  int64_t frac = 0;
  bool round_up = false;
  if (q != end && *q == '.') {
    ++q;
    const int kept = ReadDigits(q, end, unit_exp, frac);
    frac *= kTracePow10[static_cast<size_t>(unit_exp - kept)];
    if (q != end && IsDigit(*q)) {
      round_up = *q >= '5';
      while (q != end && IsDigit(*q)) ++q;
    }
  }
  const int64_t scale = kTracePow10[static_cast<size_t>(unit_exp)];
  if (whole > kMaxTraceTimeNs / scale) return false;
  out = whole * scale + frac + (round_up ? 1 : 0);
  p = q;
  return true;
}

// Each step works on local copies of the position: a byte read through a
// char pointer may alias any object, so a loop on the member itself would
// reload it from memory at every byte.
class LineScanner {
 public:
  explicit LineScanner(std::string_view line) : p_(line.data()), end_(line.data() + line.size()) {}

  bool Digits(int64_t& v) { return ScanDigits(p_, end_, v); }
  bool Decimal(int unit_exp, int64_t& v) { return ScanDecimal(p_, end_, unit_exp, v); }
  bool Char(char c) {
    if (p_ == end_ || *p_ != c) return false;
    ++p_;
    return true;
  }
  bool Literal(std::string_view s) {
    if (static_cast<size_t>(end_ - p_) < s.size()) return false;
    for (size_t i = 0; i < s.size(); ++i) {
      if (p_[i] != s[i]) return false;
    }
    p_ += s.size();
    return true;
  }
  // One or more blanks.
  bool Blanks() {
    const char* const start = p_;
    p_ = ziosim::SkipBlanks(p_, end_);
    return p_ != start;
  }
  void SkipBlanks() { p_ = ziosim::SkipBlanks(p_, end_); }
  // A non-empty run of bytes up to `stop` (not blanks), and the `stop`, consumed.
  bool Until(char stop, std::string_view& field) {
    const char* q = p_;
    const char* const end = end_;
    while (q != end && *q != stop && !IsTraceSpace(*q)) ++q;
    if (q == p_ || q == end || *q != stop) return false;
    field = std::string_view(p_, static_cast<size_t>(q - p_));
    p_ = q + 1;
    return true;
  }
  // A non-empty run of any bytes (blanks too) up to `stop`, and the `stop`, consumed.
  bool Through(char stop, std::string_view& field) {
    const void* found = std::memchr(p_, stop, static_cast<size_t>(end_ - p_));
    if (found == nullptr || found == p_) return false;
    field = std::string_view(p_, static_cast<size_t>(static_cast<const char*>(found) - p_));
    p_ = static_cast<const char*>(found) + 1;
    return true;
  }
  // A string in double quotes, in which a backslash escapes the next byte.
  bool Quoted() {
    if (p_ == end_ || *p_ != '"') return false;
    const char* const end = end_;
    for (const char* q = p_ + 1; q != end; ++q) {
      if (*q == '"') {
        p_ = q + 1;
        return true;
      }
      if (*q == '\\' && ++q == end) break;
    }
    return false;
  }
  // A non-empty run of non-blanks.
  bool Word(std::string_view& word) {
    const char* q = p_;
    const char* const end = end_;
    while (q != end && !IsTraceSpace(*q)) ++q;
    word = std::string_view(p_, static_cast<size_t>(q - p_));
    p_ = q;
    return !word.empty();
  }
  bool AtEnd() const { return p_ == end_; }
  std::string_view Rest() const { return std::string_view(p_, static_cast<size_t>(end_ - p_)); }
  const char* position() const { return p_; }

 private:
  const char* p_;
  const char* end_;
};

}  // namespace ziosim

#endif  // ZIOSIM_SIM_TRACE_LINE_SCANNER_H_
