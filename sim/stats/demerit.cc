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
  RequireSamples(measured_ms, "DemeritMs: measured");
  RequireSamples(simulated_ms, "DemeritMs: simulated");
  std::sort(measured_ms.begin(), measured_ms.end());
  std::sort(simulated_ms.begin(), simulated_ms.end());
  auto measured = Exact(measured_ms);
  auto simulated = Exact(simulated_ms);
  return DemeritOnGrid(measured, simulated);
}

LatencySummary SummarizeLatencies(std::vector<double> samples_ms) {
  LatencySummary s;
  if (samples_ms.empty()) return s;
  std::sort(samples_ms.begin(), samples_ms.end());
  s.count = static_cast<int64_t>(samples_ms.size());
  s.mean_ms = std::accumulate(samples_ms.begin(), samples_ms.end(), 0.0) / static_cast<double>(s.count);
  s.p50_ms = Quantile(samples_ms, 0.50);
  s.p90_ms = Quantile(samples_ms, 0.90);
  s.p99_ms = Quantile(samples_ms, 0.99);
  return s;
}

}  // namespace ziosim
