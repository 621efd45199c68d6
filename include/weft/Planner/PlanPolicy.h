//===- PlanPolicy.h - What `weft plan` and llm-plan decide with -*- C++ -*-===//
//
// The policy around the planners: which quality indicator a model gets,
// which quality target a request means, and which planner runs. `weft plan`
// and the llm-plan pass both call it, so they make the same plan.
//
//===----------------------------------------------------------------------===//
#ifndef WEFT_PLANNER_PLANPOLICY_H
#define WEFT_PLANNER_PLANPOLICY_H

#include "weft/Planner/Planner.h"

#include <optional>
#include <string>

namespace weft::plan {

/// What a plan is asked for.
struct PlanRequest {
  std::string planner = "fast"; ///< fast, uniform, pipeedge or exact
  /// Largest predicted quality loss (Quality.h scale), if given.
  std::optional<double> maxQualityLoss;
  /// Loss no worse than every layer at these bits (0: none).
  int qualityFloorBits = 0;
  /// Bit-widths layers may use.
  std::vector<int> bits = {16, 8, 4, 3};
};

/// Checks a request; errors name the field ("bits: unsupported bit-width
/// 5 (supported: 16, 8, 4, 3)"), as the options of both callers are named.
llvm::Error validatePlanRequest(const PlanRequest &r);

/// A plan with its baselines (absent when infeasible) and the quality
/// target the planner met (infinity when there was none).
struct PlanOutcome {
  PlanResult result;
  std::optional<PlanResult> uniform, pipeedge;
  double maxQualityLoss = 0;
};

/// Runs both baselines and the requested planner. Without a quality option
/// the target is the loss of the PipeEdge-like baseline, or of the best
/// allowed bit-width when `bits` rules that loss out (docs/planner.md).
llvm::Expected<PlanOutcome> makePlan(const Problem &p, const PlanRequest &r);

/// The quality indicator of `m` from the weights at `path` when it holds
/// any (a llama2.c checkpoint, or a directory with *.safetensors), the
/// prior otherwise. Errors name the file.
llvm::Expected<QualityModel> qualityFromCheckpoint(const cost::ModelDesc &m,
                                                   llvm::StringRef path);

} // namespace weft::plan

#endif
