//===- SplitStages.cpp - llm-split-stages: one function per stage ---------===//
//
// After this pass a stage is a function: what rank k computes is the body
// of @stage<k>, and what crosses between ranks is the llm.transfer between
// two calls in @forward.
//
//===----------------------------------------------------------------------===//
#include "dialects/LLM/Transforms/Passes.h"

#include "weft/LLM/ModelIR.h"
#include "weft/LLM/RuntimeKernels.h"

#include "llvm/ADT/SetVector.h"
#include "llvm/Support/FormatVariadic.h"

namespace weft::llm {
#define GEN_PASS_DEF_LLMSPLITSTAGES
#include "dialects/LLM/Transforms/Passes.h.inc"
} // namespace weft::llm

using namespace mlir;
using namespace weft::llm;

namespace {

/// One stage of @forward: its ops, the values it uses from before it and
/// those used after it.
struct StageSlice {
  SmallVector<Operation *> ops;
  llvm::SetVector<Value> inputs, outputs;
};

/// Fills the inputs and outputs of every slice; fails at the op when a
/// value skips a stage.
LogicalResult findLiveValues(MutableArrayRef<StageSlice> slices,
                             func::FuncOp forward) {
  DenseMap<Operation *, size_t> stageOf;
  for (auto [k, slice] : llvm::enumerate(slices))
    for (Operation *op : slice.ops)
      stageOf[op] = k;
  for (auto [k, slice] : llvm::enumerate(slices))
    for (Operation *op : slice.ops)
      for (Value v : op->getOperands()) {
        Operation *def = v.getDefiningOp();
        size_t from = def ? stageOf.lookup(def) : 0;
        if (def && from == k)
          continue;
        if (!def && k == 0) {
          slice.inputs.insert(v); // the tokens
          continue;
        }
        if (!def || from + 1 != k)
          return op->emitOpError()
                 << "on stage " << k << " uses a value of "
                 << (def ? "stage " + std::to_string(from)
                         : std::string("the function's arguments"))
                 << ": a value moves from one stage to the next only";
        slice.inputs.insert(v);
        slices[from].outputs.insert(v);
      }
  Operation *ret = forward.getBody().front().getTerminator();
  for (Value v : ret->getOperands()) {
    Operation *def = v.getDefiningOp();
    if (!def || stageOf.lookup(def) + 1 != slices.size())
      return ret->emitOpError()
             << "returns a value of another stage than the last";
    slices.back().outputs.insert(v);
  }
  return success();
}

/// The one hidden state of each boundary, or an error naming the values.
LogicalResult checkBoundaries(ArrayRef<StageSlice> slices) {
  for (size_t k = 0; k + 1 < slices.size(); ++k) {
    const llvm::SetVector<Value> &out = slices[k].outputs;
    if (out.size() == 1 && isa<HiddenType>(out.front().getType()))
      continue;
    Operation *first = slices[k + 1].ops.front();
    return first->emitOpError()
           << "starts stage " << k + 1 << " but " << out.size()
           << " values cross from stage " << k
           << ": the serving runtime moves one hidden state per micro-batch "
              "(plans cut between decoder layers)";
  }
  return success();
}

/// Moves a slice's ops into `func.func private @stage<k>`.
func::FuncOp outline(OpBuilder &b, func::FuncOp forward, int64_t k,
                     StageSlice &slice) {
  auto types = [](const llvm::SetVector<Value> &values) {
    return llvm::to_vector(
        llvm::map_range(values, [](Value v) { return v.getType(); }));
  };
  b.setInsertionPoint(forward);
  auto fn = b.create<func::FuncOp>(
      forward.getLoc(), llvm::formatv("stage{0}", k).str(),
      b.getFunctionType(types(slice.inputs), types(slice.outputs)));
  fn.setPrivate();
  setStage(fn, k);
  Block *body = fn.addEntryBlock();
  for (Operation *op : slice.ops) {
    op->moveBefore(body, body->end());
    op->removeAttr(LLMDialect::getStageAttrName());
  }
  for (auto [input, arg] : llvm::zip(slice.inputs, body->getArguments())) {
    Value v = input;
    v.replaceUsesWithIf(arg, [&](OpOperand &use) {
      return use.getOwner()->getParentOp() == fn;
    });
  }
  b.setInsertionPointToEnd(body);
  b.create<func::ReturnOp>(forward.getLoc(), slice.outputs.getArrayRef());
  return fn;
}

struct LLMSplitStagesPass
    : public weft::llm::impl::LLMSplitStagesBase<LLMSplitStagesPass> {
  void runOnOperation() override;
};

void LLMSplitStagesPass::runOnOperation() {
  FailureOr<ModelOp> found = getOnlyModel(getOperation());
  if (failed(found))
    return signalPassFailure();
  ModelOp model = *found;
  func::FuncOp forward = model.getFunction(kForwardFunction);
  if (!forward) {
    model.emitOpError() << "has no @" << kForwardFunction << " to split";
    return signalPassFailure();
  }
  for (auto f : model.getBodyBlock().getOps<func::FuncOp>())
    if (getStage(f)) {
      f.emitOpError() << "is a stage function already: the model is split";
      return signalPassFailure();
    }
  FailureOr<SmallVector<SmallVector<Operation *>>> ops = collectStageOps(model);
  if (failed(ops))
    return signalPassFailure();
  SmallVector<StageSlice> slices(ops->size());
  for (auto [slice, stageOps] : llvm::zip(slices, *ops))
    slice.ops = std::move(stageOps);
  if (slices.empty()) {
    forward.emitOpError() << "has no ops to split";
    return signalPassFailure();
  }
  if (failed(findLiveValues(slices, forward)) ||
      failed(checkBoundaries(slices)))
    return signalPassFailure();

  OpBuilder b(model.getContext());
  SmallVector<func::FuncOp> stages;
  for (auto [k, slice] : llvm::enumerate(slices))
    stages.push_back(outline(b, forward, int64_t(k), slice));

  // @forward: the calls, with a transfer between consecutive stages.
  Block &entry = forward.getBody().front();
  Operation *ret = entry.getTerminator();
  b.setInsertionPoint(ret);
  Location loc = forward.getLoc();
  ValueRange carried = entry.getArguments();
  for (auto [k, fn] : llvm::enumerate(stages)) {
    SmallVector<Value> args(carried);
    if (k > 0)
      args = {b.create<TransferOp>(loc, carried.front(), int64_t(k - 1),
                                   int64_t(k))};
    carried = b.create<func::CallOp>(loc, fn, args).getResults();
  }
  ret->setOperands(carried);
}

} // namespace
