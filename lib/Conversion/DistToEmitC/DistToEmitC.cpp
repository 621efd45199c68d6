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
#include "weft/Analysis/Polyhedral/ElementSets.h"
#include "weft/Conversion/MemRefExtents.h"
#include "weft/Conversion/Passes.h"
#include "weft/Support/SourceNames.h"

#include "dialects/Dist/IR/DistOps.h"

#include "mlir/Dialect/EmitC/IR/EmitC.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Interfaces/FunctionInterfaces.h"

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

//===----------------------------------------------------------------------===//
// Values defined once per function
//===----------------------------------------------------------------------===//

Value DistToEmitCConstants::table(ConversionPatternRewriter &rewriter,
                                  Operation *user, StringAttr set,
                                  ArrayRef<int64_t> table, Value array) {
  return define(rewriter, user, set, [&](OpBuilder &b) -> Value {
    std::string init = "{";
    for (auto [k, v] : llvm::enumerate(table))
      init += (k ? ", " : "") + std::to_string(v);
    init += "}";
    Type element =
        emitc::OpaqueType::get(b.getContext(), "static const int64_t");
    // What the messages of this table carry, for the reader of the C, on
    // one line.
    std::string text = set.getValue().str();
    std::replace_if(
        text.begin(), text.end(), [](char c) { return c == '\n' || c == '\r'; },
        ' ');
    b.create<emitc::VerbatimOp>(user->getLoc(), "// message elements: " + text);
    // `A_message`: a table serves every message of its set, whatever its
    // kind (the sender's and the receiver's of a halo are the same). The
    // one-element set of scalar arguments serves them all
    // (`scalar_message`).
    auto type = dyn_cast<MemRefType>(user->getOperand(0).getType());
    bool scalar = type && type.hasStaticShape() && type.getNumElements() == 1;
    StringRef arrayName = weft::sourceName(array);
    std::string name = scalar              ? "scalar_message"
                       : arrayName.empty() ? "message"
                                           : (arrayName + "_message").str();
    return b.create<emitc::VariableOp>(
        weft::withSourceName(user->getLoc(), name),
        emitc::ArrayType::get({(int64_t)table.size()}, element),
        emitc::OpaqueAttr::get(b.getContext(), init));
  });
}

Value DistToEmitCConstants::integer(ConversionPatternRewriter &rewriter,
                                    Operation *user, int64_t v) {
  return define(
      rewriter, user, rewriter.getI64IntegerAttr(v),
      [&](OpBuilder &b) { return i64Constant(b, user->getLoc(), v); });
}

Value DistToEmitCConstants::define(ConversionPatternRewriter &rewriter,
                                   Operation *user, Attribute key,
                                   function_ref<Value(OpBuilder &)> build) {
  auto func = user->getParentOfType<FunctionOpInterface>();
  Value &value = values[{func, key}];
  if (value)
    return value;
  OpBuilder::InsertionGuard guard(rewriter);
  Operation *&last = lastDefined[func];
  if (last)
    rewriter.setInsertionPointAfter(last);
  else
    rewriter.setInsertionPointToStart(&func.getFunctionBody().front());
  value = build(rewriter);
  last = value.getDefiningOp();
  return value;
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

/// dist.local_bounds of a block distribution: the runtime's balanced blocks,
/// or blocks of equal work when weighted (the same formulas as the
/// dialect's).
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
    llvm::append_range(operands, adaptor.getWeights());
    StringRef lowFn = op.getWeights().empty() ? "weft_rt_block_lo"
                                              : "weft_rt_weighted_block_lo";
    StringRef highFn = op.getWeights().empty() ? "weft_rt_block_hi"
                                               : "weft_rt_weighted_block_hi";
    // Only what is used: C compilers warn about unused variables.
    // A named block (row_block) names its bounds (row_block_lo).
    StringRef name = weft::sourceName(loc);
    auto bound = [&](StringRef suffix) {
      return name.empty() ? loc
                          : weft::withSourceName(loc, (name + suffix).str());
    };
    Value lo, hi, step;
    if (!op.getLocalLb().use_empty())
      lo = callRuntime(rewriter, bound("_lo"), lowFn, i64, operands);
    if (!op.getLocalUb().use_empty())
      hi = callRuntime(rewriter, bound("_hi"), highFn, i64, operands);
    if (!op.getLocalStep().use_empty())
      step = i64Constant(rewriter, loc, 1);
    rewriter.replaceOp(op, {lo, hi, step});
    return success();
  }
};

//===----------------------------------------------------------------------===//
// Messages of exact element sets
//===----------------------------------------------------------------------===//

/// The runtime's code of an element type (weft_rt_allreduce_elements); a C
/// bool is a byte.
static int64_t typeCode(Type element) {
  if (element.isF64())
    return 0;
  if (element.isF32())
    return 1;
  if (element.isIndex())
    return 2;
  return 2 + llvm::Log2_64(64 / std::max(element.getIntOrFloatBitWidth(), 8u));
}

/// The runtime arguments each message op adds after the array and its
/// element size: where the message goes, or how it combines.
static SmallVector<Value> messageArgs(ISendOp op, ISendOp::Adaptor adaptor,
                                      function_ref<Value(int64_t)> integer) {
  return {adaptor.getPeer(), integer(op.getTag())};
}
static SmallVector<Value> messageArgs(IRecvOp op, IRecvOp::Adaptor adaptor,
                                      function_ref<Value(int64_t)> integer) {
  return {adaptor.getPeer(), integer(op.getTag())};
}
static SmallVector<Value> messageArgs(BroadcastOp, BroadcastOp::Adaptor adaptor,
                                      function_ref<Value(int64_t)>) {
  return {adaptor.getRoot()};
}
static SmallVector<Value> messageArgs(AllReduceOp op, AllReduceOp::Adaptor,
                                      function_ref<Value(int64_t)> integer) {
  return {integer(typeCode(op.getArray().getType().getElementType())),
          integer(int64_t(op.getKind()))};
}

/// dist.isend, dist.irecv, dist.broadcast and dist.allreduce: one call of
/// the runtime with the set's table, the array, its element size, the op's
/// own arguments, and the array of the linear index of its first element
/// (rank-local storage), its extents after the first and the set's
/// parameters.
template <typename Op>
struct ElementsLowering : OpConversionPattern<Op> {
  ElementsLowering(const TypeConverter &converter, MLIRContext *ctx,
                   DistToEmitCConstants &constants, StringRef callee)
      : OpConversionPattern<Op>(converter, ctx), constants(constants),
        callee(callee) {}

  LogicalResult
  matchAndRewrite(Op op, typename Op::Adaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    MemRefType type = op.getArray().getType();
    FailureOr<SmallVector<int64_t>> table =
        encodeElementSet(op, op.getElements(), type.getRank());
    if (failed(table))
      return failure();
    FailureOr<SmallVector<OpFoldResult>> extents =
        getTrailingExtents(op, op.getArray());
    if (failed(extents))
      return failure();
    Location loc = op.getLoc();
    auto integer = [&](int64_t v) {
      return constants.integer(rewriter, op, v);
    };
    auto value = [&](OpFoldResult r) -> Value {
      if (auto v = dyn_cast<Value>(r))
        return rewriter.getRemappedValue(v);
      return integer(cast<IntegerAttr>(r.get<Attribute>()).getInt());
    };
    SmallVector<Value> args{
        constants.table(rewriter, op, op.getElementsAttr(), *table,
                        op.getArray()),
        adaptor.getArray(), integer(byteSize(type.getElementType()))};
    // The linear index of the first element the array holds, row-major.
    Value first = integer(0);
    if (!adaptor.getOrigin().empty()) {
      Type i64 = rewriter.getI64Type();
      first = adaptor.getOrigin().front();
      for (auto [extent, origin] :
           llvm::zip(*extents, adaptor.getOrigin().drop_front()))
        first = rewriter.create<emitc::AddOp>(
            loc, i64,
            rewriter.create<emitc::MulOp>(loc, i64, first, value(extent)),
            origin);
    }
    args.append(messageArgs(op, adaptor, integer));
    // The integers of the walk, as one array (weft_rt_values, a compound
    // literal in which every value converts to int64_t).
    SmallVector<Value> values{first};
    for (OpFoldResult extent : *extents)
      values.push_back(value(extent));
    values.append(adaptor.getParams().begin(), adaptor.getParams().end());
    MLIRContext *ctx = rewriter.getContext();
    args.push_back(callRuntime(
        rewriter, loc, "weft_rt_values",
        emitc::PointerType::get(emitc::OpaqueType::get(ctx, "const int64_t")),
        values));
    callRuntime(rewriter, loc, callee, Type(), args);
    rewriter.eraseOp(op);
    return success();
  }

  DistToEmitCConstants &constants;
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
                                       RewritePatternSet &patterns,
                                       DistToEmitCConstants &constants) {
  MLIRContext *ctx = patterns.getContext();
  patterns.add<ProcessQueryLowering<RankOp>>(converter, ctx, "weft_rt_self");
  patterns.add<ProcessQueryLowering<NumRanksOp>>(converter, ctx,
                                                 "weft_rt_nranks");
  patterns.add<ElementsLowering<ISendOp>>(converter, ctx, constants,
                                          "weft_rt_isend_elements");
  patterns.add<ElementsLowering<IRecvOp>>(converter, ctx, constants,
                                          "weft_rt_irecv_elements");
  patterns.add<ElementsLowering<BroadcastOp>>(converter, ctx, constants,
                                              "weft_rt_bcast_elements");
  patterns.add<ElementsLowering<AllReduceOp>>(converter, ctx, constants,
                                              "weft_rt_allreduce_elements");
  patterns.add<RuntimeCallLowering<WaitAllOp>>(converter, ctx,
                                               "weft_rt_wait_all");
  patterns.add<RuntimeCallLowering<SetReplicasStaleOp>>(
      converter, ctx, "weft_rt_set_replicas_stale");
  patterns.add<GridShapeLowering, LocalBoundsLowering, ReplicasStaleLowering,
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
    DistToEmitCConstants constants;
    RewritePatternSet patterns(&getContext());
    populateDistToEmitCPatterns(converter, patterns, constants);
    if (failed(applyPartialConversion(getOperation(), target,
                                      std::move(patterns))))
      signalPassFailure();
  }
};
} // end anonymous namespace
