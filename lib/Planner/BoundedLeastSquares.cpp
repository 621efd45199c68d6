//===- BoundedLeastSquares.cpp - Ridge least squares with lower bounds ----===//
#include "weft/Planner/BoundedLeastSquares.h"

#include <cmath>
#include <vector>

namespace weft::plan {

Eigen::VectorXd boundedLeastSquares(const Eigen::MatrixXd &A,
                                    const Eigen::VectorXd &b,
                                    const Eigen::VectorXd &lower,
                                    const Eigen::VectorXd &prior,
                                    const Eigen::VectorXd &keep, double ridge) {
  const Eigen::Index rows = A.rows();
  Eigen::VectorXd x = keep;
  // Empty columns are not fitted.
  std::vector<Eigen::Index> cols;
  std::vector<double> norm;
  for (Eigen::Index j = 0; j < A.cols(); ++j) {
    double n = A.col(j).norm();
    if (n > 1e-12) {
      cols.push_back(j);
      norm.push_back(n);
    }
  }
  std::vector<bool> fixed(cols.size(), false);
  for (size_t pass = 0; pass <= cols.size(); ++pass) {
    std::vector<size_t> free;
    Eigen::VectorXd rhs = b;
    for (size_t c = 0; c < cols.size(); ++c) {
      if (fixed[c])
        rhs -= A.col(cols[c]) * lower(cols[c]);
      else
        free.push_back(c);
    }
    if (free.empty())
      break;
    const Eigen::Index f = Eigen::Index(free.size());
    Eigen::MatrixXd M = Eigen::MatrixXd::Zero(rows + f, f);
    Eigen::VectorXd v = Eigen::VectorXd::Zero(rows + f);
    v.head(rows) = rhs;
    double sqrtRidge = std::sqrt(ridge);
    for (Eigen::Index k = 0; k < f; ++k) {
      size_t c = free[size_t(k)];
      M.col(k).head(rows) = A.col(cols[c]) / norm[c];
      M(rows + k, k) = sqrtRidge;
      v(rows + k) = sqrtRidge * prior(cols[c]) * norm[c];
    }
    Eigen::VectorXd z = M.colPivHouseholderQr().solve(v);
    // Parameters below their bound are fixed there and the rest refitted.
    bool violated = false;
    for (Eigen::Index k = 0; k < f; ++k) {
      size_t c = free[size_t(k)];
      if (z(k) / norm[c] < lower(cols[c])) {
        fixed[c] = true;
        violated = true;
      }
    }
    if (violated)
      continue;
    for (Eigen::Index k = 0; k < f; ++k) {
      size_t c = free[size_t(k)];
      x(cols[c]) = z(k) / norm[c];
    }
    for (size_t c = 0; c < cols.size(); ++c)
      if (fixed[c])
        x(cols[c]) = lower(cols[c]);
    return x;
  }
  for (size_t c = 0; c < cols.size(); ++c) // everything at its bound
    x(cols[c]) = lower(cols[c]);
  return x;
}

} // namespace weft::plan
