//===- Planner.h - Serving-plan search --------------------------*- C++ -*-===//
//
// planFast: the production planner (bottleneck-capped DP, docs/planner.md).
// planUniform / planPipeEdge: baselines with one bit-width for all layers.
// planExact: exhaustive reference for small instances (tests, benchmark).
//
//===----------------------------------------------------------------------===//
#ifndef WEFT_PLANNER_PLANNER_H
#define WEFT_PLANNER_PLANNER_H

#include "weft/Planner/Plan.h"

#include <chrono>
#include <cstdint>
#include <limits>
#include <utility>

namespace weft::plan {

struct PlannerOptions {
  /// Predicted quality loss the plan may not exceed (Quality.h scale).
  double maxQualityLoss = std::numeric_limits<double>::infinity();
  /// Bit-widths layers may use (subset of 16, 8, 4, 3).
  std::vector<int> bits = {16, 8, 4, 3};
};

struct PlanResult {
  Plan plan;
  Prediction predicted;
  double seconds = 0;   // planning time
  int64_t searched = 0; // DP runs (fast) or evaluated plans (exact)
};

llvm::Expected<PlanResult> planFast(const Problem &p,
                                    const PlannerOptions &o = {});
/// Even split over all devices in cluster order, the highest bit-width that
/// fits, best micro-batch sizes.
llvm::Expected<PlanResult> planUniform(const Problem &p);
/// Balanced (min-max stage time) split at the highest bit-width for which a
/// feasible split exists, over the same device orders as planFast.
llvm::Expected<PlanResult> planPipeEdge(const Problem &p);
/// Exhaustive search over device orders, contiguous splits, per-layer bits
/// and the same micro-batch candidates. Fails when the instance would need
/// more than `maxPlans` evaluations.
llvm::Expected<PlanResult> planExact(const Problem &p,
                                     const PlannerOptions &o = {},
                                     int64_t maxPlans = 20'000'000);

/// Wall-clock seconds since `start` (planning times in PlanResult).
inline double secondsSince(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start)
      .count();
}

/// (prefill, decode) micro-batch sizes every planner considers.
std::vector<std::pair<int64_t, int64_t>> microbatchCandidates(const Problem &p);
/// Devices of the same node and type, which planners keep together. A plan
/// has at most one stage per layer, so each group keeps at most
/// `maxPerGroup` devices.
std::vector<std::vector<int>> deviceGroups(const Cluster &c,
                                           size_t maxPerGroup = SIZE_MAX);
/// Group orders every planner starts from: all permutations up to
/// kAllOrdersUpTo groups, otherwise orders sorted by compute, memory and
/// bandwidth (planFast then improves them by local search).
constexpr size_t kAllOrdersUpTo = 4;
std::vector<std::vector<int>>
seedGroupOrders(const Cluster &c, const std::vector<std::vector<int>> &groups);
std::vector<int> flattenOrder(const std::vector<std::vector<int>> &groups,
                              llvm::ArrayRef<int> groupOrder);
/// Highest bit-width for which some plan fits in memory, or an error saying
/// how many GB are missing at 3 bits.
llvm::Expected<int> highestFeasibleUniformBits(const Problem &p);

} // namespace weft::plan

#endif
