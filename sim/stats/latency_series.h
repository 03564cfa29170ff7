// A series of latencies whose memory stops growing: kept exactly (8 bytes per
// sample, in ms as the demerit code takes them) up to a limit, then moved
// into a log histogram of fixed size (exact below 4096 ns, then 4096 buckets
// per octave: relative resolution 2^-12, about 0.025 %). Quantiles and the
// demerit follow demerit.h's definition either way (quantile.h); from a
// histogram, the samples of a bucket are spread evenly across it.
#ifndef ZIOSIM_SIM_STATS_LATENCY_SERIES_H_
#define ZIOSIM_SIM_STATS_LATENCY_SERIES_H_

#include <algorithm>
#include <cstdint>
#include <vector>

#include "sim/core/time.h"
#include "sim/stats/demerit.h"

namespace ziosim {

class LatencySeries {
 public:
  // Exact up to `exact_limit` samples (at least 1).
  explicit LatencySeries(int64_t exact_limit) : exact_limit_(std::max<int64_t>(exact_limit, 1)) {}

  void Add(SimTime ns);

  int64_t count() const { return count_; }
  bool exact() const { return histogram_.empty(); }
  const std::vector<double>& exact_ms() const { return exact_ms_; }
  // Samples per bucket (exact() false).
  const std::vector<int64_t>& histogram() const { return histogram_; }
  double mean_ms() const { return count_ == 0 ? 0.0 : static_cast<double>(sum_ns_ / count_) / 1e6; }

  // Sorts the exact samples (after which the series takes no more).
  void SortExact() { std::sort(exact_ms_.begin(), exact_ms_.end()); }

 private:
  void MoveToHistogram();

  int64_t exact_limit_;
  int64_t count_ = 0;
  long double sum_ns_ = 0;
  std::vector<double> exact_ms_;
  std::vector<int64_t> histogram_;
};

// Count, mean and percentiles of the series (zeros if empty).
LatencySummary SummarizeSeries(const LatencySeries& s);

// The demerit (demerit.h) between two non-empty series; sorts their exact samples.
double DemeritMs(LatencySeries& measured, LatencySeries& simulated);

}  // namespace ziosim

#endif  // ZIOSIM_SIM_STATS_LATENCY_SERIES_H_
