//===- CappedDP.h - Quality-minimising DP under a stage-time cap -*- C++
//-*-===//
//
// For a fixed device order and micro-batch sizes: place layers contiguously
// on the devices (a device may be skipped) and pick bits so that every
// stage's weighted time  a * prefill + b * decode  stays under a cap and
// every stage fits its memory, minimising the total quality loss. Within a
// stage, at most two bit-widths are mixed and the most sensitive layers get
// the higher one (optimal for a separable loss S_l * g(b)).
//
//===----------------------------------------------------------------------===//
#ifndef WEFT_PLANNER_CAPPEDDP_H
#define WEFT_PLANNER_CAPPEDDP_H

#include "weft/Planner/CostTables.h"

#include <optional>

namespace weft::plan {

/// Sums of the n largest sensitivities of every layer range, for O(1)
/// quality of "top-n layers at the high bit-width" stage choices.
class TopSums {
public:
  explicit TopSums(const QualityModel &q);
  /// Sum of the n largest S_l for l in [a, a + k).
  double top(int64_t a, int64_t k, int64_t n) const {
    return n == 0 ? 0 : table[a][k - 1][n - 1];
  }
  double total(int64_t a, int64_t k) const { return top(a, k, k); }

private:
  std::vector<std::vector<std::vector<double>>> table;
};

struct CappedDP {
  const CostTables &tables;
  const TopSums &tops;
  std::vector<int> bitMenu; // allowed bits, descending
  double prefillWeight = 1; // a
  double decodeWeight = 1;  // b
  /// Weights of the stage-time sum (fill/drain and round-trip terms of the
  /// pipeline model), used when lambda is finite.
  double prefillSumWeight = 1;
  double decodeSumWeight = 1;

  /// Weighted time of a stage as the DP sees it, for capping.
  double weighted(double prefillMs, double decodeMs) const {
    return prefillWeight * prefillMs + decodeWeight * decodeMs;
  }
  /// Among plans whose stages all stay under `cap`: with lambda = inf the
  /// one with the least quality loss; otherwise the one minimising
  /// (weighted sum of stage times) + lambda * loss.
  std::optional<Plan> solve(const std::vector<int> &order, double cap,
                            double lambda = kNoLambda) const;
  static constexpr double kNoLambda = -1;
  /// A cap no stage can exceed (the whole model on the slowest device).
  double upperCap(const std::vector<int> &order) const;
};

} // namespace weft::plan

#endif
