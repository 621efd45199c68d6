//===- AstToLoops.cpp - ISL ASTs as scf loops -------------------*- C++ -*-===//
#include "weft/Partition/AstToLoops.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

using namespace mlir;
using namespace weft;

namespace {
class AstLowering {
public:
  AstLowering(OpBuilder &b, Location loc, llvm::StringMap<Value> ids,
              function_ref<void(ValueRange)> element)
      : b(b), loc(loc), ids(std::move(ids)), element(element) {}

  LogicalResult node(const AstNode &n);
  FailureOr<Value> expr(const AstExpr &e);

private:
  FailureOr<Value> upperBound(const AstExpr &cond, StringRef iterator);
  Value constant(int64_t v) { return b.create<arith::ConstantIndexOp>(loc, v); }

  OpBuilder &b;
  Location loc;
  llvm::StringMap<Value> ids;
  function_ref<void(ValueRange)> element;
};
} // end anonymous namespace

FailureOr<Value> AstLowering::expr(const AstExpr &e) {
  using K = AstExpr::Kind;
  if (e.kind == K::Int)
    return constant(e.value);
  if (e.kind == K::Id) {
    Value v = ids.lookup(e.id);
    if (!v)
      return failure();
    return v;
  }
  SmallVector<Value> args;
  for (const AstExpr &a : e.args) {
    FailureOr<Value> v = expr(a);
    if (failed(v))
      return failure();
    args.push_back(*v);
  }
  auto fold = [&](auto build) -> FailureOr<Value> {
    if (args.empty())
      return failure();
    Value r = args.front();
    for (Value a : ArrayRef<Value>(args).drop_front())
      r = build(r, a);
    return r;
  };
  auto cmp = [&](arith::CmpIPredicate p) -> FailureOr<Value> {
    if (args.size() != 2)
      return failure();
    return b.create<arith::CmpIOp>(loc, p, args[0], args[1]).getResult();
  };
  switch (e.kind) {
  case K::Add:
    return fold(
        [&](Value x, Value y) { return b.create<arith::AddIOp>(loc, x, y); });
  case K::Sub:
    return fold(
        [&](Value x, Value y) { return b.create<arith::SubIOp>(loc, x, y); });
  case K::Mul:
    return fold(
        [&](Value x, Value y) { return b.create<arith::MulIOp>(loc, x, y); });
  case K::Neg:
    if (args.size() != 1)
      return failure();
    return b.create<arith::SubIOp>(loc, constant(0), args[0]).getResult();
  case K::FloorDiv:
    return fold([&](Value x, Value y) {
      return b.create<arith::FloorDivSIOp>(loc, x, y);
    });
  case K::ExactDiv:
  case K::TruncDiv:
    return fold(
        [&](Value x, Value y) { return b.create<arith::DivSIOp>(loc, x, y); });
  case K::Rem:
    return fold(
        [&](Value x, Value y) { return b.create<arith::RemSIOp>(loc, x, y); });
  case K::Min:
    return fold(
        [&](Value x, Value y) { return b.create<arith::MinSIOp>(loc, x, y); });
  case K::Max:
    return fold(
        [&](Value x, Value y) { return b.create<arith::MaxSIOp>(loc, x, y); });
  case K::And:
    return fold(
        [&](Value x, Value y) { return b.create<arith::AndIOp>(loc, x, y); });
  case K::Or:
    return fold(
        [&](Value x, Value y) { return b.create<arith::OrIOp>(loc, x, y); });
  case K::Select:
    if (args.size() != 3)
      return failure();
    return b.create<arith::SelectOp>(loc, args[0], args[1], args[2])
        .getResult();
  case K::Eq:
    return cmp(arith::CmpIPredicate::eq);
  case K::Le:
    return cmp(arith::CmpIPredicate::sle);
  case K::Lt:
    return cmp(arith::CmpIPredicate::slt);
  case K::Ge:
    return cmp(arith::CmpIPredicate::sge);
  case K::Gt:
    return cmp(arith::CmpIPredicate::sgt);
  default:
    return failure();
  }
}

/// The exclusive upper bound of `iterator` in a for condition made of
/// `iterator <= e` / `iterator < e` terms joined by `and`.
FailureOr<Value> AstLowering::upperBound(const AstExpr &cond,
                                         StringRef iterator) {
  using K = AstExpr::Kind;
  if (cond.kind == K::And) {
    Value bound;
    for (const AstExpr &term : cond.args) {
      FailureOr<Value> ub = upperBound(term, iterator);
      if (failed(ub))
        return failure();
      bound =
          bound ? b.create<arith::MinSIOp>(loc, bound, *ub).getResult() : *ub;
    }
    if (!bound)
      return failure();
    return bound;
  }
  if ((cond.kind != K::Le && cond.kind != K::Lt) || cond.args.size() != 2 ||
      cond.args[0].kind != K::Id || cond.args[0].id != iterator)
    return failure();
  FailureOr<Value> e = expr(cond.args[1]);
  if (failed(e) || cond.kind == K::Lt)
    return e;
  return b.create<arith::AddIOp>(loc, *e, constant(1)).getResult();
}

LogicalResult AstLowering::node(const AstNode &n) {
  switch (n.kind) {
  case AstNode::Kind::Block:
    for (const AstNode &child : n.children)
      if (failed(node(child)))
        return failure();
    return success();
  case AstNode::Kind::Element: {
    Block *block = b.getInsertionBlock();
    Block::iterator start = b.getInsertionPoint();
    bool atStart = start == block->begin();
    Operation *before = atStart ? nullptr : &*std::prev(start);
    SmallVector<Value> subscripts;
    for (const AstExpr &s : n.subscripts) {
      FailureOr<Value> v = expr(s);
      if (failed(v))
        return failure();
      subscripts.push_back(*v);
    }
    SmallVector<Operation *> computed;
    for (Operation *op = before ? before->getNextNode() : &block->front();
         op && op != &*b.getInsertionPoint(); op = op->getNextNode())
      computed.push_back(op);
    element(subscripts);
    // Counting elements ignores their subscripts: drop what computed them
    // (generated C must have no unused variables).
    for (Operation *op : llvm::reverse(computed))
      if (op->use_empty() && isPure(op))
        op->erase();
    return success();
  }
  case AstNode::Kind::If: {
    FailureOr<Value> cond = expr(n.condition);
    if (failed(cond))
      return failure();
    auto ifOp = b.create<scf::IfOp>(loc, *cond, /*withElseRegion=*/
                                    n.children.size() > 1);
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPoint(ifOp.thenBlock()->getTerminator());
    if (failed(node(n.children[0])))
      return failure();
    if (n.children.size() > 1) {
      b.setInsertionPoint(ifOp.elseBlock()->getTerminator());
      return node(n.children[1]);
    }
    return success();
  }
  case AstNode::Kind::For: {
    FailureOr<Value> init = expr(n.init);
    FailureOr<Value> ub = upperBound(n.cond, n.iterator);
    if (failed(init) || failed(ub) || n.step <= 0)
      return failure();
    auto loop = b.create<scf::ForOp>(loc, *init, *ub, constant(n.step));
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPoint(loop.getBody()->getTerminator());
    Value shadowed = ids.lookup(n.iterator);
    ids[n.iterator] = loop.getInductionVar();
    LogicalResult r = node(n.children[0]);
    ids[n.iterator] = shadowed;
    return r;
  }
  }
  return failure();
}

LogicalResult weft::emitAstLoops(OpBuilder &b, Location loc,
                                 const AstNode &node,
                                 llvm::StringMap<Value> ids,
                                 function_ref<void(ValueRange)> element) {
  return AstLowering(b, loc, std::move(ids), element).node(node);
}

FailureOr<Value> weft::emitAstExpr(OpBuilder &b, Location loc,
                                   const AstExpr &expr,
                                   llvm::StringMap<Value> ids) {
  return AstLowering(b, loc, std::move(ids), [](ValueRange) {}).expr(expr);
}
