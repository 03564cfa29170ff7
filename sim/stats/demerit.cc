#include "sim/stats/demerit.h"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <stdexcept>
#include <string>

namespace ziosim {
namespace {

// The demerit's quantile grid: q = k / kDemeritSteps for k = 1 .. kDemeritSteps.
constexpr int64_t kDemeritSteps = 10000;

// Type-4 quantile at the 1-based position h = n*q, given as whole part `index`
// and fraction `frac`, so that the grid's positions n*k/10000 can be formed exactly.
double InterpolateAt(std::span<const double> sorted, int64_t index, double frac) {
  const int64_t n = static_cast<int64_t>(sorted.size());
  if (index < 1) return sorted.front();
  if (index >= n) return sorted.back();
  const double lo = sorted[index - 1];
  return lo + frac * (sorted[index] - lo);
}

// The quantile at q = k / kDemeritSteps, with the position computed in integers.
double GridQuantile(std::span<const double> sorted, int64_t k) {
  const int64_t scaled = static_cast<int64_t>(sorted.size()) * k;
  return InterpolateAt(sorted, scaled / kDemeritSteps,
                       static_cast<double>(scaled % kDemeritSteps) / kDemeritSteps);
}

void RequireSamples(std::span<const double> samples, const char* what) {
  if (samples.empty()) throw std::invalid_argument(std::string(what) + ": no samples");
}

}  // namespace

double Quantile(std::span<const double> sorted, double q) {
  RequireSamples(sorted, "Quantile");
  const double h = std::clamp(q, 0.0, 1.0) * static_cast<double>(sorted.size());
  const double index = std::floor(h);
  return InterpolateAt(sorted, static_cast<int64_t>(index), h - index);
}

double DemeritMs(std::vector<double> measured_ms, std::vector<double> simulated_ms) {
  RequireSamples(measured_ms, "DemeritMs: measured");
  RequireSamples(simulated_ms, "DemeritMs: simulated");
  std::sort(measured_ms.begin(), measured_ms.end());
  std::sort(simulated_ms.begin(), simulated_ms.end());
  double sum_sq = 0;
  for (int64_t k = 1; k <= kDemeritSteps; ++k) {
    const double d = GridQuantile(measured_ms, k) - GridQuantile(simulated_ms, k);
    sum_sq += d * d;
  }
  return std::sqrt(sum_sq / kDemeritSteps);
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
