//===- PlanToLLM.cpp - Build the annotated llm IR of a plan ---------------===//
#include "weft/Planner/PlanToLLM.h"

#include "dialects/LLM/IR/LLMOps.h"
#include "weft/Planner/CostTables.h"

#include "mlir/IR/Builders.h"

using namespace mlir;

namespace weft::plan {

OwningOpRef<ModuleOp> buildLLMModule(MLIRContext &ctx, const Problem &p,
                                     const Plan *plan) {
  ctx.loadDialect<llm::LLMDialect>();
  OpBuilder b(&ctx);
  Location loc = b.getUnknownLoc();
  OwningOpRef<ModuleOp> module = ModuleOp::create(loc);
  b.setInsertionPointToEnd(module->getBody());
  const cost::ModelDesc &m = p.model;
  std::string name;
  for (char c : m.name) // a valid bare symbol name
    name += isalnum(static_cast<unsigned char>(c)) ? c : '_';
  auto model = b.create<llm::ModelOp>(
      loc, b.getStringAttr(name.empty() ? "model" : name),
      b.getStringAttr(m.arch), b.getI64IntegerAttr(m.hidden),
      b.getI64IntegerAttr(m.intermediate), b.getI64IntegerAttr(m.layers),
      b.getI64IntegerAttr(m.heads), b.getI64IntegerAttr(m.kvHeads),
      b.getI64IntegerAttr(m.vocab), b.getBoolAttr(m.tiedEmbeddings),
      b.getBoolAttr(m.gatedFFN), IntegerAttr(), IntegerAttr(), IntegerAttr(),
      IntegerAttr(), IntegerAttr(), DenseI64ArrayAttr(), StringAttr(),
      BoolAttr());
  model.getBody().emplaceBlock();
  b.setInsertionPointToEnd(&model.getBody().front());

  // Placement of layer l: its stage index, device id and type.
  auto place = [&](Operation *op, int64_t layer) {
    if (!plan)
      return;
    for (auto [i, s] : llvm::enumerate(plan->stages))
      if (layer >= s.first && layer < s.end) {
        const ClusterDevice &d = p.cluster.devices[s.device];
        op->setAttr("stage", b.getI64IntegerAttr(int64_t(i)));
        op->setAttr("device", b.getStringAttr(d.id));
        op->setAttr("device_type", b.getStringAttr(d.spec.name));
      }
  };
  auto bitsOf = [&](int64_t layer) {
    if (plan)
      for (const Stage &s : plan->stages)
        if (layer >= s.first && layer < s.end)
          return s.bits[layer - s.first];
    return 16;
  };
  place(b.create<llm::EmbeddingOp>(loc, nullptr, nullptr, nullptr), 0);
  for (int64_t l = 0; l < m.layers; ++l) {
    int bits = bitsOf(l);
    place(b.create<llm::DecoderLayerOp>(
              loc, b.getI64IntegerAttr(l), b.getI32IntegerAttr(bits),
              b.getI32IntegerAttr(bits), nullptr, nullptr, nullptr),
          l);
  }
  place(b.create<llm::FinalNormOp>(loc, nullptr, nullptr, nullptr),
        m.layers - 1);
  place(b.create<llm::LMHeadOp>(loc, nullptr, nullptr, nullptr), m.layers - 1);
  if (plan) {
    model.setPrefillMicrobatchAttr(
        b.getI64IntegerAttr(plan->prefillMicrobatch));
    model.setDecodeMicrobatchAttr(b.getI64IntegerAttr(plan->decodeMicrobatch));
    model.setBatchAttr(b.getI64IntegerAttr(p.workload.batch));
    model.setPromptLenAttr(b.getI64IntegerAttr(p.workload.promptLen));
    model.setGenLenAttr(b.getI64IntegerAttr(p.workload.genLen));
    SmallVector<int64_t> memory;
    for (const Stage &s : plan->stages)
      memory.push_back(stageMemoryBytes(p, *plan, s));
    model.setStageMemory(memory);
    const cost::RuntimeProfile &profile = runtimeProfile(p);
    model.setProfile(profile.name);
    model.setProfileEstimated(profile.estimated);
  }
  return module;
}

} // namespace weft::plan
