//===- PlanPolicy.cpp - What `weft plan` and llm-plan decide with ---------===//
#include "weft/Planner/PlanPolicy.h"
#include "weft/Planner/ModelImport.h"
#include "weft/Planner/Quality.h"

#include <algorithm>
#include <cmath>

using namespace llvm;

namespace weft::plan {

static Error requestError(const Twine &msg) {
  return createStringError(inconvertibleErrorCode(), msg);
}

Error validatePlanRequest(const PlanRequest &r) {
  if (r.planner != "fast" && r.planner != "uniform" &&
      r.planner != "pipeedge" && r.planner != "exact")
    return requestError("planner: unknown '" + r.planner + "'");
  if (r.bits.empty())
    return requestError("bits: no bit-width allowed");
  for (int b : r.bits)
    if (!cost::isSupportedBits(b))
      return requestError("bits: unsupported bit-width " + Twine(b) +
                          " (supported: 16, 8, 4, 3)");
  if (r.qualityFloorBits != 0 && !cost::isSupportedBits(r.qualityFloorBits))
    return requestError("quality-floor-bits: expected 16, 8, 4 or 3");
  if (r.maxQualityLoss && !(*r.maxQualityLoss >= 0))
    return requestError("max-quality-loss: expected a non-negative number");
  return Error::success();
}

/// A baseline's plan, or nothing where it failed (its error dropped).
static std::optional<PlanResult> planOrNothing(Expected<PlanResult> &plan) {
  if (plan)
    return std::move(*plan);
  consumeError(plan.takeError());
  return std::nullopt;
}

Expected<PlanOutcome> makePlan(const Problem &p, const PlanRequest &r) {
  if (Error e = validatePlanRequest(r))
    return std::move(e);
  Expected<PlanResult> uniform = planUniform(p);
  Expected<PlanResult> pipeedge = planPipeEdge(p);
  PlannerOptions options;
  options.bits = r.bits;
  if (r.qualityFloorBits)
    options.maxQualityLoss = p.quality.uniformLoss(r.qualityFloorBits);
  if (r.maxQualityLoss)
    options.maxQualityLoss =
        std::min(options.maxQualityLoss, *r.maxQualityLoss);
  if (!r.qualityFloorBits && !r.maxQualityLoss && pipeedge)
    options.maxQualityLoss = std::max(
        pipeedge->predicted.qualityLoss,
        p.quality.uniformLoss(*std::max_element(r.bits.begin(), r.bits.end())));
  Expected<PlanResult> result = r.planner == "uniform"    ? planUniform(p)
                                : r.planner == "pipeedge" ? planPipeEdge(p)
                                : r.planner == "exact" ? planExact(p, options)
                                                       : planFast(p, options);
  std::optional<PlanResult> uniformPlan = planOrNothing(uniform);
  std::optional<PlanResult> pipeedgePlan = planOrNothing(pipeedge);
  if (!result)
    return result.takeError();
  return PlanOutcome{std::move(*result), std::move(uniformPlan),
                     std::move(pipeedgePlan), options.maxQualityLoss};
}

Expected<QualityModel> qualityFromCheckpoint(const cost::ModelDesc &m,
                                             StringRef path) {
  Expected<ImportedModel> model = importModel(path);
  if (!model)
    return model.takeError();
  if (model->llama2cWeights.empty() && model->safetensors.empty())
    return qualityPrior(m);
  return qualityFromWeights(m, path);
}

} // namespace weft::plan
