//===- LoopBounds.cpp - Building affine loop bounds -------------*- C++ -*-===//
#include "LoopBounds.h"

#include "weft/Partition/Passes.h"
#include "weft/Support/SourceNames.h"

#include "dialects/Dist/IR/DistOps.h"

#include <optional>

using namespace mlir;
using namespace weft;

BoundMap BoundMap::lower(affine::AffineForOp loop) {
  return {loop.getLowerBoundMap(),
          llvm::to_vector(loop.getLowerBoundOperands())};
}

BoundMap BoundMap::upper(affine::AffineForOp loop) {
  return {loop.getUpperBoundMap(),
          llvm::to_vector(loop.getUpperBoundOperands())};
}

BoundMap BoundMap::of(Value v) {
  return {AffineMap::get(1, 0, getAffineDimExpr(0, v.getContext())), {v}};
}

/// `results` of a max (`lower`) or min without repeated results and with at
/// most one constant, the greatest (least) of them.
static SmallVector<AffineExpr> withoutRedundant(ArrayRef<AffineExpr> results,
                                                bool lower) {
  SmallVector<AffineExpr> kept;
  std::optional<int64_t> constant;
  MLIRContext *context = nullptr;
  for (AffineExpr e : results) {
    context = e.getContext();
    if (auto c = dyn_cast<AffineConstantExpr>(e)) {
      int64_t v = c.getValue();
      constant = !constant ? v
                 : lower   ? std::max(*constant, v)
                           : std::min(*constant, v);
    } else if (!llvm::is_contained(kept, e)) {
      kept.push_back(e);
    }
  }
  if (constant)
    kept.push_back(getAffineConstantExpr(*constant, context));
  return kept;
}

BoundMap weft::combineBounds(ArrayRef<BoundMap> parts, bool lower,
                             const std::function<SmallVector<AffineExpr>(
                                 ArrayRef<SmallVector<AffineExpr>>)> &combine) {
  unsigned dims = 0, syms = 0;
  for (const BoundMap &p : parts) {
    dims += p.map.getNumDims();
    syms += p.map.getNumSymbols();
  }
  SmallVector<SmallVector<AffineExpr>> shifted;
  BoundMap result;
  unsigned dimOffset = 0, symOffset = 0;
  for (const BoundMap &p : parts) {
    unsigned d = p.map.getNumDims(), s = p.map.getNumSymbols();
    SmallVector<AffineExpr> &exprs = shifted.emplace_back();
    for (AffineExpr e : p.map.getResults())
      exprs.push_back(e.shiftSymbols(s, symOffset).shiftDims(d, dimOffset));
    llvm::append_range(result.operands, ArrayRef(p.operands).take_front(d));
    dimOffset += d;
    symOffset += s;
  }
  for (const BoundMap &p : parts)
    llvm::append_range(result.operands,
                       ArrayRef(p.operands).drop_front(p.map.getNumDims()));
  MLIRContext *context = parts.front().map.getContext();
  result.map = AffineMap::get(
      dims, syms, withoutRedundant(combine(shifted), lower), context);
  affine::canonicalizeMapAndOperands(&result.map, &result.operands);
  return result;
}

void weft::setBound(affine::AffineForOp loop, bool lower,
                    const BoundMap &bound) {
  if (lower)
    loop.setLowerBound(bound.operands, bound.map);
  else
    loop.setUpperBound(bound.operands, bound.map);
}

Location weft::namedAfter(affine::AffineForOp loop, Location loc,
                          StringRef suffix) {
  StringRef iv = sourceName(loop.getInductionVar());
  return iv.empty() ? loc : withSourceName(loc, (iv + suffix).str());
}

std::pair<Value, Value> weft::hoistNamedBounds(affine::AffineForOp loop,
                                               Operation *at) {
  OpBuilder b(at);
  Location loc = loop.getInductionVar().getLoc();
  Value lo = b.create<affine::AffineMaxOp>(namedAfter(loop, loc, "_lo"),
                                           loop.getLowerBoundMap(),
                                           loop.getLowerBoundOperands());
  Value hi = b.create<affine::AffineMinOp>(namedAfter(loop, loc, "_hi"),
                                           loop.getUpperBoundMap(),
                                           loop.getUpperBoundOperands());
  return {lo, hi};
}

bool weft::isDistributedForm(func::FuncOp func) {
  return isDistributable(func) &&
         func.walk([](dist::LocalBoundsOp) { return WalkResult::interrupt(); })
             .wasInterrupted();
}
