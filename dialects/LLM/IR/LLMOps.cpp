//===- LLMOps.cpp - llm dialect operations --------------------------------===//
#include "dialects/LLM/IR/LLMOps.h"

using namespace mlir;
using namespace weft::llm;

#define GET_OP_CLASSES
#include "dialects/LLM/IR/LLMOps.cpp.inc"

static bool isSupportedBits(int64_t bits) {
  return bits == 16 || bits == 8 || bits == 4 || bits == 3;
}

LogicalResult DecoderLayerOp::verify() {
  for (auto [name, bits] :
       {std::pair<const char *, int64_t>{"attn_bits", getAttnBits()},
        {"ffn_bits", getFfnBits()}})
    if (!isSupportedBits(bits))
      return emitOpError() << name << " must be 16, 8, 4 or 3, got " << bits;
  // I64Attr accessors are unsigned: read the index as a signed value.
  if (getIndexAttr().getInt() < 0)
    return emitOpError() << "index must be non-negative";
  return success();
}

/// The stage of a part, if placed.
static std::optional<int64_t> stageOf(Operation &op) {
  if (auto a = op.getAttrOfType<IntegerAttr>("stage"))
    return a.getInt();
  return std::nullopt;
}

LogicalResult ModelOp::verify() {
  if (getHidden() <= 0 || getLayers() <= 0 || getHeads() <= 0 ||
      getKvHeads() <= 0 || getVocab() <= 0 || getIntermediate() <= 0)
    return emitOpError() << "shape attributes must be positive";
  if (getHidden() % getHeads() || getHeads() % getKvHeads())
    return emitOpError() << "heads must divide hidden and kv_heads heads";
  // Parts in execution order: embedding, layers 0..L-1, norm, head.
  Block &body = getBody().front();
  int64_t expectedLayer = 0;
  int phase = -1; // last part seen: 0 embedding, 1 layers, 2 norm, 3 head
  std::optional<int64_t> lastStage;
  for (Operation &op : body) {
    int want = isa<EmbeddingOp>(op)      ? 0
               : isa<DecoderLayerOp>(op) ? 1
               : isa<FinalNormOp>(op)    ? 2
               : isa<LMHeadOp>(op)       ? 3
                                         : -1;
    if (want < 0)
      return op.emitOpError() << "is not a part of an llm.model";
    if (want < phase || want > phase + 1 || (want == phase && want != 1))
      return op.emitOpError()
             << "out of order: expected embedding, decoder layers, "
                "final_norm, lm_head";
    phase = want;
    if (auto layer = dyn_cast<DecoderLayerOp>(op)) {
      if (static_cast<int64_t>(layer.getIndex()) != expectedLayer)
        return op.emitOpError() << "has index " << layer.getIndex()
                                << ", expected " << expectedLayer;
      ++expectedLayer;
    }
    if (std::optional<int64_t> s = stageOf(op)) {
      if (lastStage && *s < *lastStage)
        return op.emitOpError()
               << "is on stage " << *s << " after a part on stage "
               << *lastStage << ": stages must not decrease";
      lastStage = s;
    }
  }
  if (phase != 3)
    return emitOpError() << "must end with an llm.lm_head";
  if (expectedLayer != static_cast<int64_t>(getLayers()))
    return emitOpError() << "has " << expectedLayer
                         << " decoder layers but layers = " << getLayers();
  return success();
}
