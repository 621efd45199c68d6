//===- ExpandScalars.cpp - Scalars kept per iteration of a loop -----------===//
#include "ExpandScalars.h"

#include "dialects/Weft/IR/WeftDialect.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"

using namespace mlir;
using namespace weft;

/// Whether `op` or an op in it uses `scalar`.
static bool uses(Operation *op, Value scalar) {
  return llvm::any_of(scalar.getUsers(),
                      [&](Operation *user) { return op->isAncestor(user); });
}

namespace {
/// What a run of ops does first with a scalar.
enum class FirstAccess {
  Stores, // a store of it, before any read: the value before is dead
  Reads,  // reads the value from before
  None,   // neither (loops that set it first in each iteration count here)
};
} // namespace

/// What `block`'s ops from `begin` to `end` do first with `scalar`: an op
/// that uses it must be a store of it, or a loop that reads it only after
/// such a store among its body's ops (the loop may run no iteration: what
/// follows it decides); any other use reads it.
static FirstAccess firstAccess(Block::iterator begin, Block::iterator end,
                               Value scalar) {
  for (Operation &op : llvm::make_range(begin, end)) {
    if (!uses(&op, scalar))
      continue;
    if (auto store = dyn_cast<affine::AffineStoreOp>(op))
      if (store.getMemRef() == scalar)
        return FirstAccess::Stores;
    auto loop = dyn_cast<affine::AffineForOp>(op);
    if (!loop)
      return FirstAccess::Reads;
    bool set = false;
    for (Operation &child : loop.getBody()->without_terminator()) {
      if (!uses(&child, scalar))
        continue;
      auto store = dyn_cast<affine::AffineStoreOp>(child);
      if (!store || store.getMemRef() != scalar)
        return FirstAccess::Reads;
      set = true;
      break;
    }
    if (!set)
      return FirstAccess::Reads;
  }
  return FirstAccess::None;
}

/// Whether no code reads the value `scalar` has after `outer` (a local of
/// the region or a `weft.region_only` argument, dead at its end): what
/// follows `outer` in its block, and where that block is a loop's body,
/// the next iteration up to `outer` and what follows that loop, and so on
/// out to the function's body, stores it before any read.
static bool deadAfter(affine::AffineForOp outer, Value scalar) {
  Operation *at = outer;
  while (true) {
    Block *block = at->getBlock();
    switch (firstAccess(std::next(Block::iterator(at)), block->end(), scalar)) {
    case FirstAccess::Reads:
      return false;
    case FirstAccess::Stores:
      return true;
    case FirstAccess::None:
      break;
    }
    Operation *parent = block->getParentOp();
    if (isa<func::FuncOp>(parent))
      return true;
    auto loop = dyn_cast<affine::AffineForOp>(parent);
    if (!loop || firstAccess(block->begin(), Block::iterator(at), scalar) ==
                     FirstAccess::Reads)
      return false;
    // The loop may end here.
    at = loop;
  }
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
  auto func = outer->getParentOfType<func::FuncOp>();
  AffineMap lowerMap = outer.getLowerBoundMap();
  AffineMap upperMap = outer.getUpperBoundMap();
  if (!func || outer.getStepAsInt() != 1 || lowerMap.getNumResults() != 1 ||
      upperMap.getNumResults() != 1)
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
    if (firstAccess(body->begin(), Block::iterator(inner), scalar) !=
            FirstAccess::Stores ||
        !deadAfter(outer, scalar))
      return failure();
  }

  // The arrays, one element per iteration of `outer`: its trip count
  // max(upper - lower, 0), over the upper bound's operands and then the
  // lower bound's (dimensions, then symbols).
  MLIRContext *ctx = outer.getContext();
  OpBuilder b(outer);
  Location loc = outer.getLoc();
  unsigned upperDims = upperMap.getNumDims();
  unsigned lowerDims = lowerMap.getNumDims();
  AffineExpr lowerAfterUpper =
      lowerMap.getResult(0)
          .shiftDims(lowerDims, upperDims)
          .shiftSymbols(lowerMap.getNumSymbols(), upperMap.getNumSymbols());
  AffineMap count = AffineMap::get(
      upperDims + lowerDims,
      upperMap.getNumSymbols() + lowerMap.getNumSymbols(),
      {upperMap.getResult(0) - lowerAfterUpper, getAffineConstantExpr(0, ctx)},
      ctx);
  OperandRange upperOperands = outer.getUpperBoundOperands();
  OperandRange lowerOperands = outer.getLowerBoundOperands();
  SmallVector<Value> countOperands(upperOperands.take_front(upperDims));
  llvm::append_range(countOperands, lowerOperands.take_front(lowerDims));
  llvm::append_range(countOperands, upperOperands.drop_front(upperDims));
  llvm::append_range(countOperands, lowerOperands.drop_front(lowerDims));
  affine::canonicalizeMapAndOperands(&count, &countOperands);
  auto trips = b.create<affine::AffineMaxOp>(loc, count, countOperands);
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
  // Their accesses, at the iterator's element: `iv - lower`, over the
  // iterator and the lower bound's operands.
  AffineMap element = AffineMap::get(
      1 + lowerDims, lowerMap.getNumSymbols(),
      getAffineDimExpr(0, ctx) - lowerMap.getResult(0).shiftDims(lowerDims, 1));
  SmallVector<Value> elementOperands{outer.getInductionVar()};
  llvm::append_range(elementOperands, lowerOperands);
  affine::canonicalizeMapAndOperands(&element, &elementOperands);
  for (auto [scalar, array] : llvm::zip(scalars, arrays)) {
    for (Operation *user : llvm::make_early_inc_range(scalar.getUsers())) {
      if (!outer->isAncestor(user))
        continue;
      OpBuilder at(user);
      Operation *access;
      if (auto load = dyn_cast<affine::AffineLoadOp>(user)) {
        access = at.create<affine::AffineLoadOp>(load.getLoc(), array, element,
                                                 elementOperands);
        load.replaceAllUsesWith(access->getResult(0));
      } else {
        auto store = cast<affine::AffineStoreOp>(user);
        access = at.create<affine::AffineStoreOp>(
            store.getLoc(), store.getValueToStore(), array, element,
            elementOperands);
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
