// Ordinary linear least squares for the calibration fits: y ~ X c, solved
// with Eigen's column-pivoting Householder QR (stable when two columns are
// nearly collinear, as an overhead and a seek constant can be), plus the
// residual figures every fit reports.
#ifndef ZIOSIM_SIM_CALIBRATION_LEAST_SQUARES_H_
#define ZIOSIM_SIM_CALIBRATION_LEAST_SQUARES_H_

#include <Eigen/Dense>

namespace ziosim {

struct LinearFit {
  Eigen::VectorXd coefficients;  // one per column of X
  Eigen::VectorXd residuals;     // y - X c, one per row
  double rms = 0;                // sqrt(mean of squared residuals)
};

// REQUIRES: X has as many rows as y and at least as many rows as columns.
LinearFit FitLinear(const Eigen::MatrixXd& x, const Eigen::VectorXd& y);

// 1.4826 * median absolute deviation from the median: a standard deviation
// that a minority of outliers cannot drag. 0 for an empty vector.
double RobustSigma(const Eigen::VectorXd& v);

}  // namespace ziosim

#endif  // ZIOSIM_SIM_CALIBRATION_LEAST_SQUARES_H_
