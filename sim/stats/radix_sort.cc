#include "sim/stats/radix_sort.h"

#include <algorithm>
#include <array>
#include <bit>
#include <cstdint>
#include <utility>

namespace ziosim {
namespace {

constexpr int kDigitBits = 11;  // 2,048 counters a digit: the counts stay in the L1/L2 cache
constexpr int kDigits = (64 + kDigitBits - 1) / kDigitBits;
constexpr size_t kBuckets = size_t{1} << kDigitBits;
constexpr uint64_t kSignBit = uint64_t{1} << 63;
// Below this many values the passes over the counters cost more than std::sort.
constexpr size_t kRadixMin = 1024;

// A double's bit pattern as an unsigned integer in the doubles' order: a
// negative value has every bit flipped (a larger magnitude sorts lower), a
// positive one only its sign bit.
uint64_t Key(double value) {
  const uint64_t bits = std::bit_cast<uint64_t>(value);
  return (bits & kSignBit) != 0 ? ~bits : bits | kSignBit;
}

double FromKey(uint64_t key) { return std::bit_cast<double>((key & kSignBit) != 0 ? key & ~kSignBit : ~key); }

size_t Digit(uint64_t key, int d) { return static_cast<size_t>(key >> (d * kDigitBits)) & (kBuckets - 1); }

}  // namespace

std::vector<double> SortedCopy(std::span<const double> values) {
  const size_t n = values.size();
  if (n < kRadixMin) {
    std::vector<double> sorted(values.begin(), values.end());
    std::sort(sorted.begin(), sorted.end());
    return sorted;
  }
  // One pass counts every digit; then one stable scatter a digit, least significant first.
  std::vector<uint64_t> keys(n), scratch(n);
  std::vector<std::array<size_t, kBuckets>> counts(kDigits);
  for (size_t i = 0; i < n; ++i) {
    keys[i] = Key(values[i]);
    for (int d = 0; d < kDigits; ++d) ++counts[d][Digit(keys[i], d)];
  }
  for (int d = 0; d < kDigits; ++d) {
    std::array<size_t, kBuckets>& next = counts[d];
    if (next[Digit(keys[0], d)] == n) continue;  // one digit value for all: the pass moves nothing
    size_t offset = 0;
    for (size_t& c : next) offset += std::exchange(c, offset);
    for (const uint64_t key : keys) scratch[next[Digit(key, d)]++] = key;
    keys.swap(scratch);
  }
  std::vector<double> sorted(n);
  for (size_t i = 0; i < n; ++i) sorted[i] = FromKey(keys[i]);
  return sorted;
}

}  // namespace ziosim
