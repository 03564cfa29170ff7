// Binary search of a sorted array without data-dependent branches. The
// simulator searches small sorted tables (zones, slipped sectors) with keys
// that arrive in no order -- a random request's block -- so each step of
// std::lower_bound's loop is a coin toss for the branch predictor, and a
// wrong guess costs more than the comparisons themselves. Here every step
// moves a pointer by a conditional move and the loop runs a fixed number of
// times for a given size; the answers are std::lower_bound's and
// std::upper_bound's, as indices.
#ifndef ZIOSIM_SIM_CORE_SORTED_SEARCH_H_
#define ZIOSIM_SIM_CORE_SORTED_SEARCH_H_

#include <cstddef>
#include <span>

namespace ziosim {

// Below this many elements a search counts rather than halves (a cache line of 8-byte keys).
inline constexpr size_t kCountedLinearly = 8;

// The number of elements of `sorted` (ascending by `before`) that come before
// `x`: the first index whose element is not before x, or sorted.size().
template <typename T, typename Before>
size_t CountBefore(std::span<const T> sorted, const T& x, Before before) {
  size_t n = sorted.size();
  if (n == 0) return 0;
  const T* base = sorted.data();
  // The answer lies in [base, base + n]; each step keeps it there and at
  // least halves n (n - n/2 >= n/2 covers both halves).
  while (n > kCountedLinearly) {
    const size_t half = n / 2;
    base = before(base[half], x) ? base + half : base;
    n -= half;
  }
  // The last few are counted: their compares are independent of each other,
  // where each halving step waits for the load the previous one chose.
  size_t count = 0;
  for (size_t i = 0; i < n; ++i) count += before(base[i], x) ? 1 : 0;
  return static_cast<size_t>(base - sorted.data()) + count;
}

// std::lower_bound(sorted, x) as an index: elements < x.
template <typename T>
size_t LowerBoundIndex(std::span<const T> sorted, const T& x) {
  return CountBefore(sorted, x, [](const T& a, const T& b) { return a < b; });
}

// std::upper_bound(sorted, x) as an index: elements <= x.
template <typename T>
size_t UpperBoundIndex(std::span<const T> sorted, const T& x) {
  return CountBefore(sorted, x, [](const T& a, const T& b) { return !(b < a); });
}

}  // namespace ziosim

#endif  // ZIOSIM_SIM_CORE_SORTED_SEARCH_H_
