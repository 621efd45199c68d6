//===- AnnotatePlan.cpp - Record a serving plan in llm IR -----------------===//
#include "weft/LLM/AnnotatePlan.h"
#include "weft/LLM/ModelIR.h"

#include "mlir/IR/Builders.h"

using namespace mlir;

namespace weft::llm {

LogicalResult annotatePlan(ModelOp model, const plan::Problem &p,
                           const plan::Plan &plan) {
  func::FuncOp forward = model.getFunction(kForwardFunction);
  if (!forward)
    return model.emitOpError()
           << "has no @" << kForwardFunction << " function to plan";
  Builder b(model.getContext());
  auto stageOfLayer = [&](int64_t layer) -> std::optional<size_t> {
    for (auto [i, s] : llvm::enumerate(plan.stages))
      if (layer >= s.first && layer < s.end)
        return i;
    return std::nullopt;
  };
  const size_t last = plan.stages.size() - 1;
  bool seenLayer = false;
  for (Operation &op : forward.getBody().front().without_terminator()) {
    std::optional<int64_t> layer = layerOf(&op);
    if (!layer) {
      // Before the first layer: the embedding; after: the final norm, head.
      setStage(&op, seenLayer ? last : 0);
      continue;
    }
    seenLayer = true;
    std::optional<size_t> stage = stageOfLayer(*layer);
    if (!stage)
      return op.emitOpError() << "is in layer " << *layer
                              << ", which no stage of the plan holds";
    setStage(&op, int64_t(*stage));
    const plan::Stage &s = plan.stages[*stage];
    if (isa<AttentionOp, FFNOp>(op))
      op.setAttr("bits", b.getI32IntegerAttr(s.bits[*layer - s.first]));
  }

  SmallVector<Attribute> stages;
  for (const plan::Stage &s : plan.stages) {
    const plan::ClusterDevice &d = p.cluster.devices[s.device];
    stages.push_back(StageAttr::get(model.getContext(), d.id, d.spec.name,
                                    plan::stageMemoryBytes(p, plan, s)));
  }
  const cost::RuntimeProfile &profile = plan::runtimeProfile(p);
  model.setPlanAttr(PlanAttr::get(
      model.getContext(), plan.prefillMicrobatch, plan.decodeMicrobatch,
      p.workload.batch, p.workload.promptLen, p.workload.genLen, profile.name,
      b.getBoolAttr(profile.estimated), b.getArrayAttr(stages)));
  return success();
}

llvm::Expected<OwningOpRef<ModuleOp>>
importPlannedModel(MLIRContext &ctx, const plan::Problem &p,
                   const plan::Plan &plan) {
  llvm::Expected<OwningOpRef<ModuleOp>> module = importModel(ctx, p.model);
  if (!module)
    return module.takeError();
  std::string diagnostics;
  ScopedDiagnosticHandler handler(&ctx, [&](Diagnostic &d) {
    llvm::raw_string_ostream(diagnostics) << d;
    return success();
  });
  if (failed(annotatePlan(*getOnlyModel(**module), p, plan)))
    return llvm::createStringError(llvm::inconvertibleErrorCode(), diagnostics);
  return module;
}

/// The attributes of `op` that say what it computes: all but the plan's
/// and, on the model, its name.
static NamedAttrList modelAttributes(Operation *op) {
  NamedAttrList attrs;
  for (NamedAttribute a : op->getAttrs()) {
    StringRef name = a.getName().getValue();
    if (name == LLMDialect::getStageAttrName() || name == "bits" ||
        (isa<ModelOp>(op) && (name == "plan" || name == "sym_name")))
      continue;
    attrs.push_back(a);
  }
  return attrs;
}

LogicalResult checkPlannedModel(ModelOp planned, ModelOp model) {
  SmallVector<Operation *> want, got;
  model.walk<WalkOrder::PreOrder>([&](Operation *op) { want.push_back(op); });
  planned.walk<WalkOrder::PreOrder>([&](Operation *op) { got.push_back(op); });
  for (size_t i = 0; i < got.size(); ++i) {
    if (i == want.size())
      return got[i]->emitOpError()
             << "is not in the model of the weights, which ends before it";
    Operation *a = got[i], *b = want[i];
    if (a->getName() == b->getName() &&
        a->getOperandTypes() == b->getOperandTypes() &&
        a->getResultTypes() == b->getResultTypes() &&
        a->getNumRegions() == b->getNumRegions() &&
        modelAttributes(a) == modelAttributes(b))
      continue;
    std::string text;
    llvm::raw_string_ostream os(text);
    b->print(os, OpPrintingFlags().skipRegions());
    return a->emitOpError()
           << "differs from the model of the weights, which has: " << text;
  }
  if (got.size() < want.size())
    return planned.emitOpError() << "ends before the model of the weights";
  return success();
}

} // namespace weft::llm
