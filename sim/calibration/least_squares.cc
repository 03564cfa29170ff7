#include "sim/calibration/least_squares.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <vector>

namespace ziosim {
namespace {

double Median(std::vector<double> v) {
  const size_t mid = v.size() / 2;
  std::nth_element(v.begin(), v.begin() + static_cast<std::ptrdiff_t>(mid), v.end());
  const double upper = v[mid];
  if (v.size() % 2 == 1) return upper;
  return 0.5 * (upper + *std::max_element(v.begin(), v.begin() + static_cast<std::ptrdiff_t>(mid)));
}

}  // namespace

LinearFit FitLinear(const Eigen::MatrixXd& x, const Eigen::VectorXd& y) {
  if (x.rows() != y.size() || x.rows() < x.cols()) {
    throw std::logic_error("internal error: least squares needs at least as many equations as unknowns");
  }
  LinearFit fit;
  fit.coefficients = x.colPivHouseholderQr().solve(y);
  fit.residuals = y - x * fit.coefficients;
  fit.rms = y.size() > 0 ? std::sqrt(fit.residuals.squaredNorm() / static_cast<double>(y.size())) : 0.0;
  return fit;
}

double RobustSigma(const Eigen::VectorXd& v) {
  if (v.size() == 0) return 0;
  std::vector<double> values(v.data(), v.data() + v.size());
  const double median = Median(values);
  for (double& x : values) x = std::abs(x - median);
  // 1.4826 = 1 / Phi^-1(3/4): the MAD of a normal sample estimates 0.6745 sigma.
  return 1.4826 * Median(std::move(values));
}

}  // namespace ziosim
