//===- Plan.cpp - llm-plan: the serving planner over the IR ---------------===//
//
// The planner works on a cost::ModelDesc, a cluster, a workload, a quality
// model and a runtime profile. This pass reads the first from the IR and
// the others from its options (or from the plan file it applies), asks the
// planner library (or the file) for a plan, and writes the plan back into
// the IR for the passes after it.
//
//===----------------------------------------------------------------------===//
#include "dialects/LLM/Transforms/Passes.h"

#include "weft/LLM/AnnotatePlan.h"
#include "weft/LLM/ModelIR.h"
#include "weft/Planner/Cluster.h"
#include "weft/Planner/PlanIO.h"
#include "weft/Planner/PlanPolicy.h"
#include "weft/Planner/ProfileFile.h"
#include "weft/Support/JSONFile.h"

#include "llvm/Support/FormatVariadic.h"

namespace weft::llm {
#define GEN_PASS_DEF_LLMPLAN
#include "dialects/LLM/Transforms/Passes.h.inc"
} // namespace weft::llm

using namespace mlir;
using namespace weft;
using namespace weft::llm;

namespace {

struct LLMPlanPass : public weft::llm::impl::LLMPlanBase<LLMPlanPass> {
  using Base::Base;
  void runOnOperation() override;

private:
  /// Reports `e` at the model and fails the pass.
  void fail(ModelOp model, llvm::Error e) {
    model.emitError() << "llm-plan: " << llvm::toString(std::move(e));
    signalPassFailure();
  }
  /// The workload: options, else the plan file's, else the defaults.
  plan::Workload workload(const llvm::json::Value *planJSON) const;
  void reportPrediction(ModelOp model, const plan::Problem &p,
                        const plan::Plan &chosen) const;
};

plan::Workload LLMPlanPass::workload(const llvm::json::Value *planJSON) const {
  plan::Workload w =
      planJSON ? plan::workloadOfPlan(*planJSON) : plan::Workload{};
  if (batch > 0)
    w.batch = batch;
  if (promptLen > 0)
    w.promptLen = promptLen;
  if (genLen > 0)
    w.genLen = genLen;
  return w;
}

void LLMPlanPass::reportPrediction(ModelOp model, const plan::Problem &p,
                                   const plan::Plan &chosen) const {
  plan::Prediction pred = plan::evaluate(p, chosen);
  model.emitRemark() << llvm::formatv(
      "plan: {0} stage{1}, micro-batches of {2} (prefill) and {3} (decode); "
      "predicted {4:F2} tokens/s (prefill {5:F4} s, decode {6:F4} s), "
      "quality loss {7:F4}",
      chosen.stages.size(), chosen.stages.size() == 1 ? "" : "s",
      chosen.prefillMicrobatch, chosen.decodeMicrobatch, pred.throughput,
      pred.prefillS, pred.decodeS, pred.qualityLoss);
  for (auto [k, s] : llvm::enumerate(chosen.stages)) {
    const plan::ClusterDevice &d = p.cluster.devices[s.device];
    std::string bits;
    for (auto [i, b] : llvm::enumerate(s.bits))
      bits += (i ? "," : "") + std::to_string(b);
    model.emitRemark() << llvm::formatv(
        "stage {0} on {1} ({2}): layers [{3}, {4}) at bits {5}; memory "
        "{6} of {7} bytes",
        k, d.id, d.spec.name, s.first, s.end, bits, pred.stages[k].memoryBytes,
        pred.stages[k].capacityBytes);
  }
}

void LLMPlanPass::runOnOperation() {
  FailureOr<ModelOp> found = getOnlyModel(getOperation());
  if (failed(found))
    return signalPassFailure();
  ModelOp model = *found;
  FailureOr<cost::ModelDesc> desc = describeModel(model);
  if (failed(desc))
    return signalPassFailure();

  // The cluster: the named file, else the plan file's devices.
  std::optional<llvm::json::Value> planJSON;
  if (!planFile.empty()) {
    llvm::Expected<llvm::json::Value> v = readJSONFile(planFile);
    if (!v)
      return fail(model, v.takeError());
    planJSON = std::move(*v);
  }
  llvm::Expected<plan::Cluster> cluster =
      !clusterFile.empty() ? plan::loadCluster(clusterFile)
      : planJSON
          ? plan::clusterOfPlan(*planJSON, planFile)
          : llvm::Expected<plan::Cluster>(llvm::createStringError(
                llvm::inconvertibleErrorCode(),
                "needs a cluster to plan for (cluster=FILE) or a plan to "
                "apply (plan=FILE)"));
  if (!cluster)
    return fail(model, cluster.takeError());
  if (cluster->devices.empty())
    return fail(model, llvm::createStringError(llvm::inconvertibleErrorCode(),
                                               clusterFile +
                                                   ": nodes: the cluster has "
                                                   "no devices"));

  plan::QualityModel quality = plan::qualityPrior(*desc);
  if (!weightsPath.empty()) {
    llvm::Expected<plan::QualityModel> q =
        plan::qualityFromCheckpoint(*desc, weightsPath);
    if (!q)
      return fail(model, q.takeError());
    quality = std::move(*q);
  }
  std::optional<cost::RuntimeProfile> profile;
  if (!profileName.empty()) {
    llvm::Expected<cost::RuntimeProfile> loaded =
        plan::loadRuntimeProfile(profileName);
    if (!loaded)
      return fail(model, loaded.takeError());
    profile = std::move(*loaded);
  }
  plan::Problem problem{*desc, *cluster, quality,
                        workload(planJSON ? &*planJSON : nullptr),
                        profile ? &*profile : nullptr};

  plan::Plan chosen;
  if (planJSON) {
    llvm::Expected<plan::Plan> p =
        plan::planFromJSON(*planJSON, planFile, problem);
    if (!p)
      return fail(model, p.takeError());
    chosen = std::move(*p);
  } else {
    plan::PlanRequest request;
    request.planner = planner;
    if (maxQualityLoss >= 0)
      request.maxQualityLoss = maxQualityLoss;
    request.qualityFloorBits = qualityFloorBits;
    if (!bits.empty())
      request.bits.assign(bits.begin(), bits.end());
    llvm::Expected<plan::PlanOutcome> outcome =
        plan::makePlan(problem, request);
    if (!outcome)
      return fail(model, outcome.takeError());
    chosen = std::move(outcome->result.plan);
  }
  if (failed(annotatePlan(model, problem, chosen)))
    return signalPassFailure();
  reportPrediction(model, problem, chosen);
}

} // namespace
