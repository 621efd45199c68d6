//===- Schedule.cpp - llm-schedule: each stage's micro-batch loops --------===//
//
// @forward says what one micro-batch goes through, stage after stage; the
// pipeline of a stage says what its rank does with all of them. The
// schedule is the one the planner's cost model assumes (docs/planner.md):
// prefill micro-batches flow through the stages one after the other, then
// every decode step moves every decode micro-batch through all stages once.
//
//===----------------------------------------------------------------------===//
#include "dialects/LLM/Transforms/Passes.h"

#include "weft/LLM/ModelIR.h"

namespace weft::llm {
#define GEN_PASS_DEF_LLMSCHEDULE
#include "dialects/LLM/Transforms/Passes.h.inc"
} // namespace weft::llm

using namespace mlir;
using namespace weft::llm;

namespace {

/// The stage functions @forward calls, in pipeline order, checked to be
/// the chain llm-split-stages writes: call, transfer, call, ..., return.
FailureOr<SmallVector<func::FuncOp>> stageChain(ModelOp model,
                                                func::FuncOp forward) {
  SmallVector<func::FuncOp> stages;
  Value carried = forward.getArgument(0);
  for (Operation &op : forward.getBody().front()) {
    if (auto call = dyn_cast<func::CallOp>(op)) {
      auto callee = model.lookupSymbol<func::FuncOp>(call.getCalleeAttr());
      std::optional<int64_t> stage = callee ? getStage(callee) : std::nullopt;
      if (!stage || *stage != int64_t(stages.size()) ||
          call.getNumOperands() != 1 || call.getOperand(0) != carried ||
          call.getNumResults() != 1)
        return call.emitOpError()
               << "is not the call of stage " << stages.size()
               << " on the previous stage's result: llm-schedule needs "
                  "@forward as llm-split-stages writes it";
      stages.push_back(callee);
      carried = call.getResult(0);
    } else if (auto transfer = dyn_cast<TransferOp>(op)) {
      int64_t from = int64_t(stages.size()) - 1;
      if (transfer.getInput() != carried ||
          transfer.getFromAttr().getInt() != from ||
          transfer.getToAttr().getInt() != from + 1)
        return transfer.emitOpError() << "does not move the result of stage "
                                      << from << " to stage " << from + 1;
      carried = transfer.getResult();
    } else if (auto ret = dyn_cast<func::ReturnOp>(op)) {
      if (ret.getNumOperands() != 1 || ret.getOperand(0) != carried ||
          stages.empty())
        return ret.emitOpError() << "does not return the last stage's logits";
    } else {
      return op.emitOpError() << "is not a stage call or a transfer: "
                                 "llm-schedule needs @forward as "
                                 "llm-split-stages writes it";
    }
  }
  if (!isa<TokensType>(stages.front().getArgumentTypes().front()) ||
      !isa<LogitsType>(stages.back().getResultTypes().front()))
    return forward.emitOpError()
           << "must take tokens and return logits to be served";
  return stages;
}

/// Builds what the schedule does with one micro-batch on stage `k` of `n`.
void buildStep(OpBuilder &b, Location loc, Value mb, func::FuncOp stage,
               int64_t k, int64_t n) {
  Value input;
  if (k == 0)
    input = b.create<InputTokensOp>(loc, mb);
  else
    input = b.create<RecvOp>(loc, stage.getArgumentTypes().front(), mb, k - 1);
  Value output = b.create<func::CallOp>(loc, stage, input).getResult(0);
  if (k + 1 < n) {
    b.create<SendOp>(loc, output, k + 1);
    return;
  }
  Value tokens = b.create<SampleOp>(loc, output);
  b.create<ReturnTokensOp>(loc, tokens, 0);
}

/// `llm.pipeline stage k`: the prefill loop, then the decode loop nest.
void buildPipeline(OpBuilder &b, Location loc, func::FuncOp stage, int64_t k,
                   int64_t n) {
  auto pipeline = b.create<PipelineOp>(loc, k);
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(&pipeline.getBody().emplaceBlock());
  Value zero = b.create<arith::ConstantIndexOp>(loc, 0);
  Value one = b.create<arith::ConstantIndexOp>(loc, 1);
  Value prefill = b.create<MicroBatchCountOp>(loc, Phase::Prefill);
  b.create<scf::ForOp>(loc, zero, prefill, one, ValueRange(),
                       [&](OpBuilder &b, Location loc, Value i, ValueRange) {
                         Value mb = b.create<MicroBatchOp>(loc, Phase::Prefill,
                                                           i, Value());
                         buildStep(b, loc, mb, stage, k, n);
                         b.create<scf::YieldOp>(loc);
                       });
  Value steps = b.create<DecodeStepsOp>(loc);
  Value decode = b.create<MicroBatchCountOp>(loc, Phase::Decode);
  b.create<scf::ForOp>(
      loc, zero, steps, one, ValueRange(),
      [&](OpBuilder &b, Location loc, Value step, ValueRange) {
        b.create<scf::ForOp>(
            loc, zero, decode, one, ValueRange(),
            [&](OpBuilder &b, Location loc, Value j, ValueRange) {
              Value mb = b.create<MicroBatchOp>(loc, Phase::Decode, j, step);
              buildStep(b, loc, mb, stage, k, n);
              b.create<scf::YieldOp>(loc);
            });
        b.create<scf::YieldOp>(loc);
      });
}

struct LLMSchedulePass
    : public weft::llm::impl::LLMScheduleBase<LLMSchedulePass> {
  void runOnOperation() override {
    FailureOr<ModelOp> model = getOnlyModel(getOperation());
    if (failed(model))
      return signalPassFailure();
    func::FuncOp forward = model->getFunction(kForwardFunction);
    if (!forward) {
      model->emitOpError() << "has no @" << kForwardFunction << " to schedule";
      return signalPassFailure();
    }
    FailureOr<SmallVector<func::FuncOp>> stages = stageChain(*model, forward);
    if (failed(stages))
      return signalPassFailure();
    OpBuilder b(forward);
    for (auto [k, stage] : llvm::enumerate(*stages))
      buildPipeline(b, forward.getLoc(), stage, int64_t(k),
                    int64_t(stages->size()));
    forward.erase();
  }
};

} // namespace
