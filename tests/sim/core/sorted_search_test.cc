#include "sim/core/sorted_search.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <random>
#include <vector>

namespace ziosim {
namespace {

TEST(SortedSearchTest, EmptyArrayHasNothingBefore) {
  const std::vector<int64_t> none;
  EXPECT_EQ(LowerBoundIndex<int64_t>(none, 5), 0u);
  EXPECT_EQ(UpperBoundIndex<int64_t>(none, 5), 0u);
}

TEST(SortedSearchTest, HandWorkedCases) {
  const std::vector<int64_t> v = {2, 4, 4, 4, 9};
  EXPECT_EQ(LowerBoundIndex<int64_t>(v, 1), 0u);
  EXPECT_EQ(UpperBoundIndex<int64_t>(v, 1), 0u);
  EXPECT_EQ(LowerBoundIndex<int64_t>(v, 2), 0u);
  EXPECT_EQ(UpperBoundIndex<int64_t>(v, 2), 1u);
  EXPECT_EQ(LowerBoundIndex<int64_t>(v, 4), 1u);  // the first of the equal run
  EXPECT_EQ(UpperBoundIndex<int64_t>(v, 4), 4u);  // past the last of it
  EXPECT_EQ(LowerBoundIndex<int64_t>(v, 5), 4u);
  EXPECT_EQ(LowerBoundIndex<int64_t>(v, 9), 4u);
  EXPECT_EQ(UpperBoundIndex<int64_t>(v, 9), 5u);
  EXPECT_EQ(LowerBoundIndex<int64_t>(v, 10), 5u);
}

// Every size from 0 to 70 (odd and even, powers of two and their neighbours),
// with runs of equal keys, against the standard library at every probe.
TEST(SortedSearchTest, AgreesWithTheStandardSearches) {
  std::mt19937_64 rng(14);
  for (size_t n = 0; n <= 70; ++n) {
    for (int trial = 0; trial < 20; ++trial) {
      std::vector<int> v(n);
      for (int& x : v) x = static_cast<int>(rng() % (n + 3));
      std::sort(v.begin(), v.end());
      for (int x = -1; x <= static_cast<int>(n) + 4; ++x) {
        ASSERT_EQ(LowerBoundIndex<int>(v, x), static_cast<size_t>(std::lower_bound(v.begin(), v.end(), x) - v.begin()))
            << "n " << n << " x " << x;
        ASSERT_EQ(UpperBoundIndex<int>(v, x), static_cast<size_t>(std::upper_bound(v.begin(), v.end(), x) - v.begin()))
            << "n " << n << " x " << x;
      }
    }
  }
}

}  // namespace
}  // namespace ziosim
