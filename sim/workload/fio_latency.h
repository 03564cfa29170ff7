// Latencies kept the way fio keeps them (fio stat.h, FIO_IO_U_PLAT_*): a
// histogram with 64 equal buckets per power of two (exact below 128 ns,
// relative error under 1/64 above), 29 groups (to ~17 s), so a percentile is
// reported as fio reports it: the midpoint of the bucket that holds the rank.
// Min, max, mean and standard deviation are exact. Fixed size: recording a
// sample allocates nothing.
#ifndef ZIOSIM_SIM_WORKLOAD_FIO_LATENCY_H_
#define ZIOSIM_SIM_WORKLOAD_FIO_LATENCY_H_

#include <array>
#include <cstdint>

namespace ziosim {

// fio's default percentile_list.
inline constexpr std::array<double, 17> kFioPercentiles = {1,  5,  10, 20, 30,   40,   50,    60,   70,
                                                           80, 90, 95, 99, 99.5, 99.9, 99.95, 99.99};

class FioLatency {
 public:
  static constexpr int kBits = 6;                // FIO_IO_U_PLAT_BITS
  static constexpr int kPerGroup = 1 << kBits;   // FIO_IO_U_PLAT_VAL
  static constexpr int kGroups = 29;             // FIO_IO_U_PLAT_GROUP_NR
  static constexpr int kBuckets = kGroups * kPerGroup;

  void Add(int64_t ns);
  // Adds every sample of `other` (group_reporting).
  void Merge(const FioLatency& other);

  uint64_t count() const { return count_; }
  int64_t min_ns() const { return count_ > 0 ? min_ : 0; }
  int64_t max_ns() const { return max_; }
  double mean_ns() const { return mean_; }
  // Sample standard deviation (n - 1), as fio prints it; 0 below two samples.
  double stddev_ns() const;
  // The value fio prints for percentile `pct` (0..100): the midpoint of the
  // first bucket where the running count reaches pct% of all samples. 0 if empty.
  int64_t Percentile(double pct) const;

  static int BucketOf(int64_t ns);
  static int64_t BucketValue(int bucket);

 private:
  std::array<uint64_t, kBuckets> buckets_{};
  uint64_t count_ = 0;
  int64_t min_ = 0, max_ = 0;
  double mean_ = 0, m2_ = 0;  // Welford's running mean and sum of squared deviations
};

}  // namespace ziosim

#endif  // ZIOSIM_SIM_WORKLOAD_FIO_LATENCY_H_
