#include "sim/core/bucketed_rank.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <limits>
#include <random>
#include <stdexcept>
#include <vector>

namespace ziosim {
namespace {

template <typename T>
size_t StdLower(const std::vector<T>& v, T x) {
  return static_cast<size_t>(std::lower_bound(v.begin(), v.end(), x) - v.begin());
}
template <typename T>
size_t StdUpper(const std::vector<T>& v, T x) {
  return static_cast<size_t>(std::upper_bound(v.begin(), v.end(), x) - v.begin());
}

TEST(BucketedRankTest, EmptyTableHasNothingBelowAnything) {
  const BucketedRank<int64_t> none;
  EXPECT_TRUE(none.empty());
  for (const int64_t x : {std::numeric_limits<int64_t>::min(), int64_t{-1}, int64_t{0}, int64_t{5},
                          std::numeric_limits<int64_t>::max()}) {
    EXPECT_EQ(none.LowerBound(x), 0u) << x;
    EXPECT_EQ(none.UpperBound(x), 0u) << x;
  }
}

TEST(BucketedRankTest, HandWorkedCases) {
  const BucketedRank<int64_t> v({2, 4, 4, 4, 9});
  EXPECT_EQ(v.size(), 5u);
  EXPECT_EQ(v[4], 9);
  EXPECT_EQ(v.LowerBound(1), 0u);
  EXPECT_EQ(v.UpperBound(1), 0u);
  EXPECT_EQ(v.LowerBound(2), 0u);
  EXPECT_EQ(v.UpperBound(2), 1u);
  EXPECT_EQ(v.LowerBound(4), 1u);  // the first of the equal run
  EXPECT_EQ(v.UpperBound(4), 4u);  // past the last of it
  EXPECT_EQ(v.LowerBound(5), 4u);
  EXPECT_EQ(v.LowerBound(9), 4u);
  EXPECT_EQ(v.UpperBound(9), 5u);
  EXPECT_EQ(v.LowerBound(10), 5u);
  EXPECT_EQ(v.UpperBound(std::numeric_limits<int64_t>::max()), 5u);
  EXPECT_EQ(v.LowerBound(std::numeric_limits<int64_t>::min()), 0u);
}

// Sizes 0 to 70, entries drawn from ranges narrow (long runs of equal entries,
// every bucket crowded) to wide (a few entries in a huge range, clustered or
// negative), against the standard library at every probe near each entry and
// at random ones, to the type's limits.
TEST(BucketedRankTest, AgreesWithTheStandardSearches) {
  std::mt19937_64 rng(14);
  const int64_t spreads[] = {1, 3, 100, int64_t{1} << 20, int64_t{1} << 40, int64_t{1} << 61};
  for (size_t n = 0; n <= 70; ++n) {
    for (const int64_t spread : spreads) {
      for (int trial = 0; trial < 4; ++trial) {
        const int64_t base = static_cast<int64_t>(rng() % 1000) - 500 - (trial % 2 == 1 ? spread : 0);
        std::vector<int64_t> v(n);
        for (int64_t& x : v) x = base + static_cast<int64_t>(rng() % static_cast<uint64_t>(spread));
        if (trial == 3 && n > 2) std::fill(v.begin(), v.begin() + static_cast<ptrdiff_t>(n / 2), base);  // a cluster
        std::sort(v.begin(), v.end());
        const BucketedRank<int64_t> rank(v);
        ASSERT_LE(rank.buckets(), std::max<size_t>(1, 16 * n)) << "n " << n << " spread " << spread;
        std::vector<int64_t> probes = {std::numeric_limits<int64_t>::min(), std::numeric_limits<int64_t>::max() - 1,
                                       std::numeric_limits<int64_t>::max()};
        for (const int64_t x : v) probes.insert(probes.end(), {x - 1, x, x + 1});
        for (int k = 0; k < 50; ++k) probes.push_back(base - spread / 4 + static_cast<int64_t>(rng() % (2 * spread)));
        for (const int64_t x : probes) {
          ASSERT_EQ(rank.LowerBound(x), StdLower(v, x)) << "n " << n << " spread " << spread << " x " << x;
          ASSERT_EQ(rank.UpperBound(x), StdUpper(v, x)) << "n " << n << " spread " << spread << " x " << x;
        }
      }
    }
  }
}

TEST(BucketedRankTest, NarrowTypesAndTheirLimits) {
  const std::vector<int> v = {std::numeric_limits<int>::min(), -1, 0, 0, 7, std::numeric_limits<int>::max() - 1};
  const BucketedRank<int> rank(v);  // entries spanning the whole type, in few buckets
  EXPECT_LE(rank.buckets(), 16 * v.size());
  for (const int x : {std::numeric_limits<int>::min(), std::numeric_limits<int>::min() + 1, -2, -1, 0, 1, 6, 7, 8,
                      std::numeric_limits<int>::max() - 1, std::numeric_limits<int>::max()}) {
    EXPECT_EQ(rank.LowerBound(x), StdLower(v, x)) << x;
    EXPECT_EQ(rank.UpperBound(x), StdUpper(v, x)) << x;
  }
}

TEST(BucketedRankTest, RefusesWhatItCannotAnswer) {
  EXPECT_THROW(BucketedRank<int64_t>({3, 2}), std::logic_error);
  EXPECT_THROW(BucketedRank<int64_t>({1, std::numeric_limits<int64_t>::max()}), std::logic_error);
}

}  // namespace
}  // namespace ziosim
