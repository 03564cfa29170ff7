// The quantile convention of sim/stats (demerit.h: Hyndman & Fan type 4,
// linear between the points (i/n, x_(i)) of the empirical CDF) over any
// ascending sequence read through `kth(k)`, the k-th smallest value (1-based):
// exact samples and histograms (latency_series.h) share one definition, so
// both give the same figures for the same samples.
#ifndef ZIOSIM_SIM_STATS_QUANTILE_H_
#define ZIOSIM_SIM_STATS_QUANTILE_H_

#include <algorithm>
#include <cmath>
#include <cstdint>

namespace ziosim {

// The demerit's quantile grid: q = k / kDemeritSteps for k = 1 .. kDemeritSteps.
inline constexpr int64_t kDemeritSteps = 10000;

// Type-4 quantiles of `n` ascending values. `Kth` is copied twice, once for the
// lower and once for the upper point of each interpolation, so that a
// stateful reader (one that only moves forward) sees non-decreasing k on each
// copy as long as the positions asked for do not decrease.
template <typename Kth>
class Type4Quantiles {
 public:
  Type4Quantiles(int64_t n, const Kth& kth) : n_(n), lo_(kth), hi_(kth) {}

  // At the 1-based position index + frac: x_(1) below 1, x_(n) from n on.
  double AtPosition(int64_t index, double frac) {
    if (index < 1) return lo_(1);
    if (index >= n_) return lo_(n_);
    const double lo = lo_(index);
    return lo + frac * (hi_(index + 1) - lo);
  }

  // The q-quantile, q clamped to [0, 1].
  double Quantile(double q) {
    const double h = std::clamp(q, 0.0, 1.0) * static_cast<double>(n_);
    const double index = std::floor(h);
    return AtPosition(static_cast<int64_t>(index), h - index);
  }

  // The quantile at q = k / kDemeritSteps, with the position n*k/kDemeritSteps
  // formed exactly in integers.
  double GridQuantile(int64_t k) {
    const int64_t scaled = n_ * k;
    return AtPosition(scaled / kDemeritSteps, static_cast<double>(scaled % kDemeritSteps) / kDemeritSteps);
  }

 private:
  int64_t n_;
  Kth lo_, hi_;
};

// sqrt(mean over the grid of (Q_measured(q) - Q_simulated(q))^2).
template <typename M, typename S>
double DemeritOnGrid(Type4Quantiles<M>& measured, Type4Quantiles<S>& simulated) {
  double sum_sq = 0;
  for (int64_t k = 1; k <= kDemeritSteps; ++k) {
    const double d = measured.GridQuantile(k) - simulated.GridQuantile(k);
    sum_sq += d * d;
  }
  return std::sqrt(sum_sq / kDemeritSteps);
}

}  // namespace ziosim

#endif  // ZIOSIM_SIM_STATS_QUANTILE_H_
