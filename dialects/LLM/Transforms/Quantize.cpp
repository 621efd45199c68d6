//===- Quantize.cpp - llm-quantize: bits become weight types --------------===//
//
// After this pass a weight's type is the whole truth about how it is
// stored; nothing downstream reads `bits` again.
//
//===----------------------------------------------------------------------===//
#include "dialects/LLM/Transforms/Passes.h"

#include "weft/LLM/ModelIR.h"

#include "llvm/ADT/MapVector.h"
#include "llvm/Support/FormatVariadic.h"

#include <map>

namespace weft::llm {
#define GEN_PASS_DEF_LLMQUANTIZE
#include "dialects/LLM/Transforms/Passes.h.inc"
} // namespace weft::llm

using namespace mlir;
using namespace weft::llm;

namespace {

/// Matrices whose storage follows the op's `bits`.
bool isPlannedMatrix(Operation *op, StringRef role) {
  if (isa<AttentionOp>(op))
    return llvm::is_contained({"q", "k", "v", "qkv", "o"}, role);
  if (isa<FFNOp>(op))
    return llvm::is_contained({"gate", "up", "down"}, role);
  return false;
}

struct LLMQuantizePass
    : public weft::llm::impl::LLMQuantizeBase<LLMQuantizePass> {
  using Base::Base;
  void runOnOperation() override;

private:
  /// The element type and encoding a weight of `shape` takes at `bits`.
  RankedTensorType storedType(ArrayRef<int64_t> shape, int64_t bits);
};

RankedTensorType LLMQuantizePass::storedType(ArrayRef<int64_t> shape,
                                             int64_t bits) {
  MLIRContext *ctx = &getContext();
  if (bits == 32)
    return RankedTensorType::get(shape, Float32Type::get(ctx));
  if (bits == 16)
    return RankedTensorType::get(shape, Float16Type::get(ctx));
  Type code = quant::AnyQuantizedType::get(
      /*flags=*/0, IntegerType::get(ctx, bits), Float32Type::get(ctx),
      /*storageTypeMin=*/0, /*storageTypeMax=*/(int64_t(1) << bits) - 1);
  auto encoding = GroupQuantAttr::get(ctx, QuantFormat::Asymmetric, groupSize);
  return RankedTensorType::get(shape, code, encoding);
}

void LLMQuantizePass::runOnOperation() {
  FailureOr<ModelOp> found = getOnlyModel(getOperation());
  if (failed(found))
    return signalPassFailure();
  ModelOp model = *found;
  if (groupSize <= 0 || groupSize % 8) {
    model.emitError() << "llm-quantize: group-size must be a positive "
                         "multiple of 8, got "
                      << int64_t(groupSize);
    return signalPassFailure();
  }

  // What every use asks of each weight, first asker remembered for errors.
  llvm::MapVector<WeightOp, std::pair<RankedTensorType, Operation *>> wanted;
  std::map<int64_t, llvm::SetVector<WeightOp>> stageWeights;
  WalkResult walk = model.walk([&](Operation *op) -> WalkResult {
    if (!isa<LLMDialect>(op->getDialect()))
      return WalkResult::advance();
    auto bitsAttr = op->getAttrOfType<IntegerAttr>("bits");
    if (isa<AttentionOp, FFNOp>(op) && !bitsAttr)
      return op->emitOpError()
             << "has no bits: llm-quantize stores weights as the plan says "
                "(run llm-plan first)";
    bool failedHere = false;
    forEachWeightRef(op, [&](StringRef role, FlatSymbolRefAttr ref) {
      if (failedHere)
        return;
      auto weight = model.lookupSymbol<WeightOp>(ref.getAttr());
      if (!weight)
        return; // the verifier reports it
      ArrayRef<int64_t> shape = weight.getTensorType().getShape();
      int64_t bits = shape.size() == 1           ? 32
                     : isPlannedMatrix(op, role) ? bitsAttr.getInt()
                                                 : 16;
      RankedTensorType type = storedType(shape, bits);
      auto [it, inserted] = wanted.insert({weight, {type, op}});
      if (!inserted && it->second.first != type) {
        InFlightDiagnostic d = op->emitOpError()
                               << "wants " << ref << " stored as "
                               << type.getElementType() << ", another op as "
                               << it->second.first.getElementType();
        d.attachNote(it->second.second->getLoc()) << "the other op";
        failedHere = true;
        return;
      }
      if (std::optional<int64_t> stage = getStage(op))
        stageWeights[*stage].insert(weight);
    });
    if (failedHere)
      return WalkResult::interrupt();
    op->removeAttr("bits");
    return WalkResult::advance();
  });
  if (walk.wasInterrupted())
    return signalPassFailure();

  int64_t total = 0;
  std::map<int64_t, int64_t> weightsAtBits;
  for (auto &[weight, typeAndUser] : wanted) {
    weight.setType(typeAndUser.first);
    total += weight.getStorageBytes();
    ++weightsAtBits[weight.getBits()];
  }
  std::string counts;
  for (auto it = weightsAtBits.rbegin(); it != weightsAtBits.rend(); ++it)
    counts += llvm::formatv("{0}{1} at {2} bits", counts.empty() ? "" : ", ",
                            it->second, it->first)
                  .str();
  model.emitRemark() << "llm-quantize: " << wanted.size() << " weights ("
                     << counts << "), " << total << " bytes";
  for (auto &[stage, weights] : stageWeights) {
    int64_t bytes = 0;
    for (WeightOp w : weights)
      bytes += w.getStorageBytes();
    model.emitRemark() << "llm-quantize: stage " << stage << " reads "
                       << weights.size() << " weights, " << bytes << " bytes";
  }
}

} // namespace
