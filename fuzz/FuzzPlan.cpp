//===- FuzzPlan.cpp - Plan files, JSON and YAML ---------------------------===//
//
// `weft plan --evaluate`: a plan read against a fixed model and cluster,
// validated, evaluated and written back.
//
//===----------------------------------------------------------------------===//
#include "FuzzPlanSupport.h"

#include "weft/Planner/PlanIO.h"
#include "weft/Planner/Quality.h"

using namespace weft::plan;

namespace {

const weft::cost::ModelDesc &fixedModel() {
  static const weft::cost::ModelDesc model =
      weft::fuzz::llamaModel("fuzz-llama", 256, 688, 8, 8, 4, 2048, 512);
  return model;
}

void readPlan(const Problem &problem, llvm::Expected<llvm::json::Value> v) {
  if (!v)
    return llvm::consumeError(v.takeError());
  llvm::Expected<Plan> plan = planFromJSON(*v, "plan", problem);
  if (!plan)
    return llvm::consumeError(plan.takeError());
  if (llvm::Error e = validatePlan(problem, *plan))
    return llvm::consumeError(std::move(e));
  (void)planToJSON(problem, *plan,
                   weft::fuzz::checkPrediction(problem, *plan));
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  static const QualityModel quality = qualityPrior(fixedModel());
  const Problem problem{fixedModel(), weft::fuzz::fixedCluster(), quality,
                        Workload{32, 16, 4}};
  weft::fuzz::readAsJSONAndYAML(data, size, "plan", [&](auto v) {
    readPlan(problem, std::move(v));
  });
  return 0;
}
