//===- LLMDialectTest.cpp - llm dialect: parsing and verification ---------===//
#include "dialects/LLM/IR/LLMOps.h"
#include "weft/Planner/PlanToLLM.h"
#include "weft/Planner/Planner.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Parser/Parser.h"

#include "gtest/gtest.h"

using namespace mlir;

namespace {

const char *kHeader =
    R"(llm.model @m attributes {arch = "llama", hidden = 64 : i64,
    intermediate = 172 : i64, layers = 2 : i64, heads = 8 : i64,
    kv_heads = 4 : i64, vocab = 512 : i64, tied_embeddings = true,
    gated_ffn = true} {
)";

/// Parses (and verifies) `body` inside a two-layer model; returns the first
/// diagnostic, or "" when the module is valid.
std::string check(const std::string &body) {
  MLIRContext ctx;
  ctx.loadDialect<weft::llm::LLMDialect>();
  std::string first;
  ScopedDiagnosticHandler handler(&ctx, [&](Diagnostic &d) {
    if (first.empty())
      first = d.str();
    return success();
  });
  OwningOpRef<ModuleOp> m =
      parseSourceString<ModuleOp>(std::string(kHeader) + body + "}\n", &ctx);
  if (m && failed(verify(*m)) && first.empty())
    first = "verification failed";
  return first;
}

} // namespace

TEST(LLMDialect, ValidModelRoundTrips) {
  EXPECT_EQ(check(R"(
    llm.embedding {stage = 0 : i64, device = "n0/0"}
    llm.decoder_layer 0 {attn_bits = 8 : i32, ffn_bits = 4 : i32, stage = 0 : i64}
    llm.decoder_layer 1 {stage = 1 : i64, device = "n0/1", device_type = "T4"}
    llm.final_norm {stage = 1 : i64}
    llm.lm_head {stage = 1 : i64}
  )"),
            "");
}

TEST(LLMDialect, VerifierRejectsBadModels) {
  EXPECT_NE(check(R"(
    llm.embedding
    llm.decoder_layer 0 {attn_bits = 5 : i32}
    llm.decoder_layer 1
    llm.final_norm
    llm.lm_head
  )")
                .find("attn_bits must be 16, 8, 4 or 3, got 5"),
            std::string::npos);
  EXPECT_NE(check(R"(
    llm.embedding
    llm.decoder_layer 1
    llm.decoder_layer 0
    llm.final_norm
    llm.lm_head
  )")
                .find("has index 1, expected 0"),
            std::string::npos);
  EXPECT_NE(check(R"(
    llm.embedding
    llm.decoder_layer 0
    llm.final_norm
    llm.lm_head
  )")
                .find("has 1 decoder layers but layers = 2"),
            std::string::npos);
  EXPECT_NE(check(R"(
    llm.decoder_layer 0
    llm.embedding
    llm.decoder_layer 1
    llm.final_norm
    llm.lm_head
  )")
                .find("out of order"),
            std::string::npos);
  EXPECT_NE(check(R"(
    llm.embedding {stage = 1 : i64}
    llm.decoder_layer 0 {stage = 0 : i64}
    llm.decoder_layer 1
    llm.final_norm
    llm.lm_head
  )")
                .find("stages must not decrease"),
            std::string::npos);
  EXPECT_NE(check(R"(
    llm.embedding
    llm.decoder_layer 0
    llm.decoder_layer 1
    llm.final_norm
  )")
                .find("must end with an llm.lm_head"),
            std::string::npos);
}

TEST(LLMDialect, PlannedModelCarriesThePlan) {
  weft::cost::ModelDesc m;
  m.name = "tiny-llama";
  m.arch = "llama";
  m.hidden = 1024;
  m.intermediate = 2816;
  m.layers = 6;
  m.heads = m.kvHeads = 8;
  m.vocab = 1000;
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
  auto module = weft::plan::buildLLMModule(ctx, p, &plan);
  ASSERT_TRUE(succeeded(verify(*module)));
  auto model = *module->getOps<weft::llm::ModelOp>().begin();
  EXPECT_EQ(model.getSymName(), "tiny_llama");
  EXPECT_EQ(*model.getDecodeMicrobatch(), 4u);
  std::vector<int> bits, stages;
  for (auto layer : model.getOps<weft::llm::DecoderLayerOp>()) {
    bits.push_back(layer.getAttnBits());
    stages.push_back(*layer.getStage());
  }
  EXPECT_EQ(bits, (std::vector<int>{8, 4, 16, 16, 16, 3}));
  EXPECT_EQ(stages, (std::vector<int>{0, 0, 1, 1, 1, 1}));
  auto head = *model.getOps<weft::llm::LMHeadOp>().begin();
  EXPECT_EQ(*head.getDevice(), "n0/0");
  EXPECT_EQ(*head.getDeviceType(), "A100-40GB");
}
