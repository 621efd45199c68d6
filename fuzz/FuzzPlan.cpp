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
  weft::fuzz::checkPrediction(problem, *plan);
  (void)planToJSON(problem, *plan, evaluate(problem, *plan));
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  static const QualityModel quality = qualityPrior(fixedModel());
  const Problem problem{fixedModel(), weft::fuzz::fixedCluster(), quality,
                        Workload{32, 16, 4}};
  llvm::StringRef text(reinterpret_cast<const char *>(data), size);
  readPlan(problem, parseJSONText(text, "plan.json"));
  readPlan(problem, parseYAMLText(text, "plan.yaml"));
  return 0;
}
