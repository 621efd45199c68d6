//===- DistToEmitC.cpp - dist ops to calls of the MPI runtime ---*- C++ -*-===//
//
// This file implements convert-dist-to-emitc: one conversion pattern per op
// family of the dist dialect, each rewriting its op into calls of
// runtime/mpi/weft_rt_mpi.h. It runs before convert-loops-to-emitc, which
// rebuilds the rest of each function and resolves the casts between
// `index`/memref values and their C spellings (`int64_t`, element
// pointers).
//
// Sizes travel in bytes: the runtime hands MPI untyped buffers, except for
// all-reduces, which name the element type and the operator by code.
//
//===----------------------------------------------------------------------===//
#include "weft/Conversion/DistToEmitC.h"
#include "weft/Conversion/Passes.h"

#include "dialects/Dist/IR/DistOps.h"

#include "mlir/Dialect/EmitC/IR/EmitC.h"
#include "mlir/IR/BuiltinOps.h"

namespace weft {
#define GEN_PASS_DEF_CONVERTDISTTOEMITC
#include "weft/Conversion/Passes.h.inc"
} // namespace weft

using namespace mlir;
using namespace weft;
using namespace weft::dist;

//===----------------------------------------------------------------------===//
// Types
//===----------------------------------------------------------------------===//

static Value castValue(OpBuilder &b, Type type, ValueRange inputs,
                       Location loc) {
  return b.create<UnrealizedConversionCastOp>(loc, type, inputs).getResult(0);
}

DistToEmitCTypeConverter::DistToEmitCTypeConverter() {
  addConversion([](Type t) { return t; });
  addConversion(
      [](IndexType t) { return IntegerType::get(t.getContext(), 64); });
  addConversion([this](MemRefType t) -> Type {
    return emitc::PointerType::get(convertType(t.getElementType()));
  });
  addSourceMaterialization(castValue);
  addTargetMaterialization(castValue);
}

//===----------------------------------------------------------------------===//
// Helpers
//===----------------------------------------------------------------------===//

/// A call of a function of runtime/mpi/weft_rt_mpi.h; its result, if any.
static Value callRuntime(OpBuilder &b, Location loc, StringRef name,
                         Type result, ValueRange args) {
  auto call = b.create<emitc::CallOpaqueOp>(
      loc, result ? TypeRange{result} : TypeRange{}, name, args);
  return result ? call.getResult(0) : Value();
}

static Value i64Constant(OpBuilder &b, Location loc, int64_t v) {
  return b.create<emitc::ConstantOp>(loc, b.getI64Type(),
                                     b.getI64IntegerAttr(v));
}

/// The size in bytes of a C object of type `t`.
static int64_t byteSize(Type t) {
  if (t.isIndex())
    return 8;
  return std::max<int64_t>(t.getIntOrFloatBitWidth() / 8, 1);
}

namespace {

//===----------------------------------------------------------------------===//
// Process queries
//===----------------------------------------------------------------------===//

/// dist.rank and dist.num_ranks: the runtime's copies of MPI_Comm_rank and
/// MPI_Comm_size.
template <typename Op>
struct ProcessQueryLowering : OpConversionPattern<Op> {
  ProcessQueryLowering(const TypeConverter &converter, MLIRContext *ctx,
                       StringRef callee)
      : OpConversionPattern<Op>(converter, ctx), callee(callee) {}

  LogicalResult
  matchAndRewrite(Op op, typename Op::Adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    rewriter.replaceOp(op, callRuntime(rewriter, op.getLoc(), callee,
                                       rewriter.getI64Type(), {}));
    return success();
  }

  StringRef callee;
};

/// dist.grid_shape: static extents are constants; a 2-D grid chosen at run
/// time asks the runtime's factorisation, given the preferred extents (0:
/// none).
struct GridShapeLowering : OpConversionPattern<GridShapeOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(GridShapeOp op, OpAdaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    GridAttr grid = op.getGrid();
    SmallVector<int64_t> preferred(
        op.getPreferred().value_or(ArrayRef<int64_t>{}));
    preferred.resize(grid.getRank(), 0);
    SmallVector<Value> extents(grid.getRank());
    for (unsigned axis = 0; axis < grid.getRank(); ++axis) {
      if (op.getResult(axis).use_empty())
        continue;
      if (!grid.isDynamicAxis(axis)) {
        extents[axis] = i64Constant(rewriter, loc, grid.getShape()[axis]);
      } else if (grid.getRank() == 2 && grid.isDynamicAxis(1 - axis)) {
        Value rows = i64Constant(rewriter, loc, preferred[0]);
        Value cols = i64Constant(rewriter, loc, preferred[1]);
        extents[axis] = callRuntime(
            rewriter, loc, axis ? "weft_rt_grid_cols" : "weft_rt_grid_rows",
            rewriter.getI64Type(), {rows, cols});
      } else {
        return op.emitOpError("only fully static grids and 2-D grids chosen "
                              "at run time can be lowered to C");
      }
    }
    rewriter.replaceOp(op, extents);
    return success();
  }
};

//===----------------------------------------------------------------------===//
// Index arithmetic of a distributed dimension
//===----------------------------------------------------------------------===//

/// dist.local_bounds of a block distribution: the runtime's balanced blocks
/// (the same formula as the dialect's).
struct LocalBoundsLowering : OpConversionPattern<LocalBoundsOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(LocalBoundsOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    if (op.getDistribution().getKind() != DistKind::Block)
      return op.emitOpError("only block distributions can be lowered to C");
    Location loc = op.getLoc();
    Type i64 = rewriter.getI64Type();
    SmallVector<Value> operands{adaptor.getLowerBound(),
                                adaptor.getUpperBound(), adaptor.getCoord(),
                                adaptor.getExtent()};
    // Only what is used: C compilers warn about unused variables.
    Value lo, hi, step;
    if (!op.getLocalLb().use_empty())
      lo = callRuntime(rewriter, loc, "weft_rt_block_lo", i64, operands);
    if (!op.getLocalUb().use_empty())
      hi = callRuntime(rewriter, loc, "weft_rt_block_hi", i64, operands);
    if (!op.getLocalStep().use_empty())
      step = i64Constant(rewriter, loc, 1);
    rewriter.replaceOp(op, {lo, hi, step});
    return success();
  }
};

//===----------------------------------------------------------------------===//
// Messages
//===----------------------------------------------------------------------===//

/// dist.message_buffer: the runtime's buffer of the slot and peer, grown to
/// `count` elements.
struct MessageBufferLowering : OpConversionPattern<MessageBufferOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(MessageBufferOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value slot = i64Constant(rewriter, loc, op.getSlot());
    Value size =
        i64Constant(rewriter, loc, byteSize(op.getType().getElementType()));
    // The constants come first and in this order, as the C has them.
    SmallVector<Value> operands{slot, adaptor.getPeer(), adaptor.getCount(),
                                size};
    rewriter.replaceOp(
        op,
        callRuntime(rewriter, loc, "weft_rt_buffer",
                    getTypeConverter()->convertType(op.getType()), operands));
    return success();
  }
};

/// dist.isend and dist.irecv: MPI_Isend / MPI_Irecv of `count` elements.
template <typename Op>
struct NonBlockingLowering : OpConversionPattern<Op> {
  NonBlockingLowering(const TypeConverter &converter, MLIRContext *ctx,
                      StringRef callee)
      : OpConversionPattern<Op>(converter, ctx), callee(callee) {}

  LogicalResult
  matchAndRewrite(Op op, typename Op::Adaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value size = i64Constant(
        rewriter, loc, byteSize(op.getBuffer().getType().getElementType()));
    Value tag = i64Constant(rewriter, loc, op.getTag());
    callRuntime(rewriter, loc, callee, Type(),
                {adaptor.getBuffer(), adaptor.getCount(), size,
                 adaptor.getPeer(), tag});
    rewriter.eraseOp(op);
    return success();
  }

  StringRef callee;
};

/// Ops without operands or results that are one runtime call each
/// (dist.wait_all, dist.set_replicas_stale).
template <typename Op>
struct RuntimeCallLowering : OpConversionPattern<Op> {
  RuntimeCallLowering(const TypeConverter &converter, MLIRContext *ctx,
                      StringRef callee)
      : OpConversionPattern<Op>(converter, ctx), callee(callee) {}

  LogicalResult
  matchAndRewrite(Op op, typename Op::Adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    callRuntime(rewriter, op.getLoc(), callee, Type(), {});
    rewriter.eraseOp(op);
    return success();
  }

  StringRef callee;
};

//===----------------------------------------------------------------------===//
// Collectives
//===----------------------------------------------------------------------===//

/// dist.broadcast of the first `n` elements of a 1-D buffer (the form
/// dist-materialize emits).
struct BroadcastLowering : OpConversionPattern<BroadcastOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(BroadcastOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto type = dyn_cast<MemRefType>(op.getValue().getType());
    auto offsets = op.getStaticOffsetsAttr();
    if (!type || type.getRank() != 1 || !offsets || offsets[0] != 0 ||
        op.getSizes().size() != 1)
      return op.emitOpError("only broadcasts of a 1-D buffer's first "
                            "elements can be lowered to C");
    Location loc = op.getLoc();
    Value size = i64Constant(rewriter, loc, byteSize(type.getElementType()));
    callRuntime(
        rewriter, loc, "weft_rt_bcast", Type(),
        {adaptor.getValue(), adaptor.getSizes()[0], size, adaptor.getRoot()});
    rewriter.eraseOp(op);
    return success();
  }
};

/// dist.allreduce of a message buffer, in place: the element type and the
/// operator as the runtime's codes (weft_rt_allreduce).
struct AllReduceLowering : OpConversionPattern<AllReduceOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(AllReduceOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto buffer = op.getValue().getDefiningOp<MessageBufferOp>();
    if (!buffer || op.getResult())
      return op.emitOpError("only all-reduces of a message buffer can be "
                            "lowered to C");
    Type element = buffer.getType().getElementType();
    int64_t type =
        element.isF64()   ? 0
        : element.isF32() ? 1
        : element.isIndex()
            ? 2
            : 2 + llvm::Log2_64(64 / element.getIntOrFloatBitWidth());
    if (isa<FloatType>(element) && type > 1)
      return op.emitOpError("cannot all-reduce ") << element;
    Location loc = op.getLoc();
    Value count = rewriter.getRemappedValue(buffer.getCount());
    Value typeCode = i64Constant(rewriter, loc, type);
    Value kind = i64Constant(rewriter, loc, int64_t(op.getKind()));
    callRuntime(rewriter, loc, "weft_rt_allreduce", Type(),
                {adaptor.getValue(), count, typeCode, kind});
    rewriter.eraseOp(op);
    return success();
  }
};

//===----------------------------------------------------------------------===//
// Staleness and overlap
//===----------------------------------------------------------------------===//

struct ReplicasStaleLowering : OpConversionPattern<ReplicasStaleOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(ReplicasStaleOp op, OpAdaptor,
                  ConversionPatternRewriter &rewriter) const override {
    rewriter.replaceOp(op, callRuntime(rewriter, op.getLoc(),
                                       "weft_rt_replicas_stale",
                                       rewriter.getI1Type(), {}));
    return success();
  }
};

/// dist.ranges_overlap: each range with its element size.
struct RangesOverlapLowering : OpConversionPattern<RangesOverlapOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(RangesOverlapOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value lhsSize = i64Constant(
        rewriter, loc, byteSize(op.getLhs().getType().getElementType()));
    Value rhsSize = i64Constant(
        rewriter, loc, byteSize(op.getRhs().getType().getElementType()));
    rewriter.replaceOp(
        op, callRuntime(rewriter, loc, "weft_rt_ranges_overlap",
                        rewriter.getI1Type(),
                        {adaptor.getLhs(), adaptor.getLhsBegin(),
                         adaptor.getLhsEnd(), lhsSize, adaptor.getRhs(),
                         adaptor.getRhsBegin(), adaptor.getRhsEnd(), rhsSize}));
    return success();
  }
};

} // end anonymous namespace

void weft::populateDistToEmitCPatterns(const TypeConverter &converter,
                                       RewritePatternSet &patterns) {
  MLIRContext *ctx = patterns.getContext();
  patterns.add<ProcessQueryLowering<RankOp>>(converter, ctx, "weft_rt_self");
  patterns.add<ProcessQueryLowering<NumRanksOp>>(converter, ctx,
                                                 "weft_rt_nranks");
  patterns.add<NonBlockingLowering<ISendOp>>(converter, ctx, "weft_rt_isend");
  patterns.add<NonBlockingLowering<IRecvOp>>(converter, ctx, "weft_rt_irecv");
  patterns.add<RuntimeCallLowering<WaitAllOp>>(converter, ctx,
                                               "weft_rt_wait_all");
  patterns.add<RuntimeCallLowering<SetReplicasStaleOp>>(
      converter, ctx, "weft_rt_set_replicas_stale");
  patterns.add<GridShapeLowering, LocalBoundsLowering, MessageBufferLowering,
               BroadcastLowering, AllReduceLowering, ReplicasStaleLowering,
               RangesOverlapLowering>(converter, ctx);
}

namespace {
struct ConvertDistToEmitC
    : weft::impl::ConvertDistToEmitCBase<ConvertDistToEmitC> {
  using Base::Base;
  void runOnOperation() override {
    ConversionTarget target(getContext());
    target.addIllegalDialect<DistDialect>();
    // Every other op is legal as it is: the driver would otherwise try to
    // fold it, and folding reorders operands and evaluates floating-point
    // arithmetic at compile time (see weft-seq-pipeline).
    target.markUnknownOpDynamicallyLegal([](Operation *) { return true; });
    DistToEmitCTypeConverter converter;
    RewritePatternSet patterns(&getContext());
    populateDistToEmitCPatterns(converter, patterns);
    if (failed(applyPartialConversion(getOperation(), target,
                                      std::move(patterns))))
      signalPassFailure();
  }
};
} // end anonymous namespace
