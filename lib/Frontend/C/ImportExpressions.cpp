//===- ImportExpressions.cpp - Import C expressions -------------*- C++ -*-===//
//
// Lvalues and expressions of a region, with C's conversions, short-circuit
// operators and the math library calls that have MLIR ops.
//
//===----------------------------------------------------------------------===//
#include "RegionImporter.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

using namespace weft;
using namespace weft::importer;

//===----------------------------------------------------------------------===//
// Lvalues
//===----------------------------------------------------------------------===//

std::optional<LValue> RegionImporter::emitLValue(const cl::Expr *e) {
  e = e->IgnoreParens();
  LValue lv;
  if (const auto *ref = dyn_cast<cl::DeclRefExpr>(e)) {
    const auto *var = dyn_cast<cl::VarDecl>(ref->getDecl());
    if (!var) {
      error(e->getBeginLoc(), "unsupported reference");
      return std::nullopt;
    }
    VarInfo &info = vars[var];
    if (info.kind != VarKind::ScalarRef && info.kind != VarKind::Local) {
      error(e->getBeginLoc(), "'" + var->getName() +
                                  "' cannot be used as an lvalue here");
      return std::nullopt;
    }
    if (!info.value) {
      error(e->getBeginLoc(), "'" + var->getName() + "' is used before its "
                                                     "declaration");
      return std::nullopt;
    }
    // A scalar is a rank-0 memref: its accesses are affine (with an empty
    // map), so they do not take a region out of the polyhedral model.
    lv.memref = info.value;
    lv.affine = true;
    lv.map = mlir::AffineMap::get(mctx);
    return lv;
  }
  if (!isa<cl::ArraySubscriptExpr>(e)) {
    error(e->getBeginLoc(), describe(e) + " is not supported as an "
                                           "assignment target in a scop "
                                           "region; use array subscripts");
    return std::nullopt;
  }
  llvm::SmallVector<const cl::Expr *> indices;
  const cl::Expr *base = e;
  while (const auto *sub = dyn_cast<cl::ArraySubscriptExpr>(base)) {
    const cl::Expr *arr = sub->getBase(), *idx = sub->getIdx();
    if (!arr->getType()->isPointerType()) // `i[A]`
      std::swap(arr, idx);
    indices.push_back(idx);
    base = arr->IgnoreParenImpCasts();
  }
  std::reverse(indices.begin(), indices.end());
  const auto *ref = dyn_cast<cl::DeclRefExpr>(base);
  const auto *var = ref ? dyn_cast<cl::VarDecl>(ref->getDecl()) : nullptr;
  if (!var || vars.lookup(var).kind != VarKind::Array || !vars[var].value) {
    error(base->getBeginLoc(),
          "subscripted value must be an array variable in a scop region");
    return std::nullopt;
  }
  lv.memref = vars[var].value;
  auto mt = llvm::cast<mlir::MemRefType>(lv.memref.getType());
  if ((int64_t)indices.size() != mt.getRank()) {
    error(e->getBeginLoc(), "array '" + var->getName() + "' has " +
                                llvm::Twine(mt.getRank()) +
                                " dimensions but is subscripted with " +
                                llvm::Twine(indices.size()));
    return std::nullopt;
  }
  AffineOperands ops;
  llvm::SmallVector<mlir::AffineExpr> exprs;
  for (const cl::Expr *idx : indices) {
    auto a = affineOf(idx, ops);
    if (!a)
      break;
    exprs.push_back(*a);
  }
  if (exprs.size() == indices.size()) {
    lv.affine = true;
    lv.map = mlir::AffineMap::get(ops.dims.size(), ops.symbols.size(), exprs,
                                  mctx);
    lv.operands = ops.all();
    mlir::affine::canonicalizeMapAndOperands(&lv.map, &lv.operands);
    return lv;
  }
  for (const cl::Expr *idx : indices) {
    Value v = emitIndex(idx);
    if (!v)
      return std::nullopt;
    lv.operands.push_back(v);
  }
  return lv;
}

Value RegionImporter::load(const LValue &lv, mlir::Location l) {
  if (lv.affine)
    return b.create<mlir::affine::AffineLoadOp>(l, lv.memref, lv.map,
                                                lv.operands);
  return b.create<mlir::memref::LoadOp>(l, lv.memref, lv.operands);
}

void RegionImporter::store(const LValue &lv, Value v, mlir::Location l) {
  if (lv.affine)
    b.create<mlir::affine::AffineStoreOp>(l, v, lv.memref, lv.map, lv.operands);
  else
    b.create<mlir::memref::StoreOp>(l, v, lv.memref, lv.operands);
}

//===----------------------------------------------------------------------===//
// Expressions
//===----------------------------------------------------------------------===//

Value RegionImporter::constantFor(cl::QualType type, double fp,
                                  int64_t integer, mlir::Location l) {
  mlir::Type t = scalarType(type, {});
  if (!t)
    return nullptr;
  if (auto ft = llvm::dyn_cast<mlir::FloatType>(t))
    return b.create<mlir::arith::ConstantOp>(l, ft, b.getFloatAttr(ft, fp));
  return b.create<mlir::arith::ConstantOp>(l, t, b.getIntegerAttr(t, integer));
}

Value RegionImporter::boolToInt(Value cond, cl::QualType type,
                                mlir::Location l) {
  mlir::Type t = scalarType(type, {});
  if (!t)
    return nullptr;
  if (t.isInteger(1))
    return cond;
  return b.create<mlir::arith::ExtUIOp>(l, t, cond);
}

/// Converts `v` from C type `from` to C type `to` as C does.
Value RegionImporter::convert(Value v, cl::QualType from, cl::QualType to,
                              mlir::Location l) {
  mlir::Type src = v.getType();
  mlir::Type dst = scalarType(to, {});
  if (!dst)
    return nullptr;
  if (src == dst)
    return v;
  bool srcFloat = llvm::isa<mlir::FloatType>(src);
  bool dstFloat = llvm::isa<mlir::FloatType>(dst);
  if (dst.isInteger(1)) {
    if (srcFloat)
      return b.create<mlir::arith::CmpFOp>(
          l, mlir::arith::CmpFPredicate::UNE, v,
          b.create<mlir::arith::ConstantOp>(l, src, b.getFloatAttr(src, 0)));
    return b.create<mlir::arith::CmpIOp>(
        l, mlir::arith::CmpIPredicate::ne, v,
        b.create<mlir::arith::ConstantOp>(l, src, b.getIntegerAttr(src, 0)));
  }
  if (srcFloat && dstFloat) {
    if (src.getIntOrFloatBitWidth() < dst.getIntOrFloatBitWidth())
      return b.create<mlir::arith::ExtFOp>(l, dst, v);
    return b.create<mlir::arith::TruncFOp>(l, dst, v);
  }
  if (srcFloat) {
    if (isUnsigned(to))
      return b.create<mlir::arith::FPToUIOp>(l, dst, v);
    return b.create<mlir::arith::FPToSIOp>(l, dst, v);
  }
  if (dstFloat) {
    if (src.isInteger(1) || isUnsigned(from))
      return b.create<mlir::arith::UIToFPOp>(l, dst, v);
    return b.create<mlir::arith::SIToFPOp>(l, dst, v);
  }
  unsigned sw = src.getIntOrFloatBitWidth(), dw = dst.getIntOrFloatBitWidth();
  if (sw < dw) {
    if (src.isInteger(1) || isUnsigned(from))
      return b.create<mlir::arith::ExtUIOp>(l, dst, v);
    return b.create<mlir::arith::ExtSIOp>(l, dst, v);
  }
  return b.create<mlir::arith::TruncIOp>(l, dst, v);
}

Value RegionImporter::emitIndex(const cl::Expr *e) {
  Value v = emitRValue(e);
  if (!v)
    return nullptr;
  if (!llvm::isa<mlir::IntegerType>(v.getType())) {
    error(e->getBeginLoc(), "expected an integer expression");
    return nullptr;
  }
  if (isUnsigned(e->getType()))
    return b.create<mlir::arith::IndexCastUIOp>(loc(e), b.getIndexType(), v);
  return b.create<mlir::arith::IndexCastOp>(loc(e), b.getIndexType(), v);
}

Value RegionImporter::emitRValue(const cl::Expr *e) {
  if (failed)
    return nullptr;
  mlir::Location l = loc(e);
  e = e->IgnoreParens();
  // Integer constant expressions (literals, enumerators, sizeof, macros).
  if (e->getType()->isIntegerType() && !e->HasSideEffects(ctx))
    if (std::optional<llvm::APSInt> c = e->getIntegerConstantExpr(ctx))
      return constantFor(e->getType(), 0, c->getExtValue(), l);
  if (const auto *fl = dyn_cast<cl::FloatingLiteral>(e)) {
    mlir::Type t = scalarType(e->getType(), e->getBeginLoc());
    if (!t)
      return nullptr;
    return b.create<mlir::arith::ConstantOp>(
        l, t, b.getFloatAttr(t, fl->getValue()));
  }
  if (const auto *cast = dyn_cast<cl::CastExpr>(e))
    return emitCast(cast);
  if (const auto *ref = dyn_cast<cl::DeclRefExpr>(e)) {
    const auto *var = dyn_cast<cl::VarDecl>(ref->getDecl());
    if (!var) {
      error(e->getBeginLoc(), "unsupported reference to '" +
                                  ref->getDecl()->getName() + "'");
      return nullptr;
    }
    if (const IterBinding *it = iterator(var))
      return b.create<mlir::arith::IndexCastOp>(
          l, scalarType(var->getType(), ref->getLocation()), it->index);
    VarInfo &info = vars[var];
    if (info.kind == VarKind::ScalarValue)
      return info.value;
    if (info.kind == VarKind::Iterator) {
      error(e->getBeginLoc(), "loop iterator '" + var->getName() +
                                  "' is used outside its loop");
      return nullptr;
    }
    std::optional<LValue> lv = emitLValue(e);
    return lv ? load(*lv, l) : nullptr;
  }
  if (const auto *bin = dyn_cast<cl::BinaryOperator>(e))
    return emitBinary(bin);
  if (const auto *un = dyn_cast<cl::UnaryOperator>(e))
    return emitUnary(un);
  if (const auto *c = dyn_cast<cl::ConditionalOperator>(e))
    return emitConditional(c);
  if (const auto *call = dyn_cast<cl::CallExpr>(e))
    return emitCall(call);
  if (isa<cl::ArraySubscriptExpr>(e)) {
    std::optional<LValue> lv = emitLValue(e);
    return lv ? load(*lv, l) : nullptr;
  }
  error(e->getBeginLoc(), describe(e) + " is not supported in a scop region");
  return nullptr;
}

Value RegionImporter::emitCast(const cl::CastExpr *e) {
  mlir::Location l = loc(e);
  const cl::Expr *sub = e->getSubExpr();
  switch (e->getCastKind()) {
  case cl::CK_LValueToRValue:
  case cl::CK_NoOp:
    return emitRValue(sub);
  case cl::CK_ToVoid:
    if (!emitRValue(sub))
      return nullptr;
    return b.create<mlir::arith::ConstantIntOp>(l, 0, 32); // discarded
  case cl::CK_IntegralCast:
  case cl::CK_IntegralToFloating:
  case cl::CK_FloatingToIntegral:
  case cl::CK_FloatingCast:
  case cl::CK_IntegralToBoolean:
  case cl::CK_FloatingToBoolean: {
    Value v = emitRValue(sub);
    if (!v)
      return nullptr;
    return convert(v, sub->getType(), e->getType(), l);
  }
  default:
    error(e->getBeginLoc(), llvm::Twine("cast '") + e->getCastKindName() +
                                "' is not supported in a scop region");
    return nullptr;
  }
}

Value RegionImporter::emitCompare(cl::BinaryOperatorKind op, Value lhs,
                                  Value rhs, bool isUnsigned,
                                  mlir::Location l) {
  if (llvm::isa<mlir::FloatType>(lhs.getType())) {
    using P = mlir::arith::CmpFPredicate;
    P p = op == cl::BO_LT   ? P::OLT
          : op == cl::BO_GT ? P::OGT
          : op == cl::BO_LE ? P::OLE
          : op == cl::BO_GE ? P::OGE
          : op == cl::BO_EQ ? P::OEQ
                            : P::UNE;
    return b.create<mlir::arith::CmpFOp>(l, p, lhs, rhs);
  }
  using P = mlir::arith::CmpIPredicate;
  P p = op == cl::BO_LT   ? (isUnsigned ? P::ult : P::slt)
        : op == cl::BO_GT ? (isUnsigned ? P::ugt : P::sgt)
        : op == cl::BO_LE ? (isUnsigned ? P::ule : P::sle)
        : op == cl::BO_GE ? (isUnsigned ? P::uge : P::sge)
        : op == cl::BO_EQ ? P::eq
                          : P::ne;
  return b.create<mlir::arith::CmpIOp>(l, p, lhs, rhs);
}

Value RegionImporter::emitArith(cl::BinaryOperatorKind op, Value x, Value y,
                                cl::QualType type, mlir::Location l) {
  if (cl::BinaryOperator::isCompoundAssignmentOp(op))
    op = cl::BinaryOperator::getOpForCompoundAssignment(op);
  if (llvm::isa<mlir::FloatType>(x.getType())) {
    switch (op) {
    case cl::BO_Add:
      return b.create<mlir::arith::AddFOp>(l, x, y);
    case cl::BO_Sub:
      return b.create<mlir::arith::SubFOp>(l, x, y);
    case cl::BO_Mul:
      return b.create<mlir::arith::MulFOp>(l, x, y);
    case cl::BO_Div:
      return b.create<mlir::arith::DivFOp>(l, x, y);
    default:
      break;
    }
  } else {
    // Signed overflow is undefined in C, unsigned arithmetic wraps: `nsw`
    // says which, and the C back end keeps wrapping operations unsigned.
    auto wrap = isUnsigned(type) ? mlir::arith::IntegerOverflowFlags::none
                                 : mlir::arith::IntegerOverflowFlags::nsw;
    switch (op) {
    case cl::BO_Add:
      return b.create<mlir::arith::AddIOp>(l, x, y, wrap);
    case cl::BO_Sub:
      return b.create<mlir::arith::SubIOp>(l, x, y, wrap);
    case cl::BO_Mul:
      return b.create<mlir::arith::MulIOp>(l, x, y, wrap);
    case cl::BO_Div:
      if (isUnsigned(type))
        return b.create<mlir::arith::DivUIOp>(l, x, y);
      return b.create<mlir::arith::DivSIOp>(l, x, y);
    case cl::BO_Rem:
      if (isUnsigned(type))
        return b.create<mlir::arith::RemUIOp>(l, x, y);
      return b.create<mlir::arith::RemSIOp>(l, x, y);
    case cl::BO_And:
      return b.create<mlir::arith::AndIOp>(l, x, y);
    case cl::BO_Or:
      return b.create<mlir::arith::OrIOp>(l, x, y);
    case cl::BO_Xor:
      return b.create<mlir::arith::XOrIOp>(l, x, y);
    case cl::BO_Shl:
      return b.create<mlir::arith::ShLIOp>(l, x, y, wrap);
    case cl::BO_Shr:
      if (isUnsigned(type))
        return b.create<mlir::arith::ShRUIOp>(l, x, y);
      return b.create<mlir::arith::ShRSIOp>(l, x, y);
    default:
      break;
    }
  }
  return nullptr;
}

Value RegionImporter::emitBinary(const cl::BinaryOperator *e) {
  mlir::Location l = loc(e);
  cl::BinaryOperatorKind op = e->getOpcode();
  if (e->isAssignmentOp())
    return emitAssign(e);
  if (op == cl::BO_Comma) {
    if (!emitRValue(e->getLHS()))
      return nullptr;
    return emitRValue(e->getRHS());
  }
  if (op == cl::BO_LAnd || op == cl::BO_LOr || e->isComparisonOp()) {
    Value c = emitCond(e);
    return c ? boolToInt(c, e->getType(), l) : nullptr;
  }
  if (!e->getLHS()->getType()->isArithmeticType() ||
      !e->getRHS()->getType()->isArithmeticType()) {
    error(e->getOperatorLoc(),
          "pointer arithmetic is not supported in a scop region");
    return nullptr;
  }
  Value x = emitRValue(e->getLHS());
  if (!x)
    return nullptr;
  Value y = emitRValue(e->getRHS());
  if (!y)
    return nullptr;
  // Shifts keep the left operand's type; C does not convert the right one.
  if ((op == cl::BO_Shl || op == cl::BO_Shr) && x.getType() != y.getType())
    y = convert(y, e->getRHS()->getType(), e->getLHS()->getType(), l);
  Value r = emitArith(op, x, y, e->getType(), l);
  if (!r)
    error(e->getOperatorLoc(), "operator '" + e->getOpcodeStr() +
                                   "' is not supported on these operands");
  return r;
}

Value RegionImporter::emitAssign(const cl::BinaryOperator *e) {
  mlir::Location l = loc(e);
  std::optional<LValue> lv = emitLValue(e->getLHS());
  if (!lv)
    return nullptr;
  cl::QualType lhsType = e->getLHS()->getType();
  if (e->getOpcode() == cl::BO_Assign) {
    Value v = emitRValue(e->getRHS());
    if (!v)
      return nullptr;
    store(*lv, v, l);
    return v;
  }
  const auto *cao = llvm::cast<cl::CompoundAssignOperator>(e);
  Value old = load(*lv, l);
  old = convert(old, lhsType, cao->getComputationLHSType(), l);
  Value rhs = emitRValue(e->getRHS());
  if (!rhs || !old)
    return nullptr;
  rhs = convert(rhs, e->getRHS()->getType(), cao->getComputationLHSType(), l);
  if ((e->getOpcode() == cl::BO_ShlAssign ||
       e->getOpcode() == cl::BO_ShrAssign))
    rhs = convert(rhs, e->getRHS()->getType(), cao->getComputationLHSType(),
                  l);
  Value r = emitArith(e->getOpcode(), old, rhs,
                      cao->getComputationResultType(), l);
  if (!r) {
    error(e->getOperatorLoc(), "operator '" + e->getOpcodeStr() +
                                   "' is not supported on these operands");
    return nullptr;
  }
  r = convert(r, cao->getComputationResultType(), lhsType, l);
  store(*lv, r, l);
  return r;
}

Value RegionImporter::emitUnary(const cl::UnaryOperator *e) {
  mlir::Location l = loc(e);
  const cl::Expr *sub = e->getSubExpr();
  switch (e->getOpcode()) {
  case cl::UO_Plus:
    return emitRValue(sub);
  case cl::UO_Minus: {
    Value v = emitRValue(sub);
    if (!v)
      return nullptr;
    if (llvm::isa<mlir::FloatType>(v.getType()))
      return b.create<mlir::arith::NegFOp>(l, v);
    return emitArith(cl::BO_Sub, constantFor(e->getType(), 0, 0, l), v,
                     e->getType(), l);
  }
  case cl::UO_Not: {
    Value v = emitRValue(sub);
    if (!v)
      return nullptr;
    return b.create<mlir::arith::XOrIOp>(
        l, v,
        b.create<mlir::arith::ConstantOp>(l, v.getType(),
                                          b.getIntegerAttr(v.getType(), -1)));
  }
  case cl::UO_LNot: {
    Value c = emitCond(e);
    return c ? boolToInt(c, e->getType(), l) : nullptr;
  }
  case cl::UO_PreInc:
  case cl::UO_PreDec:
  case cl::UO_PostInc:
  case cl::UO_PostDec: {
    std::optional<LValue> lv = emitLValue(sub);
    if (!lv)
      return nullptr;
    Value old = load(*lv, l);
    Value one = constantFor(sub->getType(), 1.0, 1, l);
    Value updated = e->isIncrementOp()
                        ? emitArith(cl::BO_Add, old, one, sub->getType(), l)
                        : emitArith(cl::BO_Sub, old, one, sub->getType(), l);
    store(*lv, updated, l);
    return e->isPrefix() ? updated : old;
  }
  default:
    error(e->getOperatorLoc(),
          "operator '" + cl::UnaryOperator::getOpcodeStr(e->getOpcode()) +
              "' is not supported in a scop region");
    return nullptr;
  }
}

Value RegionImporter::emitCond(const cl::Expr *e) {
  mlir::Location l = loc(e);
  e = strip(e);
  if (const auto *bin = dyn_cast<cl::BinaryOperator>(e)) {
    cl::BinaryOperatorKind op = bin->getOpcode();
    if (bin->isComparisonOp()) {
      Value x = emitRValue(bin->getLHS());
      Value y = x ? emitRValue(bin->getRHS()) : nullptr;
      if (!y)
        return nullptr;
      if (!bin->getLHS()->getType()->isArithmeticType()) {
        error(bin->getOperatorLoc(),
              "pointer comparisons are not supported in a scop region");
        return nullptr;
      }
      return emitCompare(op, x, y, isUnsigned(bin->getLHS()->getType()), l);
    }
    if (op == cl::BO_LAnd || op == cl::BO_LOr) {
      // Short-circuit: the right operand runs only when it decides.
      Value x = emitCond(bin->getLHS());
      if (!x)
        return nullptr;
      auto ifOp = b.create<mlir::scf::IfOp>(l, b.getI1Type(), x,
                                            /*withElseRegion=*/true);
      mlir::OpBuilder::InsertionGuard guard(b);
      b.setInsertionPointToStart(ifOp.thenBlock());
      Value thenV = op == cl::BO_LAnd
                        ? emitCond(bin->getRHS())
                        : b.create<mlir::arith::ConstantIntOp>(l, 1, 1);
      if (!thenV)
        return nullptr;
      b.create<mlir::scf::YieldOp>(l, thenV);
      b.setInsertionPointToStart(ifOp.elseBlock());
      Value elseV = op == cl::BO_LOr
                        ? emitCond(bin->getRHS())
                        : b.create<mlir::arith::ConstantIntOp>(l, 0, 1);
      if (!elseV)
        return nullptr;
      b.create<mlir::scf::YieldOp>(l, elseV);
      return ifOp.getResult(0);
    }
  }
  if (const auto *un = dyn_cast<cl::UnaryOperator>(e);
      un && un->getOpcode() == cl::UO_LNot) {
    Value c = emitCond(un->getSubExpr());
    if (!c)
      return nullptr;
    return b.create<mlir::arith::XOrIOp>(
        l, c, b.create<mlir::arith::ConstantIntOp>(l, 1, 1));
  }
  Value v = emitRValue(e);
  if (!v)
    return nullptr;
  if (v.getType().isInteger(1))
    return v;
  return convert(v, e->getType(), ctx.BoolTy, l);
}

Value RegionImporter::emitConditional(const cl::ConditionalOperator *e) {
  mlir::Location l = loc(e);
  Value c = emitCond(e->getCond());
  if (!c)
    return nullptr;
  mlir::Type t = scalarType(e->getType(), e->getBeginLoc());
  if (!t)
    return nullptr;
  auto ifOp = b.create<mlir::scf::IfOp>(l, t, c, /*withElseRegion=*/true);
  mlir::OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(ifOp.thenBlock());
  Value x = emitRValue(e->getTrueExpr());
  if (!x)
    return nullptr;
  b.create<mlir::scf::YieldOp>(l, x);
  b.setInsertionPointToStart(ifOp.elseBlock());
  Value y = emitRValue(e->getFalseExpr());
  if (!y)
    return nullptr;
  b.create<mlir::scf::YieldOp>(l, y);
  return ifOp.getResult(0);
}

namespace {
/// A libm function with an MLIR op of the same semantics.
struct MathFunction {
  llvm::StringLiteral name;
  unsigned arity;
  Value (*build)(mlir::OpBuilder &, mlir::Location, llvm::ArrayRef<Value>);
};
} // end anonymous namespace

template <typename OpTy>
static Value buildMathOp(mlir::OpBuilder &b, mlir::Location l,
                         llvm::ArrayRef<Value> args) {
  return b.create<OpTy>(l, mlir::TypeRange{args[0].getType()},
                        mlir::ValueRange(args));
}

static const MathFunction mathFunctions[] = {
    {"sqrt", 1, buildMathOp<mlir::math::SqrtOp>},
    {"cbrt", 1, buildMathOp<mlir::math::CbrtOp>},
    {"exp", 1, buildMathOp<mlir::math::ExpOp>},
    {"exp2", 1, buildMathOp<mlir::math::Exp2Op>},
    {"expm1", 1, buildMathOp<mlir::math::ExpM1Op>},
    {"log", 1, buildMathOp<mlir::math::LogOp>},
    {"log2", 1, buildMathOp<mlir::math::Log2Op>},
    {"log10", 1, buildMathOp<mlir::math::Log10Op>},
    {"log1p", 1, buildMathOp<mlir::math::Log1pOp>},
    {"fabs", 1, buildMathOp<mlir::math::AbsFOp>},
    {"sin", 1, buildMathOp<mlir::math::SinOp>},
    {"cos", 1, buildMathOp<mlir::math::CosOp>},
    {"tan", 1, buildMathOp<mlir::math::TanOp>},
    {"asin", 1, buildMathOp<mlir::math::AsinOp>},
    {"acos", 1, buildMathOp<mlir::math::AcosOp>},
    {"atan", 1, buildMathOp<mlir::math::AtanOp>},
    {"sinh", 1, buildMathOp<mlir::math::SinhOp>},
    {"cosh", 1, buildMathOp<mlir::math::CoshOp>},
    {"tanh", 1, buildMathOp<mlir::math::TanhOp>},
    {"asinh", 1, buildMathOp<mlir::math::AsinhOp>},
    {"acosh", 1, buildMathOp<mlir::math::AcoshOp>},
    {"atanh", 1, buildMathOp<mlir::math::AtanhOp>},
    {"floor", 1, buildMathOp<mlir::math::FloorOp>},
    {"ceil", 1, buildMathOp<mlir::math::CeilOp>},
    {"round", 1, buildMathOp<mlir::math::RoundOp>},
    {"trunc", 1, buildMathOp<mlir::math::TruncOp>},
    {"erf", 1, buildMathOp<mlir::math::ErfOp>},
    {"pow", 2, buildMathOp<mlir::math::PowFOp>},
    {"atan2", 2, buildMathOp<mlir::math::Atan2Op>},
    {"copysign", 2, buildMathOp<mlir::math::CopySignOp>},
    {"fmod", 2, buildMathOp<mlir::arith::RemFOp>},
    {"fmax", 2, buildMathOp<mlir::arith::MaxNumFOp>},
    {"fmin", 2, buildMathOp<mlir::arith::MinNumFOp>},
    {"fma", 3, buildMathOp<mlir::math::FmaOp>},
    {"abs", 1, buildMathOp<mlir::math::AbsIOp>},
    {"labs", 1, buildMathOp<mlir::math::AbsIOp>},
};

static const MathFunction *lookupMathFunction(llvm::StringRef name) {
  for (const MathFunction &f : mathFunctions)
    if (f.name == name)
      return &f;
  return nullptr;
}

static std::string mathFunctionList() {
  std::string list;
  for (const MathFunction &f : mathFunctions)
    list += (list.empty() ? "" : ", ") + f.name.str();
  return list + " (and their 'f' forms)";
}

Value RegionImporter::emitCall(const cl::CallExpr *e) {
  mlir::Location l = loc(e);
  const cl::FunctionDecl *fn = e->getDirectCallee();
  if (!fn) {
    error(e->getBeginLoc(), "indirect calls are not supported in a scop "
                            "region");
    return nullptr;
  }
  llvm::StringRef name = fn->getName();
  if (name.starts_with("__builtin_"))
    name = name.drop_front(strlen("__builtin_"));
  // Float and double spellings share one op; the type picks the libm name
  // again when the C is printed.
  llvm::StringRef base = name;
  if (base.size() > 1 && base.ends_with("f") &&
      fn->getReturnType()->isSpecificBuiltinType(cl::BuiltinType::Float))
    base = base.drop_back();
  const MathFunction *math = lookupMathFunction(base);
  Value r;
  if (math && math->arity == e->getNumArgs()) {
    llvm::SmallVector<Value> args;
    for (const cl::Expr *arg : e->arguments()) {
      Value v = emitRValue(arg);
      if (!v)
        return nullptr;
      args.push_back(v);
    }
    r = math->build(b, l, args);
  }
  if (!r)
    error(e->getBeginLoc(),
          "call to '" + fn->getName() +
              "' is not supported in a scop region; supported calls are the "
              "math functions " + mathFunctionList());
  return r;
}

