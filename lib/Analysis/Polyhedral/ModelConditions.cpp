//===- ModelConditions.cpp - Conditions of the model ----------*- C++ -*-===//
//
// Part of ModelBuilder: the ISL spelling of C conditions on loop iterators
// and parameters (comparisons, &&, ||, !, ?:), which the C front end gives
// as arith and scf ops rather than affine.if.
//
//===----------------------------------------------------------------------===//
#include "ModelBuilder.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Matchers.h"

using namespace mlir;
using namespace weft::detail;

FailureOr<std::string>
ModelBuilder::spellInteger(Value v, const DenseMap<Value, unsigned> &ivs) {
  if (v.getType().isIndex()) {
    // The C iterator of a downward loop, computed from the normalised one.
    if (auto apply = v.getDefiningOp<affine::AffineApplyOp>()) {
      AffineMap map = apply.getAffineMap();
      SmallVector<Value> operands(apply.getMapOperands());
      return spell(func, map.getResult(0), operands, map.getNumDims(), ivs);
    }
    if (!ivs.count(v) && !affine::isValidSymbol(v))
      return failure();
    return spellOperand(func, v, ivs);
  }
  if (auto arg = dyn_cast<BlockArgument>(v)) {
    // A C integer parameter: the model's symbol is its index value.
    if (arg.getOwner() != &func.getBody().front())
      return failure();
    for (Operation *user : arg.getUsers())
      if (auto cast = dyn_cast<arith::IndexCastOp>(user))
        if (cast.getType().isIndex() &&
            cast->getBlock() == &func.getBody().front())
          return spellOperand(func, cast, ivs);
    return failure();
  }
  Operation *op = v.getDefiningOp();
  if (!op)
    return failure();
  if (auto c = dyn_cast<arith::ConstantIntOp>(op))
    return std::to_string(c.value());
  if (isa<arith::IndexCastOp, arith::ExtSIOp>(op))
    return spellInteger(op->getOperand(0), ivs);
  if (!isa<arith::AddIOp, arith::SubIOp, arith::MulIOp>(op))
    return failure();
  FailureOr<std::string> l = spellInteger(op->getOperand(0), ivs);
  FailureOr<std::string> r = spellInteger(op->getOperand(1), ivs);
  if (failed(l) || failed(r))
    return failure();
  if (isa<arith::AddIOp>(op))
    return "(" + *l + " + " + *r + ")";
  if (isa<arith::SubIOp>(op))
    return "(" + *l + " - " + *r + ")";
  // ISL needs one factor to be a constant.
  if (!matchPattern(op->getOperand(0), m_Constant()) &&
      !matchPattern(op->getOperand(1), m_Constant()))
    return failure();
  return "(" + *l + " * " + *r + ")";
}

FailureOr<std::string>
ModelBuilder::spellCondition(Value v, bool negate,
                             const DenseMap<Value, unsigned> &ivs) {
  Operation *op = v.getDefiningOp();
  if (!op)
    return failure();
  if (auto c = dyn_cast<arith::ConstantIntOp>(op))
    return std::string((c.value() != 0) != negate ? "0 = 0" : "1 = 0");
  // C's truth values: `x != 0` and `x == 0` of a condition turned into an
  // int (`(c ? a : b) != 0`, `(i < j) == 0`).
  if (isa<arith::ExtUIOp, arith::ExtSIOp>(op) &&
      op->getOperand(0).getType().isInteger(1))
    return spellCondition(op->getOperand(0), negate, ivs);
  if (auto cmp = dyn_cast<arith::CmpIOp>(op)) {
    using P = arith::CmpIPredicate;
    P p = cmp.getPredicate();
    if ((p == P::ne || p == P::eq) && matchPattern(cmp.getRhs(), m_Zero())) {
      FailureOr<std::string> truth =
          spellCondition(cmp.getLhs(), negate == (p == P::ne), ivs);
      if (succeeded(truth))
        return truth;
    }
    if (negate)
      p = arith::invertPredicate(p);
    StringRef rel = p == P::eq    ? "="
                    : p == P::slt ? "<"
                    : p == P::sle ? "<="
                    : p == P::sgt ? ">"
                    : p == P::sge ? ">="
                                  : "";
    if (rel.empty() && p != P::ne)
      return failure(); // Unsigned comparisons wrap.
    FailureOr<std::string> l = spellInteger(cmp.getLhs(), ivs);
    FailureOr<std::string> r = spellInteger(cmp.getRhs(), ivs);
    if (failed(l) || failed(r))
      return failure();
    if (p == P::ne)
      return "(" + *l + " < " + *r + " or " + *l + " > " + *r + ")";
    return "(" + *l + " " + rel.str() + " " + *r + ")";
  }
  if (isa<arith::AndIOp, arith::OrIOp>(op)) {
    FailureOr<std::string> l = spellCondition(op->getOperand(0), negate, ivs);
    FailureOr<std::string> r = spellCondition(op->getOperand(1), negate, ivs);
    if (failed(l) || failed(r))
      return failure();
    // De Morgan: a negated 'and' is an 'or'.
    bool both = isa<arith::AndIOp>(op) != negate;
    return "(" + *l + (both ? " and " : " or ") + *r + ")";
  }
  if (auto x = dyn_cast<arith::XOrIOp>(op))
    if (matchPattern(x.getRhs(), m_One()))
      return spellCondition(x.getLhs(), !negate, ivs);
  // `c ? t : e` on conditions, as && and || are built.
  auto ifOp = dyn_cast<scf::IfOp>(op);
  if (!ifOp || ifOp.getNumResults() != 1 || ifOp.getElseRegion().empty())
    return failure();
  auto yielded = [](Region &r) {
    return cast<scf::YieldOp>(r.front().getTerminator()).getOperand(0);
  };
  FailureOr<std::string> c = spellCondition(ifOp.getCondition(), false, ivs);
  FailureOr<std::string> notC = spellCondition(ifOp.getCondition(), true, ivs);
  FailureOr<std::string> t =
      spellCondition(yielded(ifOp.getThenRegion()), negate, ivs);
  FailureOr<std::string> e =
      spellCondition(yielded(ifOp.getElseRegion()), negate, ivs);
  if (failed(c) || failed(notC) || failed(t) || failed(e))
    return failure();
  return "((" + *c + " and " + *t + ") or (" + *notC + " and " + *e + "))";
}
