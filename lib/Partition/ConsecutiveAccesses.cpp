//===- ConsecutiveAccesses.cpp - Accesses that walk rows ------------------===//
#include "ConsecutiveAccesses.h"

#include "mlir/Dialect/Affine/Analysis/AffineAnalysis.h"
#include "mlir/Dialect/Affine/IR/AffineValueMap.h"

using namespace mlir;

namespace {
/// How an access moves when an iterator grows by one.
enum class Walk { Stays, Consecutive, Jumps };
} // namespace

/// How the access `op` (an affine load or store) moves along `iv`:
/// consecutive where its last subscript moves by 1 or -1 and no other
/// subscript moves; it stays where none moves.
static Walk walkAlong(Operation *op, Value iv) {
  affine::MemRefAccess access(op);
  if (access.getRank() == 0)
    return Walk::Stays;
  affine::AffineValueMap map;
  access.getAccessMap(&map);
  AffineMap m = map.getAffineMap();
  auto position = llvm::find(map.getOperands(), iv);
  if (position == map.getOperands().end())
    return Walk::Stays;
  unsigned d = position - map.getOperands().begin();
  if (d >= m.getNumDims())
    return Walk::Jumps;
  // The difference each result makes when `iv` grows by one.
  MLIRContext *ctx = op->getContext();
  SmallVector<AffineExpr> shifted;
  for (unsigned i = 0; i < m.getNumDims(); ++i)
    shifted.push_back(getAffineDimExpr(i, ctx) +
                      (i == d ? getAffineConstantExpr(1, ctx)
                              : getAffineConstantExpr(0, ctx)));
  unsigned last = m.getNumResults() - 1;
  bool moves = false, consecutive = true;
  for (auto [i, result] : llvm::enumerate(m.getResults())) {
    AffineExpr step = simplifyAffineExpr(result.replaceDims(shifted) - result,
                                         m.getNumDims(), m.getNumSymbols());
    auto c = dyn_cast<AffineConstantExpr>(step);
    if (!c)
      return Walk::Jumps;
    int64_t by = c.getValue();
    moves |= by != 0;
    if (i == last ? (by != 1 && by != -1) : by != 0)
      consecutive = false;
  }
  if (!moves)
    return Walk::Stays;
  return consecutive ? Walk::Consecutive : Walk::Jumps;
}

/// How many of the distinct accesses in `loop` (an accumulator's load and
/// store count once) move along `iv` as `walk` says.
static unsigned countAccesses(affine::AffineForOp loop, Value iv, Walk walk) {
  SmallVector<affine::MemRefAccess> seen;
  unsigned n = 0;
  loop.walk([&](Operation *op) {
    if (!isa<affine::AffineReadOpInterface, affine::AffineWriteOpInterface>(op))
      return;
    affine::MemRefAccess access(op);
    if (llvm::is_contained(seen, access))
      return;
    seen.push_back(access);
    n += walkAlong(op, iv) == walk;
  });
  return n;
}

unsigned weft::consecutiveAccesses(affine::AffineForOp loop, Value iv) {
  return countAccesses(loop, iv, Walk::Consecutive);
}

bool weft::worthMoving(affine::AffineForOp outer, affine::AffineForOp inner) {
  if (inner.getNumResults() || outer.getNumResults())
    return false;
  for (Value v : inner.getOperands())
    if (outer.getRegion().isAncestor(v.getParentRegion()))
      return false;
  // Fewer accesses that jump, or as many and more that walk rows: a
  // scalar kept in an array (ExpandScalars.h) walks consecutively along
  // `outer` but cost nothing as it was.
  Value in = inner.getInductionVar(), out = outer.getInductionVar();
  unsigned jumpsNow = countAccesses(inner, in, Walk::Jumps);
  unsigned jumpsMoved = countAccesses(inner, out, Walk::Jumps);
  if (jumpsMoved != jumpsNow)
    return jumpsMoved < jumpsNow;
  return consecutiveAccesses(inner, out) > consecutiveAccesses(inner, in);
}
