//===- ModelIRTest.cpp - Models as llm IR, and plans recorded in it -------===//
#include "weft/LLM/ModelIR.h"
#include "weft/LLM/AnnotatePlan.h"
#include "weft/Planner/Planner.h"

#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/Verifier.h"

#include "gtest/gtest.h"

using namespace mlir;
using weft::cost::ModelDesc;

namespace {

ModelDesc llama() {
  ModelDesc m;
  m.name = "tiny-llama";
  m.arch = "llama";
  m.hidden = 64;
  m.intermediate = 172;
  m.layers = 3;
  m.heads = 8;
  m.kvHeads = 4;
  m.vocab = 97;
  m.maxSeq = 128;
  m.ropeTheta = 500000;
  m.normEps = 1e-6;
  m.dtype = "bf16";
  return m;
}

ModelDesc opt() {
  ModelDesc m = llama();
  m.name = "facebook/opt-tiny";
  m.arch = "opt";
  m.kvHeads = m.heads;
  m.gatedFFN = false;
  m.attnBias = m.mlpBias = m.layerNorm = m.tiedEmbeddings = true;
  m.ropeTheta = 0;
  m.activation = "relu";
  m.dtype = "f16";
  return m;
}

/// Imports `m`, verifies the IR and reads its shape back.
ModelDesc roundTrip(MLIRContext &ctx, const ModelDesc &m,
                    OwningOpRef<ModuleOp> &module) {
  auto imported = weft::llm::importModel(ctx, m);
  EXPECT_TRUE(bool(imported)) << llvm::toString(imported.takeError());
  module = std::move(*imported);
  EXPECT_TRUE(succeeded(verify(*module)));
  auto model = weft::llm::getOnlyModel(*module);
  EXPECT_TRUE(succeeded(model));
  FailureOr<ModelDesc> back = weft::llm::describeModel(*model);
  EXPECT_TRUE(succeeded(back));
  return *back;
}

void expectSameShape(const ModelDesc &a, const ModelDesc &b) {
  EXPECT_EQ(a.arch, b.arch);
  EXPECT_EQ(a.hidden, b.hidden);
  EXPECT_EQ(a.intermediate, b.intermediate);
  EXPECT_EQ(a.layers, b.layers);
  EXPECT_EQ(a.heads, b.heads);
  EXPECT_EQ(a.kvHeads, b.kvHeads);
  EXPECT_EQ(a.vocab, b.vocab);
  EXPECT_EQ(a.maxSeq, b.maxSeq);
  EXPECT_EQ(a.tiedEmbeddings, b.tiedEmbeddings);
  EXPECT_EQ(a.gatedFFN, b.gatedFFN);
  EXPECT_EQ(a.attnBias, b.attnBias);
  EXPECT_EQ(a.mlpBias, b.mlpBias);
  EXPECT_EQ(a.layerNorm, b.layerNorm);
}

} // namespace

TEST(ModelIR, ImportedLlamaDescribesItself) {
  MLIRContext ctx;
  OwningOpRef<ModuleOp> module;
  ModelDesc m = llama();
  expectSameShape(roundTrip(ctx, m, module), m);
  auto model = *weft::llm::getOnlyModel(*module);
  EXPECT_EQ(model.getSymName(), "tiny_llama");
  // One weight per checkpoint tensor: embedding, 9 per layer, norm, head.
  EXPECT_EQ(llvm::range_size(model.getWeights()), size_t(1 + 9 * 3 + 2));
  auto wq = model.lookupSymbol<weft::llm::WeightOp>(
      "model.layers.2.self_attn.k_proj.weight");
  ASSERT_TRUE(wq);
  EXPECT_EQ(wq.getTensorType().getShape(), (ArrayRef<int64_t>{32, 64}));
  EXPECT_TRUE(wq.getTensorType().getElementType().isBF16());
  SmallVector<weft::llm::AttentionOp> attention;
  model.walk([&](weft::llm::AttentionOp a) { attention.push_back(a); });
  ASSERT_EQ(attention.size(), 3u);
  EXPECT_EQ(attention[1].getLayer(), 1u);
  EXPECT_FLOAT_EQ(attention[1].getRopeThetaAttr().getValueAsDouble(), 5e5);
}

TEST(ModelIR, ImportedOptAndBloomDescribeThemselves) {
  MLIRContext ctx;
  OwningOpRef<ModuleOp> module;
  ModelDesc m = opt();
  expectSameShape(roundTrip(ctx, m, module), m);
  auto model = *weft::llm::getOnlyModel(*module);
  EXPECT_TRUE(model.lookupSymbol("model.decoder.embed_positions.weight"));
  EXPECT_TRUE(model.lookupSymbol("model.decoder.layers.0.fc2.bias"));
  EXPECT_FALSE(model.lookupSymbol("lm_head.weight")); // tied

  m.arch = "bloom";
  m.activation = "gelu_tanh";
  expectSameShape(roundTrip(ctx, m, module), m);
  model = *weft::llm::getOnlyModel(*module);
  EXPECT_TRUE(model.lookupSymbol(
      "transformer.h.1.self_attention.query_key_value.bias"));
  EXPECT_TRUE(model.lookupSymbol("transformer.word_embeddings_layernorm.bias"));
}

TEST(ModelIR, ImportRefusesWhatTheDialectCannotSay) {
  MLIRContext ctx;
  ModelDesc m = llama();
  m.arch = "mixtral";
  auto moe = weft::llm::importModel(ctx, m);
  ASSERT_FALSE(bool(moe));
  EXPECT_NE(llvm::toString(moe.takeError()).find("mixture-of-experts"),
            std::string::npos);
  m = opt();
  m.activation = "gelu_new";
  auto act = weft::llm::importModel(ctx, m);
  ASSERT_FALSE(bool(act));
  EXPECT_NE(llvm::toString(act.takeError()).find("gelu_new"),
            std::string::npos);
}

TEST(ModelIR, PlannedModelCarriesThePlan) {
  ModelDesc m = llama();
  m.layers = 6;
  weft::plan::Cluster c;
  c.nodeNames = {"n0"};
  c.intraGBps = {16};
  for (const char *t : {"A100-40GB", "T4"})
    c.devices.push_back({std::string("n0/") + (t[0] == 'A' ? "0" : "1"), 0,
                         llvm::cantFail(weft::cost::lookupDevice(t))});
  weft::plan::QualityModel q = weft::plan::qualityPrior(m);
  weft::plan::Problem p{m, c, q, weft::plan::Workload{128, 16, 8}};
  weft::plan::Plan plan;
  plan.prefillMicrobatch = 2;
  plan.decodeMicrobatch = 4;
  plan.stages = {{1, 0, 2, {8, 4}}, {0, 2, 6, {16, 16, 16, 3}}};
  MLIRContext ctx;
  auto module = weft::llm::importPlannedModel(ctx, p, plan);
  ASSERT_TRUE(bool(module)) << llvm::toString(module.takeError());
  ASSERT_TRUE(succeeded(verify(**module)));
  auto model = *weft::llm::getOnlyModel(**module);
  weft::llm::PlanAttr planned = *model.getPlan();
  EXPECT_EQ(planned.getDecodeMicrobatch(), 4);
  EXPECT_EQ(planned.getBatch(), 8);
  ASSERT_EQ(planned.getNumStages(), 2);
  EXPECT_EQ(planned.getStageList()[0].getDevice(), "n0/1");
  EXPECT_EQ(planned.getStageList()[1].getDeviceType(), "A100-40GB");
  EXPECT_EQ(planned.getStageList()[0].getMemoryBytes(),
            weft::plan::stageMemoryBytes(p, plan, plan.stages[0]));
  std::vector<int64_t> bits, stages;
  model.walk([&](Operation *op) {
    if (isa<weft::llm::AttentionOp, weft::llm::FFNOp>(op)) {
      bits.push_back(op->getAttrOfType<IntegerAttr>("bits").getInt());
      stages.push_back(*weft::llm::getStage(op));
    }
  });
  EXPECT_EQ(bits,
            (std::vector<int64_t>{8, 8, 4, 4, 16, 16, 16, 16, 16, 16, 3, 3}));
  EXPECT_EQ(stages, (std::vector<int64_t>{0, 0, 0, 0, 1, 1, 1, 1, 1, 1, 1, 1}));
  // Everything else follows its layer; the embedding is on the first stage,
  // the final norm and head on the last.
  model.walk(
      [&](weft::llm::EmbedOp e) { EXPECT_EQ(weft::llm::getStage(e), 0); });
  model.walk(
      [&](weft::llm::LMHeadOp h) { EXPECT_EQ(weft::llm::getStage(h), 1); });
}
