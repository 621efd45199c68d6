//===- LoopsToEmitC.cpp - Region functions to EmitC -------------*- C++ -*-===//
//
// This file implements convert-loops-to-emitc. The input is small and closed
// (what the C front end produces, after lower-affine and
// linearize-memref-accesses), so the conversion rebuilds each function op by
// op with an IRMapping instead of going through the dialect-conversion
// driver: EmitC 19 has no lvalues, and a memref is a pointer in one place
// (arguments) and an array in another (allocas), which type materialisation
// cannot express.
//
// Values read from memory are copied into a variable right away: a
// subscript is printed where it is used, and a later store must not change
// a value that was already loaded. prepare-c-emission folds the copies back
// into expressions where nothing is written in between.
//
// Arrays keep the subscripts the source wrote. An argument of rank >= 2 is
// a pointer to its rows, `double (*A)[250]`; where an extent is known only
// at run time, the C99 variably modified form `double (*A)[A_dim1]`, whose
// extent must come first among the parameters: the C function takes each
// extent argument right before its array (the region ABI's order otherwise;
// `weft.c_arg` on each emitc.func argument gives the call's expression in
// the new order, and calls between region functions follow it). EmitC 19
// has no type for a pointer to rows of run-time length, so such arguments
// have an opaque type spelled as a C abstract declarator,
// `double (*restrict)[*]`, whose `[*]`s the C printer fills in from the
// argument's `weft.dim_args`. Local arrays are C arrays of their shape.
// Only heap storage (`memref.alloc`) keeps linearised subscripts.
//
// convert-dist-to-emitc runs first: its EmitC ops are kept as they are, and
// the unrealized_conversion_casts between them and this conversion's values
// (`index` and `int64_t`, a memref and its pointer) are resolved here.
//
//===----------------------------------------------------------------------===//
#include "dialects/Dist/IR/DistDialect.h"
#include "dialects/Weft/IR/WeftDialect.h"
#include "weft/Conversion/Passes.h"

#include "weft/Support/ArgumentAliasing.h"
#include "weft/Support/RuntimeCalls.h"
#include "weft/Support/SourceNames.h"

#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/IRMapping.h"
#include "llvm/ADT/TypeSwitch.h"

namespace weft {
#define GEN_PASS_DEF_CONVERTLOOPSTOEMITC
#include "weft/Conversion/Passes.h.inc"
} // namespace weft

using namespace mlir;

namespace {

/// The C parameter order of each region function: `order[k]` is the
/// func.func argument that C parameter k passes.
using ParameterOrders = llvm::StringMap<SmallVector<unsigned>>;

/// Rebuilds one func.func as an emitc.func.
class FunctionLowering {
public:
  FunctionLowering(MLIRContext *ctx, const ParameterOrders &orders,
                   bool flatArguments)
      : b(ctx), orders(orders), flatArguments(flatArguments) {}

  FailureOr<emitc::FuncOp> lower(func::FuncOp func);

private:
  Type convertType(Type t);
  LogicalResult lowerBlock(Block &block);
  LogicalResult lowerOp(Operation *op);

  // Op families.
  LogicalResult lowerConstant(arith::ConstantOp op);
  LogicalResult lowerCast(Operation *op);
  LogicalResult lowerUnsignedCast(Operation *op);
  Value asUnsigned(Location loc, Value v);
  LogicalResult lowerCompare(Operation *op);
  LogicalResult lowerFloorCeilDiv(Operation *op, bool floor);
  LogicalResult lowerMinMax(Operation *op, emitc::CmpPredicate pred);
  LogicalResult lowerLoad(memref::LoadOp op);
  LogicalResult lowerStore(memref::StoreOp op);
  LogicalResult lowerAtomic(memref::AtomicRMWOp op);
  LogicalResult lowerAlloca(memref::AllocaOp op);
  LogicalResult lowerAlloc(memref::AllocOp op);
  LogicalResult lowerFor(scf::ForOp op);
  LogicalResult lowerIf(scf::IfOp op);
  LogicalResult lowerWhile(scf::WhileOp op);
  LogicalResult lowerLibmCall(Operation *op, StringRef name);
  /// A call of a function of runtime/mpi/weft_rt_mpi.h.
  Value callRuntime(Location loc, StringRef name, Type result,
                    ValueRange args);

  /// C operators take the signedness of their operands' C types, and the
  /// lowering's values are signed: unsigned ones go through casts.
  template <typename EmitCOp>
  LogicalResult lowerUnsignedBinary(Operation *op) {
    Location loc = op->getLoc();
    Value x = asUnsigned(loc, map.lookup(op->getOperand(0)));
    Value y = asUnsigned(loc, map.lookup(op->getOperand(1)));
    Value r = b.create<EmitCOp>(loc, x.getType(), x, y);
    map.map(op->getResult(0),
            b.create<emitc::CastOp>(
                loc, convertType(op->getResult(0).getType()), r));
    return success();
  }

  /// Integer +, -, * and <<: arith wraps unless the op says `nsw`, while C
  /// leaves signed overflow undefined. Operations that may wrap run on
  /// unsigned C types; `nsw` ones and index computations (which stay far
  /// from the 64-bit limits) use the signed types directly.
  template <typename EmitCOp>
  LogicalResult lowerIntBinary(Operation *op) {
    auto flags = cast<arith::ArithIntegerOverflowFlagsInterface>(op);
    if (op->getResult(0).getType().isIndex() || flags.hasNoSignedWrap() ||
        op->getResult(0).getType().isInteger(1))
      return lowerBinary<EmitCOp>(op);
    return lowerUnsignedBinary<EmitCOp>(op);
  }

  template <typename EmitCOp>
  LogicalResult lowerBinary(Operation *op) {
    Value r = b.create<EmitCOp>(op->getLoc(),
                                convertType(op->getResult(0).getType()),
                                map.lookup(op->getOperand(0)),
                                map.lookup(op->getOperand(1)));
    map.map(op->getResult(0), r);
    return success();
  }

  FailureOr<Type> argumentType(func::FuncOp func, unsigned i, bool restrict);
  /// Arrays with specifiers declared without a source name so far.
  unsigned specifiedArrays = 0;
  Value subscript(Location loc, Value memref, ValueRange indices);
  /// The C values of an access's indices; `0` for a scalar argument.
  SmallVector<Value> elementIndices(Location loc, ValueRange indices);
  Value newVariable(Location loc, Type t);

  OpBuilder b;
  IRMapping map;
  const ParameterOrders &orders;
  /// Arrays are pointers to their elements (flat-arguments: C++).
  bool flatArguments;
};

} // end anonymous namespace

Type FunctionLowering::convertType(Type t) {
  if (t.isIndex())
    return b.getI64Type();
  if (auto mt = dyn_cast<MemRefType>(t))
    return emitc::PointerType::get(convertType(mt.getElementType()));
  return t;
}

/// A scalar declared in the region: a C variable, its own lvalue.
static bool isScalarLocal(Value memref) {
  return cast<MemRefType>(memref.getType()).getRank() == 0 &&
         memref.getDefiningOp<memref::AllocaOp>();
}

/// Makes sure `block` ends with an emitc.yield and returns it.
static Operation *ensureYield(OpBuilder &b, Location loc, Block &block) {
  if (block.empty() || !block.back().hasTrait<OpTrait::IsTerminator>()) {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToEnd(&block);
    b.create<emitc::YieldOp>(loc);
  }
  return block.getTerminator();
}

Value FunctionLowering::newVariable(Location loc, Type t) {
  return b.create<emitc::VariableOp>(loc, t,
                                     emitc::OpaqueAttr::get(b.getContext(), ""));
}

/// The C spelling of a scalar element type, as the C++ emitter prints it;
/// empty where there is none.
static std::string cScalarName(Type t) {
  if (t.isF64())
    return "double";
  if (t.isF32())
    return "float";
  if (t.isInteger(1))
    return "bool";
  if (t.isIndex())
    return "int64_t";
  if (auto i = dyn_cast<IntegerType>(t); i && i.isSignless() &&
                                          llvm::is_contained(
                                              {8u, 16u, 32u, 64u},
                                              i.getWidth()))
    return "int" + std::to_string(i.getWidth()) + "_t";
  return "";
}

/// Whether `t` is an array that C subscripts through a pointer to its rows
/// (never under flat-arguments).
static bool passedAsRows(Type t, bool flatArguments) {
  auto mt = dyn_cast<MemRefType>(t);
  return !flatArguments && mt && mt.getRank() >= 2;
}

/// The argument holding each extent of argument `i` (-1: none), if `i` is
/// passed as a pointer to its rows.
static ArrayRef<int64_t> extentArguments(func::FuncOp func, unsigned i,
                                         bool flatArguments) {
  auto dims = func.getArgAttrOfType<DenseI64ArrayAttr>(
      i, weft::WeftDialect::getDimArgsAttrName());
  if (!dims || !passedAsRows(func.getArgument(i).getType(), flatArguments))
    return {};
  return dims.asArrayRef();
}

/// C's parameter order for `func`: the region ABI's, except that each
/// extent argument comes right before the first array it sizes (C99 reads
/// a variably modified parameter's extents from earlier parameters).
static SmallVector<unsigned> parameterOrder(func::FuncOp func,
                                            bool flatArguments) {
  int64_t n = func.getNumArguments();
  SmallVector<bool> isExtent(n, false), placed(n, false);
  for (int64_t i = 0; i < n; ++i)
    for (int64_t d : extentArguments(func, i, flatArguments))
      if (d >= 0 && d < n)
        isExtent[d] = true;
  SmallVector<unsigned> order;
  for (int64_t i = 0; i < n; ++i) {
    if (isExtent[i])
      continue;
    for (int64_t d : extentArguments(func, i, flatArguments))
      if (d >= 0 && d < n && !placed[d]) {
        order.push_back(d);
        placed[d] = true;
      }
    order.push_back(i);
  }
  for (int64_t i = 0; i < n; ++i)
    if (isExtent[i] && !placed[i])
      order.push_back(i);
  return order;
}

/// The call's expression for an array passed as rows: the importer passes
/// `(T *)(A)`, the pointer to the first element; `(void *)(A)` converts to
/// the parameter's pointer to rows, whatever the array's declared type.
static std::string rowsCallArgument(StringRef cArg) {
  size_t split = cArg.find(")(");
  if (cArg.starts_with("(") && split != StringRef::npos)
    return ("(void *)" + cArg.drop_front(split + 1)).str();
  return ("(void *)(" + cArg + ")").str();
}

FailureOr<Type> FunctionLowering::argumentType(func::FuncOp func, unsigned i,
                                               bool restrict) {
  Type t = func.getArgument(i).getType();
  auto mt = dyn_cast<MemRefType>(t);
  bool rows = passedAsRows(t, flatArguments);
  // The source's integer type where the fixed-width one is another C type
  // (the importer's weft.c_type): the pointer must be to the object's type.
  auto spelled =
      func.getArgAttrOfType<StringAttr>(i, weft::WeftDialect::getCTypeAttrName());
  if (!mt || (!restrict && !rows && !spelled))
    return convertType(t);
  std::string element =
      spelled ? spelled.str() : cScalarName(mt.getElementType());
  if (element.empty())
    return convertType(t);
  if (!rows)
    return Type(emitc::OpaqueType::get(
        b.getContext(), element + (restrict ? " *restrict" : " *")));
  std::string text = element + " (*" + (restrict ? "restrict" : "") + ")";
  ArrayRef<int64_t> extents = extentArguments(func, i, flatArguments);
  for (int64_t d = 1; d < mt.getRank(); ++d) {
    if (!mt.isDynamicDim(d)) {
      text += "[" + std::to_string(mt.getDimSize(d)) + "]";
      continue;
    }
    if (extents.size() != size_t(mt.getRank()) || extents[d] < 0)
      return func.emitOpError("dynamic extent of dimension ")
             << d << " of argument " << i
             << " is not available as a 'weft.dim_args' argument";
    text += "[*]";
  }
  return Type(emitc::OpaqueType::get(b.getContext(), text));
}

FailureOr<emitc::FuncOp> FunctionLowering::lower(func::FuncOp func) {
  if (func.getNumResults() != 0)
    return func.emitOpError("region functions must not return values");
  bool disjoint = weft::argumentsDisjoint(func);
  const SmallVector<unsigned> &order = orders.find(func.getName())->second;
  SmallVector<unsigned> position(order.size());
  for (auto [k, i] : llvm::enumerate(order))
    position[i] = k;
  SmallVector<Type> argTypes;
  for (unsigned i : order) {
    FailureOr<Type> t = argumentType(func, i, disjoint);
    if (failed(t))
      return failure();
    argTypes.push_back(*t);
  }
  b.setInsertionPoint(func);
  auto cfunc = b.create<emitc::FuncOp>(func.getLoc(), func.getName(),
                                       b.getFunctionType(argTypes, {}));
  // Per C parameter: the call's expression, and where the extents of an
  // array passed as rows are.
  for (auto [k, i] : llvm::enumerate(order)) {
    StringRef cArgName = weft::WeftDialect::getCArgAttrName();
    if (auto cArg = func.getArgAttrOfType<StringAttr>(i, cArgName))
      cfunc.setArgAttr(
          k, cArgName,
          passedAsRows(func.getArgument(i).getType(), flatArguments)
              ? b.getStringAttr(rowsCallArgument(cArg))
              : cArg);
    ArrayRef<int64_t> extents = extentArguments(func, i, flatArguments);
    if (extents.empty())
      continue;
    SmallVector<int64_t> moved;
    for (int64_t d : extents)
      moved.push_back(d < 0 ? -1 : int64_t(position[d]));
    cfunc.setArgAttr(k, weft::WeftDialect::getDimArgsAttrName(),
                     b.getDenseI64ArrayAttr(moved));
  }
  // A distributed region stays a call, not specialised for its arguments
  // (WEFT_RT_REGION in runtime/mpi/weft_rt_mpi.h says why). The dispatcher
  // of dist-alias-check does not: the C compiler inlines it and sees the
  // caller's bounds. The region as written it calls stays a call too
  // (WEFT_RT_AS_WRITTEN, runtime/common/weft_rt_overlap.h), but one the
  // compiler may specialise; unless a scalar of the caller comes by address
  // (a rank-0 memref), which the compiler keeps in a register only where
  // the function is inlined into the scalar's owner (PolyBench symm: 1.075
  // times the input's instructions as a call).
  bool distributed =
      !func->hasAttr(weft::dist::DistDialect::getAliasCheckAttrName()) &&
      weft::callsRuntime(func);
  SmallVector<StringRef, 2> specifiers{"static"};
  if (distributed)
    specifiers.push_back("WEFT_RT_REGION");
  else if (func->hasAttr(weft::dist::DistDialect::getSequentialAttrName()) &&
           llvm::none_of(func.getArgumentTypes(), [](Type t) {
             auto memref = dyn_cast<MemRefType>(t);
             return memref && memref.getRank() == 0;
           }))
    specifiers.push_back("WEFT_RT_AS_WRITTEN");
  cfunc.setSpecifiersAttr(b.getStrArrayAttr(specifiers));
  // Set by the pass that made the function (a CUDA kernel's __global__).
  if (auto own = func->getAttrOfType<ArrayAttr>(
          weft::WeftDialect::getCSpecifiersAttrName()))
    cfunc.setSpecifiersAttr(own);
  Block *entry = new Block();
  cfunc.getBody().push_back(entry);
  for (auto [i, t] : llvm::zip(order, argTypes))
    map.map(func.getArgument(i),
            entry->addArgument(t, func.getArgument(i).getLoc()));
  b.setInsertionPointToStart(entry);
  if (func.getBody().getBlocks().size() != 1)
    return func.emitOpError("expected a single-block body");
  if (failed(lowerBlock(func.getBody().front())))
    return failure();
  // The messages of a distributed form cover every size the model allows,
  // some of which the program's own arrays could not hold (a case that
  // exists only when n >= 59, for 29 x 29 arrays); gcc's range analysis
  // sees the arrays' static extents and warns about such dead paths.
  if (distributed) {
    // After the comments that open the function.
    Operation *first = &entry->front();
    while (auto text = dyn_cast<emitc::VerbatimOp>(first)) {
      if (!text.getValue().starts_with("//"))
        break;
      first = first->getNextNode();
    }
    b.setInsertionPoint(first);
    b.create<emitc::VerbatimOp>(
        func.getLoc(), "#pragma GCC diagnostic push\n#pragma GCC diagnostic "
                       "ignored \"-Warray-bounds\"");
    b.setInsertionPoint(entry->getTerminator());
    b.create<emitc::VerbatimOp>(func.getLoc(), "#pragma GCC diagnostic pop");
  }
  return cfunc;
}

LogicalResult FunctionLowering::lowerBlock(Block &block) {
  for (Operation &op : block.getOperations())
    if (failed(lowerOp(&op)))
      return failure();
  return success();
}

/// The C library function (double spelling) that computes `op`.
static std::optional<StringRef> libmName(Operation *op) {
  return TypeSwitch<Operation *, std::optional<StringRef>>(op)
      .Case<math::SqrtOp>([](auto) { return "sqrt"; })
      .Case<math::CbrtOp>([](auto) { return "cbrt"; })
      .Case<math::ExpOp>([](auto) { return "exp"; })
      .Case<math::Exp2Op>([](auto) { return "exp2"; })
      .Case<math::ExpM1Op>([](auto) { return "expm1"; })
      .Case<math::LogOp>([](auto) { return "log"; })
      .Case<math::Log2Op>([](auto) { return "log2"; })
      .Case<math::Log10Op>([](auto) { return "log10"; })
      .Case<math::Log1pOp>([](auto) { return "log1p"; })
      .Case<math::AbsFOp>([](auto) { return "fabs"; })
      .Case<math::SinOp>([](auto) { return "sin"; })
      .Case<math::CosOp>([](auto) { return "cos"; })
      .Case<math::TanOp>([](auto) { return "tan"; })
      .Case<math::AsinOp>([](auto) { return "asin"; })
      .Case<math::AcosOp>([](auto) { return "acos"; })
      .Case<math::AtanOp>([](auto) { return "atan"; })
      .Case<math::SinhOp>([](auto) { return "sinh"; })
      .Case<math::CoshOp>([](auto) { return "cosh"; })
      .Case<math::TanhOp>([](auto) { return "tanh"; })
      .Case<math::AsinhOp>([](auto) { return "asinh"; })
      .Case<math::AcoshOp>([](auto) { return "acosh"; })
      .Case<math::AtanhOp>([](auto) { return "atanh"; })
      .Case<math::FloorOp>([](auto) { return "floor"; })
      .Case<math::CeilOp>([](auto) { return "ceil"; })
      .Case<math::RoundOp>([](auto) { return "round"; })
      .Case<math::TruncOp>([](auto) { return "trunc"; })
      .Case<math::ErfOp>([](auto) { return "erf"; })
      .Case<math::PowFOp>([](auto) { return "pow"; })
      .Case<math::Atan2Op>([](auto) { return "atan2"; })
      .Case<math::CopySignOp>([](auto) { return "copysign"; })
      .Case<math::FmaOp>([](auto) { return "fma"; })
      .Case<arith::RemFOp>([](auto) { return "fmod"; })
      .Case<arith::MaxNumFOp>([](auto) { return "fmax"; })
      .Case<arith::MinNumFOp>([](auto) { return "fmin"; })
      .Case<math::AbsIOp>([](math::AbsIOp abs) {
        return abs.getType().getIntOrFloatBitWidth() > 32 ? "labs" : "abs";
      })
      .Default([](Operation *) { return std::nullopt; });
}

LogicalResult FunctionLowering::lowerOp(Operation *op) {
  // Ops already in EmitC (dist-materialize's comments, CUDA's builtins and
  // runtime calls) stay, on the lowered operands and types.
  if (isa<emitc::EmitCDialect>(op->getDialect())) {
    Operation *copy = b.clone(*op, map);
    for (OpResult r : copy->getResults())
      r.setType(convertType(r.getType()));
    return success();
  }
  return TypeSwitch<Operation *, LogicalResult>(op)
      .Case<arith::ConstantOp>([&](auto c) { return lowerConstant(c); })
      .Case<arith::AddIOp>(
          [&](auto) { return lowerIntBinary<emitc::AddOp>(op); })
      .Case<arith::SubIOp>(
          [&](auto) { return lowerIntBinary<emitc::SubOp>(op); })
      .Case<arith::MulIOp>(
          [&](auto) { return lowerIntBinary<emitc::MulOp>(op); })
      .Case<arith::AddFOp>([&](auto) { return lowerBinary<emitc::AddOp>(op); })
      .Case<arith::SubFOp>([&](auto) { return lowerBinary<emitc::SubOp>(op); })
      .Case<arith::MulFOp>([&](auto) { return lowerBinary<emitc::MulOp>(op); })
      .Case<arith::DivSIOp, arith::DivFOp>(
          [&](auto) { return lowerBinary<emitc::DivOp>(op); })
      .Case<arith::RemSIOp>([&](auto) { return lowerBinary<emitc::RemOp>(op); })
      .Case<arith::DivUIOp>(
          [&](auto) { return lowerUnsignedBinary<emitc::DivOp>(op); })
      .Case<arith::RemUIOp>(
          [&](auto) { return lowerUnsignedBinary<emitc::RemOp>(op); })
      .Case<arith::ShRUIOp>([&](auto) {
        return lowerUnsignedBinary<emitc::BitwiseRightShiftOp>(op);
      })
      .Case<arith::AndIOp>(
          [&](auto) { return lowerBinary<emitc::BitwiseAndOp>(op); })
      .Case<arith::OrIOp>(
          [&](auto) { return lowerBinary<emitc::BitwiseOrOp>(op); })
      .Case<arith::XOrIOp>(
          [&](auto) { return lowerBinary<emitc::BitwiseXorOp>(op); })
      .Case<arith::ShLIOp>(
          [&](auto) { return lowerIntBinary<emitc::BitwiseLeftShiftOp>(op); })
      .Case<arith::ShRSIOp>(
          [&](auto) { return lowerBinary<emitc::BitwiseRightShiftOp>(op); })
      .Case<arith::NegFOp>([&](auto neg) {
        map.map(neg.getResult(),
                b.create<emitc::UnaryMinusOp>(neg.getLoc(), neg.getType(),
                                              map.lookup(neg.getOperand())));
        return success();
      })
      .Case<arith::SelectOp>([&](auto sel) {
        map.map(sel.getResult(),
                b.create<emitc::ConditionalOp>(
                    sel.getLoc(), convertType(sel.getType()),
                    map.lookup(sel.getCondition()),
                    map.lookup(sel.getTrueValue()),
                    map.lookup(sel.getFalseValue())));
        return success();
      })
      .Case<arith::ExtSIOp, arith::TruncIOp, arith::SIToFPOp, arith::FPToSIOp,
            arith::ExtFOp, arith::TruncFOp, arith::IndexCastOp>(
          [&](auto) { return lowerCast(op); })
      .Case<arith::ExtUIOp, arith::UIToFPOp, arith::FPToUIOp,
            arith::IndexCastUIOp>([&](auto) { return lowerUnsignedCast(op); })
      .Case<arith::CmpIOp, arith::CmpFOp>(
          [&](auto) { return lowerCompare(op); })
      .Case<arith::MinSIOp>(
          [&](auto) { return lowerMinMax(op, emitc::CmpPredicate::lt); })
      .Case<arith::MaxSIOp>(
          [&](auto) { return lowerMinMax(op, emitc::CmpPredicate::gt); })
      .Case<arith::FloorDivSIOp>(
          [&](auto) { return lowerFloorCeilDiv(op, /*floor=*/true); })
      .Case<arith::CeilDivSIOp>(
          [&](auto) { return lowerFloorCeilDiv(op, /*floor=*/false); })
      .Case<memref::LoadOp>([&](auto load) { return lowerLoad(load); })
      .Case<memref::StoreOp>([&](auto store) { return lowerStore(store); })
      .Case<memref::AtomicRMWOp>(
          [&](auto atomic) { return lowerAtomic(atomic); })
      .Case<memref::AllocaOp>([&](auto alloca) { return lowerAlloca(alloca); })
      .Case<memref::AllocOp>([&](auto alloc) { return lowerAlloc(alloc); })
      .Case<memref::DeallocOp>([&](auto dealloc) {
        callRuntime(dealloc.getLoc(), "weft_rt_free", Type(),
                    {map.lookup(dealloc.getMemref())});
        return success();
      })
      .Case<memref::CollapseShapeOp>([&](auto collapse) {
        map.map(collapse.getResult(), map.lookup(collapse.getSrc()));
        return success();
      })
      .Case<scf::ForOp>([&](auto loop) { return lowerFor(loop); })
      .Case<UnrealizedConversionCastOp>([&](auto cast) -> LogicalResult {
        // A memref handed to an EmitC op as its C pointer, or back
        // (convert-gpu-to-emitc), and convert-dist-to-emitc's values: both
        // sides are the same C value.
        if (cast.getNumOperands() != 1 || cast.getNumResults() != 1)
          return cast.emitOpError("expected a 1:1 cast");
        Value from = cast.getOperand(0);
        // A scalar declared in the region is a C variable: its pointer is
        // its address (a device copy of it).
        if (isa<MemRefType>(from.getType()) && isScalarLocal(from) &&
            !isa<MemRefType>(cast.getResult(0).getType())) {
          Value var = map.lookup(from);
          map.map(cast.getResult(0),
                  b.create<emitc::ApplyOp>(
                      cast.getLoc(), emitc::PointerType::get(var.getType()),
                      "&", var));
          return success();
        }
        map.map(cast.getResult(0), map.lookup(from));
        return success();
      })
      .Case<func::CallOp>([&](auto call) -> LogicalResult {
        // Another region function of the module, defined before this one,
        // in its C parameter order.
        SmallVector<Value> operands;
        auto order = orders.find(call.getCallee());
        if (order == orders.end() ||
            order->second.size() != call.getNumOperands())
          return call.emitOpError("calls no region function of the module");
        for (unsigned i : order->second)
          operands.push_back(map.lookup(call.getOperand(i)));
        if (call.getNumResults() != 0)
          return call.emitOpError("region functions return no values");
        b.create<emitc::CallOpaqueOp>(call.getLoc(), TypeRange{},
                                      call.getCallee(), operands);
        return success();
      })
      .Case<scf::IfOp>([&](auto ifOp) { return lowerIf(ifOp); })
      .Case<scf::WhileOp>([&](auto loop) { return lowerWhile(loop); })
      .Case<func::ReturnOp>([&](auto ret) {
        b.create<emitc::ReturnOp>(ret.getLoc(), Value());
        return success();
      })
      .Default([&](Operation *other) -> LogicalResult {
        // Already C (dist-materialize's comments, the runtime calls of
        // convert-dist-to-emitc): kept, on the mapped operands.
        if (isa<emitc::EmitCDialect>(other->getDialect()) &&
            other->getNumRegions() == 0) {
          b.clone(*other, map);
          return success();
        }
        if (std::optional<StringRef> name = libmName(other))
          return lowerLibmCall(other, *name);
        return other->emitOpError("cannot be lowered to C");
      });
}

LogicalResult FunctionLowering::lowerConstant(arith::ConstantOp op) {
  Attribute value = op.getValue();
  Type t = convertType(op.getType());
  if (auto i = dyn_cast<IntegerAttr>(value); i && op.getType().isIndex())
    value = b.getIntegerAttr(t, i.getInt());
  if (!isa<IntegerAttr, FloatAttr>(value))
    return op.emitOpError("only scalar constants can be lowered to C");
  // INT64_MIN has no literal in C: 9223372036854775808 does not fit a long.
  if (auto i = dyn_cast<IntegerAttr>(value);
      i && t.isInteger(64) && i.getValue().isMinSignedValue()) {
    map.map(op.getResult(),
            b.create<emitc::ConstantOp>(
                op.getLoc(), t,
                emitc::OpaqueAttr::get(b.getContext(),
                                       "(-9223372036854775807L - 1)")));
    return success();
  }
  // The emitter spells infinities and NaNs with <math.h> macros; use the
  // builtins instead, which need no header.
  if (auto f = dyn_cast<FloatAttr>(value); f && !f.getValue().isFinite()) {
    std::string spelling = f.getValue().isNaN() ? "__builtin_nan" : "__builtin_inf";
    if (t.isF32())
      spelling += "f";
    spelling += f.getValue().isNaN() ? "(\"\")" : "()";
    if (f.getValue().isNegative())
      spelling = "(-" + spelling + ")";
    map.map(op.getResult(),
            b.create<emitc::ConstantOp>(
                op.getLoc(), t, emitc::OpaqueAttr::get(b.getContext(), spelling)));
    return success();
  }
  map.map(op.getResult(),
          b.create<emitc::ConstantOp>(op.getLoc(), t, cast<TypedAttr>(value)));
  return success();
}

/// `v` cast to the unsigned integer type of its width.
Value FunctionLowering::asUnsigned(Location loc, Value v) {
  auto type = cast<IntegerType>(v.getType());
  return b.create<emitc::CastOp>(
      loc, IntegerType::get(b.getContext(), type.getWidth(),
                            IntegerType::Unsigned),
      v);
}

/// Zero extension, unsigned-to-float and float-to-unsigned conversions: C
/// converts by the unsigned type's value.
LogicalResult FunctionLowering::lowerUnsignedCast(Operation *op) {
  Location loc = op->getLoc();
  Type from = convertType(op->getOperand(0).getType());
  Type to = convertType(op->getResult(0).getType());
  Value v = map.lookup(op->getOperand(0));
  if (from.isInteger(1)) {
    // bool converts to 0 or 1 whatever the target.
    map.map(op->getResult(0), b.create<emitc::CastOp>(loc, to, v));
    return success();
  }
  if (isa<IntegerType>(from)) {
    v = asUnsigned(loc, v);
  } else {
    auto width = cast<IntegerType>(to).getWidth();
    v = b.create<emitc::CastOp>(
        loc, IntegerType::get(b.getContext(), width, IntegerType::Unsigned),
        v);
  }
  map.map(op->getResult(0), b.create<emitc::CastOp>(loc, to, v));
  return success();
}

LogicalResult FunctionLowering::lowerCast(Operation *op) {
  Type from = op->getOperand(0).getType();
  Type to = convertType(op->getResult(0).getType());
  Value v = map.lookup(op->getOperand(0));
  if (convertType(from) == to) {
    map.map(op->getResult(0), v);
    return success();
  }
  map.map(op->getResult(0), b.create<emitc::CastOp>(op->getLoc(), to, v));
  return success();
}

static emitc::CmpPredicate toEmitC(arith::CmpIPredicate p) {
  switch (p) {
  case arith::CmpIPredicate::eq: return emitc::CmpPredicate::eq;
  case arith::CmpIPredicate::ne: return emitc::CmpPredicate::ne;
  case arith::CmpIPredicate::slt: return emitc::CmpPredicate::lt;
  case arith::CmpIPredicate::sle: return emitc::CmpPredicate::le;
  case arith::CmpIPredicate::sgt: return emitc::CmpPredicate::gt;
  case arith::CmpIPredicate::sge: return emitc::CmpPredicate::ge;
  default: return emitc::CmpPredicate::three_way;
  }
}

LogicalResult FunctionLowering::lowerCompare(Operation *op) {
  emitc::CmpPredicate pred;
  Value x = map.lookup(op->getOperand(0)), y = map.lookup(op->getOperand(1));
  if (auto cmp = dyn_cast<arith::CmpIOp>(op)) {
    pred = toEmitC(cmp.getPredicate());
    if (pred == emitc::CmpPredicate::three_way) {
      // An unsigned predicate: compare the operands as unsigned values.
      switch (cmp.getPredicate()) {
      case arith::CmpIPredicate::ult: pred = emitc::CmpPredicate::lt; break;
      case arith::CmpIPredicate::ule: pred = emitc::CmpPredicate::le; break;
      case arith::CmpIPredicate::ugt: pred = emitc::CmpPredicate::gt; break;
      default: pred = emitc::CmpPredicate::ge; break;
      }
      x = asUnsigned(op->getLoc(), x);
      y = asUnsigned(op->getLoc(), y);
    }
  } else {
    // C's relational operators are the ordered predicates, except `!=`,
    // which is true on NaN (unordered-or-not-equal).
    switch (cast<arith::CmpFOp>(op).getPredicate()) {
    case arith::CmpFPredicate::OEQ: pred = emitc::CmpPredicate::eq; break;
    case arith::CmpFPredicate::UNE: pred = emitc::CmpPredicate::ne; break;
    case arith::CmpFPredicate::OLT: pred = emitc::CmpPredicate::lt; break;
    case arith::CmpFPredicate::OLE: pred = emitc::CmpPredicate::le; break;
    case arith::CmpFPredicate::OGT: pred = emitc::CmpPredicate::gt; break;
    case arith::CmpFPredicate::OGE: pred = emitc::CmpPredicate::ge; break;
    default:
      return op->emitOpError("predicate has no C operator");
    }
  }
  map.map(op->getResult(0),
          b.create<emitc::CmpOp>(op->getLoc(), b.getI1Type(), pred, x, y));
  return success();
}

LogicalResult FunctionLowering::lowerMinMax(Operation *op,
                                            emitc::CmpPredicate pred) {
  Location loc = op->getLoc();
  Value x = map.lookup(op->getOperand(0)), y = map.lookup(op->getOperand(1));
  // min(x, x) would print a self-comparison, which C compilers warn about.
  if (x == y) {
    map.map(op->getResult(0), x);
    return success();
  }
  Value c = b.create<emitc::CmpOp>(loc, b.getI1Type(), pred, x, y);
  map.map(op->getResult(0),
          b.create<emitc::ConditionalOp>(loc, x.getType(), c, x, y));
  return success();
}

/// floor/ceil division from C's truncating division:
/// q = a / b; if (a % b != 0 && (a % b < 0) != (b < 0)) q -= 1  (floor)
///                                           == (b < 0)) q += 1  (ceil)
LogicalResult FunctionLowering::lowerFloorCeilDiv(Operation *op, bool floor) {
  Location loc = op->getLoc();
  Value a = map.lookup(op->getOperand(0)), d = map.lookup(op->getOperand(1));
  Type t = a.getType();
  Type i1 = b.getI1Type();
  Value zero = b.create<emitc::ConstantOp>(loc, t, b.getIntegerAttr(t, 0));
  Value one = b.create<emitc::ConstantOp>(loc, t, b.getIntegerAttr(t, 1));
  Value q = b.create<emitc::DivOp>(loc, t, a, d);
  Value r = b.create<emitc::RemOp>(loc, t, a, d);
  Value inexact =
      b.create<emitc::CmpOp>(loc, i1, emitc::CmpPredicate::ne, r, zero);
  Value rNeg = b.create<emitc::CmpOp>(loc, i1, emitc::CmpPredicate::lt, r, zero);
  Value dNeg = b.create<emitc::CmpOp>(loc, i1, emitc::CmpPredicate::lt, d, zero);
  Value signs = b.create<emitc::CmpOp>(
      loc, i1, floor ? emitc::CmpPredicate::ne : emitc::CmpPredicate::eq, rNeg,
      dNeg);
  Value adjust = b.create<emitc::LogicalAndOp>(loc, i1, inexact, signs);
  Value moved = floor ? Value(b.create<emitc::SubOp>(loc, t, q, one))
                      : Value(b.create<emitc::AddOp>(loc, t, q, one));
  map.map(op->getResult(0),
          b.create<emitc::ConditionalOp>(loc, t, adjust, moved, q));
  return success();
}

LogicalResult FunctionLowering::lowerLibmCall(Operation *op, StringRef name) {
  Type t = op->getResult(0).getType();
  std::string callee = name.str();
  if (t.isF32())
    callee += "f";
  else if (!t.isF64() && !(isa<IntegerType>(t) && isa<math::AbsIOp>(op)))
    return op->emitOpError("has no libm function for type ") << t;
  SmallVector<Value> args;
  for (Value v : op->getOperands())
    args.push_back(map.lookup(v));
  auto call = b.create<emitc::CallOpaqueOp>(op->getLoc(), TypeRange{t}, callee,
                                            args);
  map.map(op->getResult(0), call.getResult(0));
  return success();
}

SmallVector<Value> FunctionLowering::elementIndices(Location loc,
                                                   ValueRange indices) {
  SmallVector<Value> mapped;
  for (Value index : indices)
    mapped.push_back(map.lookup(index));
  if (mapped.empty()) // a scalar argument the region writes: `x[0]`
    mapped.push_back(b.create<emitc::ConstantOp>(loc, b.getI64Type(),
                                                 b.getI64IntegerAttr(0)));
  return mapped;
}

Value FunctionLowering::subscript(Location loc, Value memref,
                                  ValueRange indices) {
  Value base = map.lookup(memref);
  if (isScalarLocal(memref))
    return base;
  SmallVector<Value> mapped = elementIndices(loc, indices);
  if (auto array = dyn_cast<TypedValue<emitc::ArrayType>>(base))
    return b.create<emitc::SubscriptOp>(loc, array, mapped);
  if (isa<emitc::OpaqueType>(base.getType())) // restrict, or rows
    return b.create<emitc::SubscriptOp>(
        loc, convertType(cast<MemRefType>(memref.getType()).getElementType()),
        base, mapped);
  return b.create<emitc::SubscriptOp>(
      loc, cast<TypedValue<emitc::PointerType>>(base), mapped.front());
}

/// Whether C subscripts `memref` with all its indices: an argument (a
/// pointer to its rows) or a local array; heap storage is linearised first.
static bool subscriptedWhole(Value memref, bool flatArguments) {
  return (!flatArguments && isa<BlockArgument>(memref)) ||
         memref.getDefiningOp<memref::AllocaOp>();
}

LogicalResult FunctionLowering::lowerLoad(memref::LoadOp op) {
  if (op.getIndices().size() > 1 &&
      !subscriptedWhole(op.getMemRef(), flatArguments))
    return op.emitOpError("run linearize-memref-accesses first");
  Value element = subscript(op.getLoc(), op.getMemRef(), op.getIndices());
  Value var = newVariable(op.getLoc(), convertType(op.getType()));
  b.create<emitc::AssignOp>(op.getLoc(), var, element);
  map.map(op.getResult(), var);
  return success();
}

LogicalResult FunctionLowering::lowerStore(memref::StoreOp op) {
  if (op.getIndices().size() > 1 &&
      !subscriptedWhole(op.getMemRef(), flatArguments))
    return op.emitOpError("run linearize-memref-accesses first");
  Value element = subscript(op.getLoc(), op.getMemRef(), op.getIndices());
  b.create<emitc::AssignOp>(op.getLoc(), element,
                            map.lookup(op.getValueToStore()));
  return success();
}

/// A reduction's atomic update of an element of a kernel's array (a
/// pointer): `weft_cuda_atomic_<kind>(p, index, value)`
/// (runtime/cuda/hpc/weft_cuda.h).
LogicalResult FunctionLowering::lowerAtomic(memref::AtomicRMWOp op) {
  using K = arith::AtomicRMWKind;
  StringRef kind;
  switch (op.getKind()) {
  case K::addf:
  case K::addi:
    kind = "add";
    break;
  case K::mulf:
  case K::muli:
    kind = "mul";
    break;
  case K::maxnumf:
  case K::maxs:
    kind = "max";
    break;
  case K::minnumf:
  case K::mins:
    kind = "min";
    break;
  default:
    return op.emitOpError("has an update C cannot express");
  }
  Value base = map.lookup(op.getMemref());
  auto opaque = base ? dyn_cast<emitc::OpaqueType>(base.getType())
                     : emitc::OpaqueType();
  if (!base || !(isa<emitc::PointerType>(base.getType()) || opaque) ||
      (opaque && opaque.getValue().contains("(*")) ||
      op.getIndices().size() > 1)
    return op.emitOpError("updates an element that is not reached through a "
                          "pointer (run linearize-memref-accesses with "
                          "flat-arguments first)");
  Location loc = op.getLoc();
  Value index = elementIndices(loc, op.getIndices()).front();
  callRuntime(loc, ("weft_cuda_atomic_" + kind).str(), Type(),
              {base, index, map.lookup(op.getValue())});
  return success();
}

LogicalResult FunctionLowering::lowerAlloca(memref::AllocaOp op) {
  MemRefType type = op.getType();
  if (!type.hasStaticShape())
    return op.emitOpError("only statically shaped allocas can be lowered");
  Type element = convertType(type.getElementType());
  if (type.getRank() == 0) {
    map.map(op.getResult(), newVariable(op.getLoc(), element));
    return success();
  }
  // C has no arrays of no elements.
  SmallVector<int64_t> shape;
  for (int64_t d : type.getShape())
    shape.push_back(std::max<int64_t>(d, 1));
  auto arrayType = emitc::ArrayType::get(shape, element);
  auto specifiers =
      op->getAttrOfType<ArrayAttr>(weft::WeftDialect::getCSpecifiersAttrName());
  if (!specifiers) {
    map.map(op.getResult(), newVariable(op.getLoc(), arrayType));
    return success();
  }
  // An array with specifiers (a kernel's `__shared__` tile): emitc.variable
  // prints none in MLIR 19, so the declaration is verbatim and the array a
  // literal of its name.
  std::string cType = cScalarName(element);
  if (cType.empty())
    return op.emitOpError("declares an array of ")
           << element << " with specifiers, which C cannot";
  std::string name = weft::sourceName(op.getLoc()).str();
  if (name.empty())
    name = "weft_array" + std::to_string(specifiedArrays++);
  std::string declaration;
  for (Attribute s : specifiers)
    declaration += cast<StringAttr>(s).getValue().str() + " ";
  declaration += cType + " " + name;
  for (int64_t d : shape)
    declaration += "[" + std::to_string(d) + "]";
  b.create<emitc::VerbatimOp>(op.getLoc(), declaration + ";");
  map.map(op.getResult(),
          b.create<emitc::LiteralOp>(op.getLoc(), arrayType, name));
  return success();
}

/// Heap storage (rank-local parts of arrays) from the MPI runtime header,
/// which stops the program with a message when memory runs out.
LogicalResult FunctionLowering::lowerAlloc(memref::AllocOp op) {
  MemRefType type = op.getType();
  Location loc = op.getLoc();
  Type i64 = b.getI64Type();
  Value count = b.create<emitc::ConstantOp>(loc, i64, b.getI64IntegerAttr(1));
  unsigned dynamic = 0;
  for (int64_t d = 0; d < type.getRank(); ++d) {
    Value extent = type.isDynamicDim(d)
                       ? map.lookup(op.getDynamicSizes()[dynamic++])
                       : b.create<emitc::ConstantOp>(
                             loc, i64, b.getI64IntegerAttr(type.getDimSize(d)));
    count = b.create<emitc::MulOp>(loc, i64, count, extent);
  }
  Value size =
      b.create<emitc::ConstantOp>(loc, i64,
                                  b.getI64IntegerAttr(std::max<int64_t>(
                                      type.getElementTypeBitWidth() / 8, 1)));
  map.map(op.getResult(),
          callRuntime(loc, "weft_rt_alloc", convertType(type), {count, size}));
  return success();
}

Value FunctionLowering::callRuntime(Location loc, StringRef name, Type result,
                                   ValueRange args) {
  auto call = b.create<emitc::CallOpaqueOp>(
      loc, result ? TypeRange{result} : TypeRange{}, name, args);
  return result ? call.getResult(0) : Value();
}

LogicalResult FunctionLowering::lowerFor(scf::ForOp op) {
  if (op.getNumResults() != 0)
    return op.emitOpError("loops carrying values cannot be lowered to C yet");
  // A macro of runtime/cuda/hpc/weft_cuda.h: `#pragma unroll` for nvcc,
  // nothing in the emulation (GCC warns about the pragma under -Wall).
  if (op->hasAttr(weft::WeftDialect::getUnrollAttrName()))
    b.create<emitc::VerbatimOp>(op.getLoc(), "WEFT_CUDA_UNROLL");
  auto loop = b.create<emitc::ForOp>(op.getLoc(),
                                     map.lookup(op.getLowerBound()),
                                     map.lookup(op.getUpperBound()),
                                     map.lookup(op.getStep()));
  loop.getInductionVar().setLoc(op.getInductionVar().getLoc()); // its name
  if (Attribute narrow = op->getAttr(weft::WeftDialect::getCIntAttrName()))
    loop->setAttr(weft::WeftDialect::getCIntAttrName(), narrow);
  map.map(op.getInductionVar(), loop.getInductionVar());
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPoint(ensureYield(b, op.getLoc(), *loop.getBody()));
  for (Operation &inner : op.getBody()->without_terminator())
    if (failed(lowerOp(&inner)))
      return failure();
  return success();
}

LogicalResult FunctionLowering::lowerIf(scf::IfOp op) {
  // Results live in variables declared before the `if`.
  SmallVector<Value> results;
  for (Type t : op.getResultTypes())
    results.push_back(newVariable(op.getLoc(), convertType(t)));
  bool hasElse = !op.getElseRegion().empty();
  auto ifOp = b.create<emitc::IfOp>(op.getLoc(), map.lookup(op.getCondition()),
                                    /*addThenBlock=*/true,
                                    /*addElseBlock=*/hasElse);
  auto lowerBranch = [&](Block &src, Block &dst) -> LogicalResult {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPoint(ensureYield(b, op.getLoc(), dst));
    for (Operation &inner : src.without_terminator())
      if (failed(lowerOp(&inner)))
        return failure();
    auto yield = cast<scf::YieldOp>(src.getTerminator());
    for (auto [var, v] : llvm::zip(results, yield.getOperands()))
      b.create<emitc::AssignOp>(yield.getLoc(), var, map.lookup(v));
    return success();
  };
  if (failed(lowerBranch(*op.thenBlock(), ifOp.getThenRegion().front())))
    return failure();
  if (hasElse &&
      failed(lowerBranch(*op.elseBlock(), ifOp.getElseRegion().front())))
    return failure();
  for (auto [r, var] : llvm::zip(op.getResults(), results))
    map.map(r, var);
  return success();
}

/// EmitC 19 has no while loop: a `for` whose step is 0 runs until the
/// `break` that the condition guards (weft's C printer writes `for (;;)`):
///   for (v = 0; v < 1; v += 0) { <before>; if (!c) { break; } <after> }
LogicalResult FunctionLowering::lowerWhile(scf::WhileOp op) {
  if (op.getNumResults() != 0 || !op.getInits().empty())
    return op.emitOpError("loops carrying values cannot be lowered to C yet");
  Location loc = op.getLoc();
  Type i64 = b.getI64Type();
  auto cst = [&](int64_t v) -> Value {
    return b.create<emitc::ConstantOp>(loc, i64, b.getI64IntegerAttr(v));
  };
  auto loop = b.create<emitc::ForOp>(loc, cst(0), cst(1), cst(0));
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPoint(ensureYield(b, loc, *loop.getBody()));
  for (Operation &inner : op.getBeforeBody()->without_terminator())
    if (failed(lowerOp(&inner)))
      return failure();
  Value cond = map.lookup(op.getConditionOp().getCondition());
  Value done = b.create<emitc::LogicalNotOp>(loc, b.getI1Type(), cond);
  auto exit = b.create<emitc::IfOp>(loc, done, /*addThenBlock=*/true,
                                    /*addElseBlock=*/false);
  {
    OpBuilder::InsertionGuard inner(b);
    b.setInsertionPoint(ensureYield(b, loc, exit.getThenRegion().front()));
    b.create<emitc::VerbatimOp>(loc, "break;");
  }
  for (Operation &inner : op.getAfterBody()->without_terminator())
    if (failed(lowerOp(&inner)))
      return failure();
  return success();
}

//===----------------------------------------------------------------------===//
// Convert loops to EmitC pass
//===----------------------------------------------------------------------===//

namespace {
struct ConvertLoopsToEmitC
    : weft::impl::ConvertLoopsToEmitCBase<ConvertLoopsToEmitC> {
  using Base::Base;
  void runOnOperation() override {
    SmallVector<func::FuncOp> funcs(getOperation().getOps<func::FuncOp>());
    ParameterOrders orders;
    for (func::FuncOp func : funcs)
      orders[func.getName()] = parameterOrder(func, flatArguments);
    for (func::FuncOp func : funcs) {
      FunctionLowering lowering(&getContext(), orders, flatArguments);
      FailureOr<emitc::FuncOp> cfunc = lowering.lower(func);
      if (failed(cfunc))
        return signalPassFailure();
      func.erase();
    }
  }
};
} // end anonymous namespace
