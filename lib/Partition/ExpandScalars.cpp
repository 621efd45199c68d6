//===- ExpandScalars.cpp - Scalars kept per iteration of a loop -----------===//
#include "ExpandScalars.h"

#include "dialects/Weft/IR/WeftDialect.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"

using namespace mlir;
using namespace weft;

/// Whether `op` or an op in it reads `scalar`.
static bool reads(Operation *op, Value scalar) {
  return op
      ->walk([&](affine::AffineLoadOp load) {
        return load.getMemRef() == scalar ? WalkResult::interrupt()
                                          : WalkResult::advance();
      })
      .wasInterrupted();
}

/// Whether `op` or an op in it uses `scalar`.
static bool uses(Operation *op, Value scalar) {
  return llvm::any_of(scalar.getUsers(),
                      [&](Operation *user) { return op->isAncestor(user); });
}

/// Whether `block`'s ops from `begin` on store `scalar` before reading it:
/// an op of them that uses it must be a store of it, or read it only after
/// such a store among its body's ops (a loop that sets it first in each
/// iteration).
static bool storedBeforeRead(Block::iterator begin, Block::iterator end,
                             Value scalar) {
  for (Operation &op : llvm::make_range(begin, end)) {
    if (!uses(&op, scalar))
      continue;
    if (auto store = dyn_cast<affine::AffineStoreOp>(op))
      if (store.getMemRef() == scalar)
        return true; // What follows reads this value.
    auto loop = dyn_cast<affine::AffineForOp>(op);
    if (!loop)
      return false;
    // The loop may run no iteration: what follows it must qualify too.
    bool set = false;
    for (Operation &child : loop.getBody()->without_terminator()) {
      if (!uses(&child, scalar))
        continue;
      auto store = dyn_cast<affine::AffineStoreOp>(child);
      if (!store || store.getMemRef() != scalar || reads(&child, scalar))
        return false;
      set = true;
      break;
    }
    if (!set)
      return false;
  }
  return true;
}

FailureOr<ExpandedScalars> weft::expandScalars(affine::AffineForOp outer,
                                               affine::AffineForOp inner) {
  // (Those set before `inner` and only read in it too: distributed, the
  // settings of every iteration would run before the first read.)
  llvm::SetVector<Value> stored;
  outer.walk([&](affine::AffineStoreOp store) {
    if (store.getMemRefType().getRank() == 0)
      stored.insert(store.getMemRef());
  });
  ExpandedScalars expanded;
  if (stored.empty())
    return expanded;
  // In the order `outer` sets them (each must be set before `inner`).
  llvm::SetVector<Value> scalars;
  for (Operation &op :
       llvm::make_range(outer.getBody()->begin(), Block::iterator(inner)))
    if (auto store = dyn_cast<affine::AffineStoreOp>(op))
      if (stored.contains(store.getMemRef()))
        scalars.insert(store.getMemRef());
  if (scalars.size() != stored.size())
    return failure();
  auto func = dyn_cast<func::FuncOp>(outer->getParentOp());
  if (!func || outer.getStepAsInt() != 1 || !outer.hasConstantLowerBound() ||
      outer.getUpperBoundMap().getNumResults() != 1)
    return failure();
  for (Value scalar : scalars) {
    auto arg = dyn_cast<BlockArgument>(scalar);
    bool ofRegion =
        arg ? arg.getOwner()->getParentOp() == func &&
                  func.getArgAttr(arg.getArgNumber(),
                                  WeftDialect::getRegionOnlyAttrName())
            : isa_and_nonnull<memref::AllocaOp>(scalar.getDefiningOp());
    if (!ofRegion)
      return failure();
    for (Operation *user : scalar.getUsers())
      if (outer->isAncestor(user) &&
          !isa<affine::AffineLoadOp, affine::AffineStoreOp>(user))
        return failure();
    // Each iteration of `outer` sets it first: no value crosses from one
    // iteration to the next.
    Block *body = outer.getBody();
    if (!storedBeforeRead(body->begin(), Block::iterator(inner), scalar))
      return failure();
    // After `outer`, what reads it has set it first.
    if (!storedBeforeRead(std::next(Block::iterator(outer)),
                          outer->getBlock()->end(), scalar))
      return failure();
  }

  // The arrays, one element per iteration of `outer`.
  MLIRContext *ctx = outer.getContext();
  OpBuilder b(outer);
  Location loc = outer.getLoc();
  int64_t lower = outer.getConstantLowerBound();
  AffineMap upper = outer.getUpperBoundMap();
  AffineMap count = AffineMap::get(
      upper.getNumDims(), upper.getNumSymbols(),
      {upper.getResult(0) - lower, getAffineConstantExpr(0, ctx)}, ctx);
  auto trips =
      b.create<affine::AffineMaxOp>(loc, count, outer.getUpperBoundOperands());
  expanded.made.push_back(trips);
  OpBuilder after(ctx);
  after.setInsertionPointAfter(outer);
  SmallVector<Value> arrays;
  for (Value scalar : scalars) {
    auto type =
        MemRefType::get({ShapedType::kDynamic},
                        cast<MemRefType>(scalar.getType()).getElementType());
    auto array =
        b.create<memref::AllocOp>(scalar.getLoc(), type, ValueRange{trips});
    expanded.made.push_back(array);
    expanded.made.push_back(
        after.create<memref::DeallocOp>(scalar.getLoc(), array));
    arrays.push_back(array);
    expanded.scalars.push_back(scalar);
  }
  // Their accesses, at the iterator's element.
  AffineMap element = AffineMap::get(
      1, 0, getAffineDimExpr(0, ctx) - getAffineConstantExpr(lower, ctx));
  Value iv = outer.getInductionVar();
  for (auto [scalar, array] : llvm::zip(scalars, arrays)) {
    for (Operation *user : llvm::make_early_inc_range(scalar.getUsers())) {
      if (!outer->isAncestor(user))
        continue;
      OpBuilder at(user);
      Operation *access;
      if (auto load = dyn_cast<affine::AffineLoadOp>(user)) {
        access = at.create<affine::AffineLoadOp>(load.getLoc(), array, element,
                                                 ValueRange{iv});
        load.replaceAllUsesWith(access->getResult(0));
      } else {
        auto store = cast<affine::AffineStoreOp>(user);
        access = at.create<affine::AffineStoreOp>(
            store.getLoc(), store.getValueToStore(), array, element,
            ValueRange{iv});
      }
      user->erase();
      expanded.accesses.push_back({access, scalar});
    }
  }
  return expanded;
}

void weft::restoreScalars(ExpandedScalars &expanded) {
  for (auto [access, scalar] : expanded.accesses) {
    OpBuilder at(access);
    if (auto load = dyn_cast<affine::AffineLoadOp>(access)) {
      Value back =
          at.create<affine::AffineLoadOp>(load.getLoc(), scalar, ValueRange{});
      load.replaceAllUsesWith(back);
    } else {
      auto store = cast<affine::AffineStoreOp>(access);
      at.create<affine::AffineStoreOp>(store.getLoc(), store.getValueToStore(),
                                       scalar, ValueRange{});
    }
    access->erase();
  }
  for (Operation *op : llvm::reverse(expanded.made))
    op->erase();
  expanded = {};
}
