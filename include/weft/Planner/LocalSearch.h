//===- LocalSearch.h - Polish a plan on the exact objective -----*- C++ -*-===//
#ifndef WEFT_PLANNER_LOCALSEARCH_H
#define WEFT_PLANNER_LOCALSEARCH_H

#include "weft/Planner/CostTables.h"

#include "llvm/ADT/ArrayRef.h"

namespace weft::plan {

/// True when a predicted plan fits in memory and meets the quality budget
/// (with a relative tolerance for rounding in the loss sums).
inline bool meetsTarget(const Prediction &p, double maxLoss) {
  return p.fitsMemory && p.qualityLoss <= maxLoss * (1 + 1e-9) + 1e-15;
}

/// Best-improvement local search with the exact pipeline model of `t`:
/// each round tries moving one layer across each stage boundary and giving
/// one layer another bit-width from `bits` (none when empty), and keeps the
/// best move that still meets the target. Updates `plan` and `pred`.
void polishPlan(const CostTables &t, llvm::ArrayRef<int> bits, double maxLoss,
                int maxRounds, Plan &plan, Prediction &pred);

} // namespace weft::plan

#endif
