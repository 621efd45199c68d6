//===- BestPlan.h - Keep the best feasible plan seen so far -----*- C++ -*-===//
#ifndef WEFT_PLANNER_BESTPLAN_H
#define WEFT_PLANNER_BESTPLAN_H

#include "weft/Planner/Planner.h"

namespace weft::plan {

/// Collects candidate plans of an enumerating planner and keeps the fastest
/// one that fits in memory.
class BestPlan {
public:
  BestPlan() : start(std::chrono::steady_clock::now()) {}

  void offer(const Plan &plan, const Prediction &pred) {
    ++evaluated;
    if (pred.fitsMemory &&
        (!found || pred.throughput > best.predicted.throughput)) {
      best.plan = plan;
      best.predicted = pred;
      found = true;
    }
  }
  bool any() const { return found; }

  /// The result with its planning time, or an error saying `whyNone`.
  llvm::Expected<PlanResult> take(llvm::StringRef whyNone) {
    if (!found)
      return llvm::createStringError(llvm::inconvertibleErrorCode(), whyNone);
    best.searched = evaluated;
    best.seconds = secondsSince(start);
    return best;
  }

private:
  std::chrono::steady_clock::time_point start;
  PlanResult best;
  bool found = false;
  int64_t evaluated = 0;
};

} // namespace weft::plan

#endif
