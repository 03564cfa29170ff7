#include "sim/stats/latency_series.h"

#include <bit>
#include <cmath>

#include "sim/stats/quantile.h"

namespace ziosim {
namespace {

// Log-linear buckets: exact below 2^kSubBits ns, then 2^kSubBits buckets per octave.
constexpr int kSubBits = 12;
constexpr int64_t kSub = int64_t{1} << kSubBits;
constexpr size_t kBuckets = static_cast<size_t>(kSub + (63 - kSubBits) * kSub);

size_t BucketOf(SimTime ns) {
  const uint64_t v = static_cast<uint64_t>(std::max<SimTime>(ns, 0));
  if (v < static_cast<uint64_t>(kSub)) return static_cast<size_t>(v);
  const int e = 63 - std::countl_zero(v);  // >= kSubBits
  return static_cast<size_t>(kSub + (e - kSubBits) * kSub + static_cast<int64_t>(v >> (e - kSubBits)) - kSub);
}

// The bucket's lowest value and its width, in ns (width 0: the bucket holds one value).
void BucketRange(size_t i, double& lo, double& width) {
  if (i < static_cast<size_t>(kSub)) {
    lo = static_cast<double>(i);
    width = 0;
    return;
  }
  const int64_t j = static_cast<int64_t>(i) - kSub;
  const int shift = static_cast<int>(j / kSub);  // e - kSubBits
  const int64_t mantissa = j % kSub + kSub;
  lo = std::ldexp(static_cast<double>(mantissa), shift);
  width = std::ldexp(1.0, shift);
}

// The k-th smallest sample (1-based) of a series, in ms: exact from the sorted
// samples, or spread evenly across its histogram bucket. For a histogram, k
// must not decrease between calls on one reader.
class KthSample {
 public:
  explicit KthSample(const LatencySeries& s) : s_(&s) {}

  double operator()(int64_t k) {
    if (s_->exact()) return s_->exact_ms()[static_cast<size_t>(k - 1)];
    const std::vector<int64_t>& counts = s_->histogram();
    while (before_ + counts[bucket_] < k) before_ += counts[bucket_++];
    double lo = 0, width = 0;
    BucketRange(bucket_, lo, width);
    const double j = static_cast<double>(k - before_);
    return (lo + width * (j - 0.5) / static_cast<double>(counts[bucket_])) / 1e6;
  }

 private:
  const LatencySeries* s_;
  size_t bucket_ = 0;
  int64_t before_ = 0;  // samples in the buckets below bucket_
};

Type4Quantiles<KthSample> QuantilesOf(const LatencySeries& s) {
  return Type4Quantiles<KthSample>(s.count(), KthSample(s));
}

}  // namespace

void LatencySeries::Add(SimTime ns) {
  ++count_;
  sum_ns_ += static_cast<long double>(ns);
  if (histogram_.empty()) {
    exact_ms_.push_back(NsToMs(ns));
    if (static_cast<int64_t>(exact_ms_.size()) > exact_limit_) MoveToHistogram();
  } else {
    ++histogram_[BucketOf(ns)];
  }
}

void LatencySeries::MoveToHistogram() {
  histogram_.assign(kBuckets, 0);
  for (double ms : exact_ms_) ++histogram_[BucketOf(static_cast<SimTime>(std::llround(ms * 1e6)))];
  exact_ms_.clear();
  exact_ms_.shrink_to_fit();
}

LatencySummary SummarizeSeries(const LatencySeries& s) {
  if (s.count() == 0) return {};
  if (s.exact()) return SummarizeLatencies(s.exact_ms());
  LatencySummary out;
  out.count = s.count();
  out.mean_ms = s.mean_ms();
  auto q = QuantilesOf(s);
  out.p50_ms = q.Quantile(0.50);
  out.p90_ms = q.Quantile(0.90);
  out.p99_ms = q.Quantile(0.99);
  return out;
}

double DemeritMs(LatencySeries& measured, LatencySeries& simulated) {
  if (measured.exact() && simulated.exact()) return DemeritMs(measured.exact_ms(), simulated.exact_ms());
  // Mixed: the exact side is read sorted, the histogram side bucket by bucket.
  measured.SortExact();
  simulated.SortExact();
  auto m = QuantilesOf(measured);
  auto s = QuantilesOf(simulated);
  return DemeritOnGrid(m, s);
}

}  // namespace ziosim
