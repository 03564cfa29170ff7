// Sorted copies of large sets of latencies, for the figures that need every
// sample in order (means summed in ascending order, the demerit's 10,000
// quantiles). A least-significant-digit radix sort of unsigned keys: a million
// samples sort in a few linear passes instead of std::sort's ~20 comparisons
// each, and only over the digits the largest key uses. Doubles sort by their
// bit patterns, in the order std::sort gives (equal values are equal bit
// patterns, but for -0.0, which sorts before +0.0); latencies kept as integers
// (ns, or a trace's fixed-point digits) sort as those, in fewer passes.
#ifndef ZIOSIM_SIM_STATS_RADIX_SORT_H_
#define ZIOSIM_SIM_STATS_RADIX_SORT_H_

#include <cstdint>
#include <span>
#include <vector>

namespace ziosim {

// Sorts `keys` into ascending order.
void SortKeys(std::vector<uint64_t>& keys);

// `values` in ascending order. REQUIRES: no NaN.
std::vector<double> SortedCopy(std::span<const double> values);

}  // namespace ziosim

#endif  // ZIOSIM_SIM_STATS_RADIX_SORT_H_
