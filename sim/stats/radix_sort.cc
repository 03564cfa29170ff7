#include "sim/stats/radix_sort.h"

#include <algorithm>
#include <array>
#include <bit>
#include <functional>
#include <numeric>
#include <utility>

namespace ziosim {
namespace {

constexpr int kDigitBits = 11;  // 2,048 counters a digit: the counts stay in the L1/L2 cache
constexpr size_t kRadix = size_t{1} << kDigitBits;
constexpr uint64_t kSignBit = uint64_t{1} << 63;
// Below this many values the passes over the counters cost more than std::sort.
constexpr size_t kRadixMin = 1024;

// A double's bit pattern as an unsigned integer in the doubles' order: a
// negative value has every bit flipped (a larger magnitude sorts lower), a
// positive one only its sign bit.
uint64_t OrderedBits(double value) {
  const uint64_t bits = std::bit_cast<uint64_t>(value);
  return (bits & kSignBit) != 0 ? ~bits : bits | kSignBit;
}

double FromOrderedBits(uint64_t key) { return std::bit_cast<double>((key & kSignBit) != 0 ? key & ~kSignBit : ~key); }

size_t Digit(uint64_t key, int d) { return static_cast<size_t>(key >> (d * kDigitBits)) & (kRadix - 1); }

}  // namespace

void SortKeys(std::vector<uint64_t>& keys) {
  const size_t n = keys.size();
  if (n < kRadixMin) {
    std::sort(keys.begin(), keys.end());
    return;
  }
  // Digits above the highest bit any key sets are 0 in all of them: no pass.
  const uint64_t any_bits = std::reduce(keys.begin(), keys.end(), uint64_t{0}, std::bit_or<>());
  const int digits = (std::bit_width(any_bits) + kDigitBits - 1) / kDigitBits;
  // One pass counts every digit; then one stable scatter a digit, least significant first.
  std::vector<std::array<size_t, kRadix>> counts(static_cast<size_t>(digits));
  for (const uint64_t key : keys) {
    for (int d = 0; d < digits; ++d) ++counts[d][Digit(key, d)];
  }
  std::vector<uint64_t> scratch;
  for (int d = 0; d < digits; ++d) {
    std::array<size_t, kRadix>& next = counts[d];
    if (next[Digit(keys[0], d)] == n) continue;  // one digit value for all: the pass moves nothing
    if (scratch.empty()) scratch.resize(n);
    size_t offset = 0;
    for (size_t& c : next) offset += std::exchange(c, offset);
    for (const uint64_t key : keys) scratch[next[Digit(key, d)]++] = key;
    keys.swap(scratch);
  }
}

std::vector<double> SortedCopy(std::span<const double> values) {
  std::vector<uint64_t> keys(values.size());
  std::ranges::transform(values, keys.begin(), OrderedBits);
  SortKeys(keys);
  std::vector<double> sorted(keys.size());
  std::ranges::transform(keys, sorted.begin(), FromOrderedBits);
  return sorted;
}

}  // namespace ziosim
