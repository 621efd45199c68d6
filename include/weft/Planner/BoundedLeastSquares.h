//===- BoundedLeastSquares.h - Ridge least squares, bounds -*- C++ -*-===//
//
// The regression both profile fits solve: minimise |A x - b|^2 plus a ridge
// pull towards a prior, on columns scaled to unit norm (so one ridge weight
// suits parameters of any unit), subject to x >= lower. Bounds a solve
// violates are fixed at the bound and the rest solved again (an active-set
// loop over Eigen's column-pivoting QR).
//
//===----------------------------------------------------------------------===//
#ifndef WEFT_PLANNER_BOUNDEDLEASTSQUARES_H
#define WEFT_PLANNER_BOUNDEDLEASTSQUARES_H

#include <Eigen/Dense>

namespace weft::plan {

/// The solution; a column of A that is (numerically) zero keeps its value
/// from `keep`.
Eigen::VectorXd boundedLeastSquares(const Eigen::MatrixXd &A,
                                    const Eigen::VectorXd &b,
                                    const Eigen::VectorXd &lower,
                                    const Eigen::VectorXd &prior,
                                    const Eigen::VectorXd &keep, double ridge);

} // namespace weft::plan

#endif
