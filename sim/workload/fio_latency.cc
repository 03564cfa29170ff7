#include "sim/workload/fio_latency.h"

#include <algorithm>
#include <bit>
#include <cmath>

namespace ziosim {

int FioLatency::BucketOf(int64_t ns) {
  const uint64_t v = static_cast<uint64_t>(std::max<int64_t>(ns, 0));
  const int msb = v == 0 ? 0 : 63 - std::countl_zero(v);
  if (msb <= kBits) return static_cast<int>(v);  // small values index themselves
  const int error_bits = msb - kBits;             // low bits the bucket drops
  const int64_t base = int64_t{error_bits + 1} << kBits;
  const int64_t offset = static_cast<int64_t>((v >> error_bits) & (kPerGroup - 1));
  return static_cast<int>(std::min<int64_t>(base + offset, kBuckets - 1));
}

int64_t FioLatency::BucketValue(int bucket) {
  if (bucket < 2 * kPerGroup) return bucket;
  const int error_bits = (bucket >> kBits) - 1;
  const int64_t base = int64_t{1} << (error_bits + kBits);
  const int64_t k = bucket % kPerGroup;
  return base + static_cast<int64_t>((static_cast<double>(k) + 0.5) * static_cast<double>(int64_t{1} << error_bits));
}

void FioLatency::Add(int64_t ns) {
  ++buckets_[static_cast<size_t>(BucketOf(ns))];
  if (count_ == 0 || ns < min_) min_ = ns;
  max_ = std::max(max_, ns);
  ++count_;
  const double delta = static_cast<double>(ns) - mean_;
  mean_ += delta / static_cast<double>(count_);
  m2_ += delta * (static_cast<double>(ns) - mean_);
}

void FioLatency::Merge(const FioLatency& other) {
  if (other.count_ == 0) return;
  for (int i = 0; i < kBuckets; ++i) buckets_[static_cast<size_t>(i)] += other.buckets_[static_cast<size_t>(i)];
  min_ = count_ == 0 ? other.min_ : std::min(min_, other.min_);
  max_ = std::max(max_, other.max_);
  // Chan et al.'s pairwise update of mean and M2.
  const double n_a = static_cast<double>(count_), n_b = static_cast<double>(other.count_);
  const double delta = other.mean_ - mean_;
  count_ += other.count_;
  const double n = static_cast<double>(count_);
  mean_ += delta * n_b / n;
  m2_ += other.m2_ + delta * delta * n_a * n_b / n;
}

double FioLatency::stddev_ns() const {
  return count_ > 1 ? std::sqrt(m2_ / static_cast<double>(count_ - 1)) : 0.0;
}

int64_t FioLatency::Percentile(double pct) const {
  if (count_ == 0) return 0;
  const double rank = pct / 100.0 * static_cast<double>(count_);
  uint64_t running = 0;
  for (int i = 0; i < kBuckets; ++i) {
    running += buckets_[static_cast<size_t>(i)];
    if (running > 0 && static_cast<double>(running) >= rank) return BucketValue(i);
  }
  return BucketValue(kBuckets - 1);
}

}  // namespace ziosim
