// How close a simulated response-time distribution is to a measured one:
// Ruemmler & Wilkes' demerit (1994), the yardstick DiskSim's validation uses,
// computed on the exact per-request samples rather than on binned histograms.
//
// Quantiles interpolate linearly between the points (i/n, x_(i)) of the
// empirical CDF (Hyndman & Fan type 4). That is the "linear interpolation
// between points of the CDF" of the definition, and it is the convention that
// reproduces the published exact-sample demerits of DiskSim's six validated
// drives to the fourth decimal (the (n-1)q "type 7" rule misses barracuda's).
#ifndef ZIOSIM_SIM_STATS_DEMERIT_H_
#define ZIOSIM_SIM_STATS_DEMERIT_H_

#include <cstdint>
#include <span>
#include <vector>

namespace ziosim {

// The q-quantile (q in [0, 1]) of ascending `sorted`: x_(1) up to q = 1/n,
// then linear between x_(i) at q = i/n and x_(i+1) at (i+1)/n.
// REQUIRES: `sorted` is non-empty and ascending; throws std::invalid_argument if empty.
double Quantile(std::span<const double> sorted, double q);

// sqrt(mean over q = 0.0001, 0.0002, ..., 1 of (Q_measured(q) - Q_simulated(q))^2), in the
// samples' unit (ms). The two sets may differ in size. Throws std::invalid_argument if either is empty.
double DemeritMs(std::vector<double> measured_ms, std::vector<double> simulated_ms);

// Count, mean and upper percentiles of a set of latencies (quantiles as above; zeros if empty).
struct LatencySummary {
  int64_t count = 0;
  double mean_ms = 0;
  double p50_ms = 0;
  double p90_ms = 0;
  double p99_ms = 0;
};
LatencySummary SummarizeLatencies(std::vector<double> samples_ms);

// The two figures above from samples already in ascending order, so that a
// caller holding large sets sorts each once, in place, for both.
LatencySummary SummarizeSorted(std::span<const double> sorted_ms);
double DemeritMsSorted(std::span<const double> measured_sorted_ms, std::span<const double> simulated_sorted_ms);

}  // namespace ziosim

#endif  // ZIOSIM_SIM_STATS_DEMERIT_H_
