#include "sim/stats/radix_sort.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <bit>
#include <cstdint>
#include <limits>
#include <random>
#include <vector>

namespace ziosim {
namespace {

// The bit patterns, so that the comparison is exact (and sees a wrong zero's sign).
std::vector<uint64_t> Bits(const std::vector<double>& v) {
  std::vector<uint64_t> bits;
  for (double d : v) bits.push_back(std::bit_cast<uint64_t>(d));
  return bits;
}

void ExpectSortedLikeStdSort(const std::vector<double>& values) {
  std::vector<double> expected = values;
  std::sort(expected.begin(), expected.end());
  EXPECT_EQ(Bits(SortedCopy(values)), Bits(expected)) << values.size() << " values";
}

TEST(RadixSortTest, MatchesStdSortOnLatencies) {
  std::mt19937_64 rng(14);
  std::lognormal_distribution<double> ms(1.5, 1.0);
  for (size_t n : {0, 1, 2, 100, 1023, 1024, 5000, 100000}) {
    std::vector<double> v(n);
    for (double& x : v) x = ms(rng);
    ExpectSortedLikeStdSort(v);
  }
}

TEST(RadixSortTest, MatchesStdSortWithNegativesDuplicatesAndExtremes) {
  std::mt19937_64 rng(5);
  std::uniform_real_distribution<double> any(-1e6, 1e6);
  const std::vector<double> special = {0.0,
                                       -1.0,
                                       std::numeric_limits<double>::infinity(),
                                       -std::numeric_limits<double>::infinity(),
                                       std::numeric_limits<double>::denorm_min(),
                                       -std::numeric_limits<double>::max(),
                                       std::numeric_limits<double>::max()};
  std::vector<double> v(20000);
  for (size_t i = 0; i < v.size(); ++i) v[i] = i % 10 == 0 ? special[i / 10 % special.size()] : any(rng);
  ExpectSortedLikeStdSort(v);
}

TEST(RadixSortTest, AllEqualValuesSkipEveryPass) {
  ExpectSortedLikeStdSort(std::vector<double>(5000, 2.5));
}

// Integer keys sort over the digits their largest uses: every width from none
// (all zero) to 64 bits, on both sides of the digits' 11-bit boundaries.
TEST(RadixSortTest, SortsKeysOfEveryWidthLikeStdSort) {
  std::mt19937_64 rng(7);
  for (int bits = 0; bits <= 64; ++bits) {
    for (size_t n : {0, 1, 1023, 1024, 4096}) {
      std::vector<uint64_t> keys(n);
      for (uint64_t& k : keys) k = bits == 0 ? 0 : rng() >> (64 - bits);
      std::vector<uint64_t> expected = keys;
      std::sort(expected.begin(), expected.end());
      SortKeys(keys);
      EXPECT_EQ(keys, expected) << bits << " bits, " << n << " keys";
    }
  }
}

}  // namespace
}  // namespace ziosim
