// Where a value falls in a sorted table that never changes: how many entries lie
// below it (std::lower_bound as an index) or at or below it (std::upper_bound),
// in expected constant time. The simulator asks this of small fixed tables (zone
// boundaries, slipped sectors) with keys that arrive in no order -- a random
// request's block -- several times per disk request. A binary search is a chain
// of dependent loads, and with branches a coin toss for the predictor at every
// step. Here the range of values is cut into buckets of 2^k values, at least
// eight per entry, each holding the index of the first entry at or above its
// start: a query subtracts, shifts, loads, and steps over the entries of its
// bucket below it (nearly always none, so that loop's branch is predictable).
// Values below the first entry or past the last are clamped into the table's
// range first, without a branch.
#ifndef ZIOSIM_SIM_CORE_BUCKETED_RANK_H_
#define ZIOSIM_SIM_CORE_BUCKETED_RANK_H_

#include <algorithm>
#include <bit>
#include <concepts>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <span>
#include <stdexcept>
#include <type_traits>
#include <utility>
#include <vector>

namespace ziosim {

template <std::integral T>
class BucketedRank {
 public:
  BucketedRank() : BucketedRank(std::vector<T>{}) {}
  // REQUIRES: `sorted` ascending (repeats allowed), every entry below T's maximum
  // (which serves as the sentinel that ends a bucket's scan), fewer than 2^32 entries.
  explicit BucketedRank(std::vector<T> sorted) : values_(std::move(sorted)) {
    if (!std::is_sorted(values_.begin(), values_.end())) throw std::logic_error("BucketedRank: entries not sorted");
    if (values_.size() >= std::numeric_limits<uint32_t>::max()) throw std::logic_error("BucketedRank: too many entries");
    if (!values_.empty() && values_.back() == kSentinel) throw std::logic_error("BucketedRank: entry at T's maximum");
    const size_t n = values_.size();
    lo_ = n > 0 ? values_.front() : T{0};
    end_ = n > 0 ? static_cast<T>(values_.back() + 1) : T{0};
    // Buckets cover lo_ .. end_ inclusive: (range >> shift_) + 1 of them, where
    // range >> shift_ < 2^bit_width(8n) <= 16n.
    const U range = Offset(end_);
    shift_ = std::max(0, static_cast<int>(std::bit_width(range)) - static_cast<int>(std::bit_width(static_cast<U>(8 * n))));
    first_.resize(static_cast<size_t>(range >> shift_) + 1);
    for (size_t b = 0; b < first_.size(); ++b) {
      const T start = static_cast<T>(static_cast<U>(lo_) + (static_cast<U>(b) << shift_));
      first_[b] = static_cast<uint32_t>(std::lower_bound(values_.begin(), values_.end(), start) - values_.begin());
    }
    values_.push_back(kSentinel);
  }

  size_t size() const { return values_.size() - 1; }
  bool empty() const { return size() == 0; }
  T operator[](size_t i) const { return values_[i]; }
  std::span<const T> values() const { return {values_.data(), size()}; }
  // Buckets in the table (4 bytes each): one for an empty table, at most 16 per entry.
  size_t buckets() const { return first_.size(); }

  // Entries below x.
  size_t LowerBound(T x) const {
    // Clamped, x keeps its answer: 0 below the first entry, size() past the last.
    const T c = std::clamp(x, lo_, end_);
    size_t i = first_[static_cast<size_t>(Offset(c) >> shift_)];
    while (values_[i] < c) ++i;  // stops at the sentinel at the latest
    return i;
  }
  // Entries at or below x.
  size_t UpperBound(T x) const { return LowerBound(x == kSentinel ? x : static_cast<T>(x + 1)); }

 private:
  using U = std::make_unsigned_t<T>;
  static constexpr T kSentinel = std::numeric_limits<T>::max();

  // c - lo_, exact in U for any c >= lo_ (a signed difference could overflow).
  U Offset(T c) const { return static_cast<U>(static_cast<U>(c) - static_cast<U>(lo_)); }

  std::vector<T> values_;        // the entries, then the sentinel
  std::vector<uint32_t> first_;  // first_[b]: the first entry >= lo_ + (b << shift_)
  T lo_ = 0;                     // the first entry
  T end_ = 0;                    // the last entry + 1
  int shift_ = 0;
};

}  // namespace ziosim

#endif  // ZIOSIM_SIM_CORE_BUCKETED_RANK_H_
