#include "sim/stats/demerit.h"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <stdexcept>
#include <string>

#include "sim/stats/quantile.h"

namespace ziosim {
namespace {

// The type-4 quantiles of ascending `sorted`.
auto Exact(std::span<const double> sorted) {
  auto kth = [sorted](int64_t k) { return sorted[static_cast<size_t>(k - 1)]; };
  return Type4Quantiles<decltype(kth)>(static_cast<int64_t>(sorted.size()), kth);
}

void RequireSamples(std::span<const double> samples, const char* what) {
  if (samples.empty()) throw std::invalid_argument(std::string(what) + ": no samples");
}

}  // namespace

double Quantile(std::span<const double> sorted, double q) {
  RequireSamples(sorted, "Quantile");
  return Exact(sorted).Quantile(q);
}

double DemeritMs(std::vector<double> measured_ms, std::vector<double> simulated_ms) {
  std::sort(measured_ms.begin(), measured_ms.end());
  std::sort(simulated_ms.begin(), simulated_ms.end());
  return DemeritMsSorted(measured_ms, simulated_ms);
}

double DemeritMsSorted(std::span<const double> measured_sorted_ms, std::span<const double> simulated_sorted_ms) {
  RequireSamples(measured_sorted_ms, "DemeritMs: measured");
  RequireSamples(simulated_sorted_ms, "DemeritMs: simulated");
  auto measured = Exact(measured_sorted_ms);
  auto simulated = Exact(simulated_sorted_ms);
  return DemeritOnGrid(measured, simulated);
}

LatencySummary SummarizeLatencies(std::vector<double> samples_ms) {
  std::sort(samples_ms.begin(), samples_ms.end());
  return SummarizeSorted(samples_ms);
}

LatencySummary SummarizeSorted(std::span<const double> sorted_ms) {
  LatencySummary s;
  if (sorted_ms.empty()) return s;
  s.count = static_cast<int64_t>(sorted_ms.size());
  // Summed in ascending order, as it always was: another order changes the means' last bits.
  s.mean_ms = std::accumulate(sorted_ms.begin(), sorted_ms.end(), 0.0) / static_cast<double>(s.count);
  s.p50_ms = Quantile(sorted_ms, 0.50);
  s.p90_ms = Quantile(sorted_ms, 0.90);
  s.p99_ms = Quantile(sorted_ms, 0.99);
  return s;
}

}  // namespace ziosim
