//===- RuntimeKernels.cpp - What the serving runtime runs of a stage ------===//
#include "RuntimeKernels.h"

using namespace mlir;

namespace weft::llm {
namespace {

bool isNorm(Operation *op) {
  return isa_and_nonnull<RMSNormOp, LayerNormOp>(op);
}

/// `add` sums `residual` and `branch`, in either order.
bool isResidual(Operation *add, Value residual, Value branch) {
  auto a = dyn_cast_or_null<AddOp>(add);
  return a && ((a.getLhs() == residual && a.getRhs() == branch) ||
               (a.getLhs() == branch && a.getRhs() == residual));
}

/// Matches the six ops of one decoder layer at ops[i]: x -> norm ->
/// attention -> add(x, .) -> norm -> ffn -> add(r, .).
std::optional<RuntimeKernel> matchLayer(ArrayRef<Operation *> ops, size_t i) {
  if (i + 6 > ops.size())
    return std::nullopt;
  Operation *norm1 = ops[i], *add1 = ops[i + 2], *norm2 = ops[i + 3],
            *add2 = ops[i + 5];
  auto attn = dyn_cast<AttentionOp>(ops[i + 1]);
  auto ffn = dyn_cast<FFNOp>(ops[i + 4]);
  if (!isNorm(norm1) || !attn || !isNorm(norm2) || !ffn ||
      norm1->getName() != norm2->getName())
    return std::nullopt;
  Value x = norm1->getOperand(0);
  if (attn.getInput() != norm1->getResult(0) ||
      !isResidual(add1, x, attn.getResult()) ||
      norm2->getOperand(0) != add1->getResult(0) ||
      ffn.getInput() != norm2->getResult(0) ||
      !isResidual(add2, add1->getResult(0), ffn.getResult()) ||
      attn.getLayer() != ffn.getLayer())
    return std::nullopt;
  RuntimeKernel k{RuntimeKernel::Kind::DecoderLayer, attn};
  k.layer = attn.getLayerAttr().getInt();
  k.attention = attn;
  k.ffn = ffn;
  return k;
}

} // namespace

FailureOr<SmallVector<RuntimeKernel>>
matchRuntimeKernels(ArrayRef<Operation *> ops) {
  SmallVector<RuntimeKernel> kernels;
  for (size_t i = 0; i < ops.size();) {
    Operation *op = ops[i];
    if (isa<EmbedOp>(op)) {
      kernels.push_back({RuntimeKernel::Kind::Embed, op});
      ++i;
    } else if (std::optional<RuntimeKernel> layer = matchLayer(ops, i)) {
      kernels.push_back(*layer);
      i += 6;
    } else if (isNorm(op) && i + 1 < ops.size() && isa<LMHeadOp>(ops[i + 1]) &&
               ops[i + 1]->getOperand(0) == op->getResult(0)) {
      kernels.push_back({RuntimeKernel::Kind::FinalNorm, op});
      ++i;
    } else if (isa<LMHeadOp>(op)) {
      kernels.push_back({RuntimeKernel::Kind::LMHead, op});
      ++i;
    } else {
      return op->emitOpError()
             << "has no serving-runtime kernel here: a stage runs the "
                "embedding, whole decoder layers (norm, attention, residual "
                "add, norm, FFN, residual add), the final norm and the head, "
                "in that order";
    }
  }
  return kernels;
}

} // namespace weft::llm
