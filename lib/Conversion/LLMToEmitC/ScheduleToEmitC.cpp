//===- ScheduleToEmitC.cpp - A stage's schedule as EmitC ------------------===//
//
// One pattern per op of a stage's schedule, each a call into the serving
// library: the loops become C loops over int64_t, and every value that
// belongs to a micro-batch becomes that micro-batch's Batch handle (the
// backend holds its rows), so the stage function's call takes the handle
// and its result is the same handle.
//
//===----------------------------------------------------------------------===//
#include "ServeCalls.h"

#include "dialects/LLM/IR/LLMOps.h"
#include "weft/Support/SourceNames.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

#include "llvm/Support/FormatVariadic.h"

using namespace mlir;

namespace weft::llm {

Type serverPointerType(MLIRContext *ctx) {
  return emitc::PointerType::get(
      emitc::OpaqueType::get(ctx, "weft::rt::serve::Server"));
}

Type batchPointerType(MLIRContext *ctx) {
  return emitc::PointerType::get(
      emitc::OpaqueType::get(ctx, "weft::rt::serve::Batch"));
}

Value ServeCalls::call(StringRef fn, TypeRange results, ValueRange operands,
                       ArrayRef<Attribute> literals, bool qualify) {
  SmallVector<Attribute> args;
  for (unsigned i = 0; i < operands.size(); ++i)
    args.push_back(b.getIndexAttr(i));
  llvm::append_range(args, literals);
  auto op = b.create<emitc::CallOpaqueOp>(
      loc, results, qualify ? ("weft::rt::serve::" + fn).str() : fn.str(),
      operands, b.getArrayAttr(args), ArrayAttr());
  return results.empty() ? Value() : op.getResult(0);
}

void ServeCalls::comment(const Twine &text) {
  b.create<emitc::VerbatimOp>(loc, ("// " + text).str());
}

std::string stageForwardName(int64_t k) {
  return llvm::formatv("weft_stage{0}_forward", k).str();
}

void addScheduleTypeConversions(TypeConverter &converter) {
  converter.addConversion([](Type t) { return t; }); // the rest stays
  converter.addConversion([](Type t) -> std::optional<Type> {
    if (isa<MicroBatchType, TokensType, HiddenType, LogitsType>(t))
      return batchPointerType(t.getContext());
    if (t.isIndex())
      return IntegerType::get(t.getContext(), 64);
    return std::nullopt;
  });
}

namespace {

/// The Server handle: the first argument of the function being lowered.
Value serverOf(Operation *op) {
  return op->getParentOfType<emitc::FuncOp>().getArgument(0);
}

/// Replaces `op` by a call of `fn` on the Server and `operands`; `keep`
/// (an operand) stands for the op's result, if it has one.
template <typename Op>
struct CallLowering : public OpConversionPattern<Op> {
  using OpConversionPattern<Op>::OpConversionPattern;
  using OpAdaptor = typename Op::Adaptor;

  /// The call: its function, value operands (after the Server), literal
  /// arguments, and what replaces the op's result.
  virtual void lower(Op op, OpAdaptor adaptor, ServeCalls &calls,
                     ConversionPatternRewriter &rewriter) const = 0;

  LogicalResult
  matchAndRewrite(Op op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    ServeCalls calls(rewriter, op.getLoc());
    lower(op, adaptor, calls, rewriter);
    return success();
  }
};

struct MicroBatchCountLowering : public CallLowering<MicroBatchCountOp> {
  using CallLowering::CallLowering;
  void lower(MicroBatchCountOp op, OpAdaptor, ServeCalls &calls,
             ConversionPatternRewriter &rewriter) const override {
    StringRef fn = op.getPhase() == Phase::Prefill ? "prefillMicroBatches"
                                                   : "decodeMicroBatches";
    rewriter.replaceOp(op, calls.call(fn, rewriter.getI64Type(), serverOf(op)));
  }
};

struct DecodeStepsLowering : public CallLowering<DecodeStepsOp> {
  using CallLowering::CallLowering;
  void lower(DecodeStepsOp op, OpAdaptor, ServeCalls &calls,
             ConversionPatternRewriter &rewriter) const override {
    rewriter.replaceOp(
        op, calls.call("decodeSteps", rewriter.getI64Type(), serverOf(op)));
  }
};

struct MicroBatchLowering : public CallLowering<MicroBatchOp> {
  using CallLowering::CallLowering;
  void lower(MicroBatchOp op, OpAdaptor adaptor, ServeCalls &calls,
             ConversionPatternRewriter &rewriter) const override {
    Type batch = batchPointerType(op.getContext());
    Value mb =
        op.getPhase() == Phase::Prefill
            ? calls.call("prefillMicroBatch", batch,
                         {serverOf(op), adaptor.getIndex()})
            : calls.call("decodeMicroBatch", batch,
                         {serverOf(op), adaptor.getIndex(), adaptor.getStep()});
    mb.getDefiningOp()->setLoc(withSourceName(op.getLoc(), "batch"));
    rewriter.replaceOp(op, mb);
  }
};

struct InputTokensLowering : public CallLowering<InputTokensOp> {
  using CallLowering::CallLowering;
  void lower(InputTokensOp op, OpAdaptor adaptor, ServeCalls &calls,
             ConversionPatternRewriter &rewriter) const override {
    calls.call("inputTokens", {}, {serverOf(op), adaptor.getMicrobatch()});
    rewriter.replaceOp(op, adaptor.getMicrobatch());
  }
};

struct RecvLowering : public CallLowering<RecvOp> {
  using CallLowering::CallLowering;
  void lower(RecvOp op, OpAdaptor adaptor, ServeCalls &calls,
             ConversionPatternRewriter &rewriter) const override {
    calls.call("recvHidden", {}, {serverOf(op), adaptor.getMicrobatch()},
               {calls.i32(op.getFromAttr().getInt())});
    rewriter.replaceOp(op, adaptor.getMicrobatch());
  }
};

struct SendLowering : public CallLowering<SendOp> {
  using CallLowering::CallLowering;
  void lower(SendOp op, OpAdaptor adaptor, ServeCalls &calls,
             ConversionPatternRewriter &rewriter) const override {
    calls.call("sendHidden", {}, {serverOf(op), adaptor.getInput()},
               {calls.i32(op.getToAttr().getInt())});
    rewriter.eraseOp(op);
  }
};

struct SampleLowering : public CallLowering<SampleOp> {
  using CallLowering::CallLowering;
  void lower(SampleOp op, OpAdaptor adaptor, ServeCalls &calls,
             ConversionPatternRewriter &rewriter) const override {
    calls.call("sampleTokens", {}, {serverOf(op), adaptor.getLogits()});
    rewriter.replaceOp(op, adaptor.getLogits());
  }
};

struct ReturnTokensLowering : public CallLowering<ReturnTokensOp> {
  using CallLowering::CallLowering;
  void lower(ReturnTokensOp op, OpAdaptor adaptor, ServeCalls &calls,
             ConversionPatternRewriter &rewriter) const override {
    calls.call("returnTokens", {}, {serverOf(op), adaptor.getTokens()},
               {calls.i32(op.getToAttr().getInt())});
    rewriter.eraseOp(op);
  }
};

/// A call of stage k's function: `weft_stage<k>_forward(server, batch)`,
/// whose result is the batch it ran on.
struct StageCallLowering : public CallLowering<func::CallOp> {
  StageCallLowering(TypeConverter &converter, MLIRContext *ctx, ModelOp model)
      : CallLowering(converter, ctx), model(model) {}
  void lower(func::CallOp op, OpAdaptor adaptor, ServeCalls &calls,
             ConversionPatternRewriter &rewriter) const override {
    auto callee = ModelOp(model).lookupSymbol<func::FuncOp>(op.getCalleeAttr());
    Value batch = adaptor.getOperands().front();
    calls.call(stageForwardName(*getStage(callee)), {}, {serverOf(op), batch},
               {}, /*qualify=*/false);
    rewriter.replaceOp(op, batch);
  }

private:
  ModelOp model; ///< where the stage functions are
};

struct IndexConstantLowering : public OpConversionPattern<arith::ConstantOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(arith::ConstantOp op, OpAdaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto value = dyn_cast<IntegerAttr>(op.getValue());
    if (!value || !op.getType().isIndex())
      return rewriter.notifyMatchFailure(op, "not an index constant");
    rewriter.replaceOpWithNewOp<emitc::ConstantOp>(
        op, rewriter.getI64Type(), rewriter.getI64IntegerAttr(value.getInt()));
    return success();
  }
};

/// scf.for without iteration values: an emitc.for over int64_t.
struct ForLowering : public OpConversionPattern<scf::ForOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(scf::ForOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    if (!op.getInitArgs().empty())
      return rewriter.notifyMatchFailure(op, "carries values");
    auto loop = rewriter.create<emitc::ForOp>(
        op.getLoc(), adaptor.getLowerBound(), adaptor.getUpperBound(),
        adaptor.getStep());
    rewriter.eraseBlock(loop.getBody());
    rewriter.inlineRegionBefore(op.getRegion(), loop.getRegion(),
                                loop.getRegion().end());
    if (failed(rewriter.convertRegionTypes(&loop.getRegion(),
                                           *getTypeConverter())))
      return failure();
    rewriter.eraseOp(op);
    return success();
  }
};

struct YieldLowering : public OpConversionPattern<scf::YieldOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(scf::YieldOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    if (!op.getResults().empty())
      return rewriter.notifyMatchFailure(op, "yields values");
    rewriter.replaceOpWithNewOp<emitc::YieldOp>(op);
    return success();
  }
};

} // namespace

void populateScheduleToEmitCPatterns(TypeConverter &converter,
                                     RewritePatternSet &patterns,
                                     ModelOp model) {
  patterns.add<MicroBatchCountLowering, DecodeStepsLowering, MicroBatchLowering,
               InputTokensLowering, RecvLowering, SendLowering, SampleLowering,
               ReturnTokensLowering, IndexConstantLowering, ForLowering,
               YieldLowering>(converter, patterns.getContext());
  patterns.add<StageCallLowering>(converter, patterns.getContext(), model);
}

} // namespace weft::llm
