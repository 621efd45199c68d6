//===- ConsecutiveAccesses.cpp - Accesses that walk rows ------------------===//
#include "ConsecutiveAccesses.h"

#include "mlir/Dialect/Affine/Analysis/AffineAnalysis.h"
#include "mlir/Dialect/Affine/IR/AffineValueMap.h"

using namespace mlir;

/// Whether the access `op` (an affine load or store) walks consecutive
/// elements along `iv`.
static bool consecutiveAlong(Operation *op, Value iv) {
  affine::MemRefAccess access(op);
  if (access.getRank() == 0)
    return false;
  affine::AffineValueMap map;
  access.getAccessMap(&map);
  AffineMap m = map.getAffineMap();
  auto position = llvm::find(map.getOperands(), iv);
  if (position == map.getOperands().end())
    return false; // The same element at each step.
  unsigned d = position - map.getOperands().begin();
  if (d >= m.getNumDims())
    return false;
  // The difference each result makes when `iv` grows by one.
  MLIRContext *ctx = op->getContext();
  SmallVector<AffineExpr> shifted;
  for (unsigned i = 0; i < m.getNumDims(); ++i)
    shifted.push_back(getAffineDimExpr(i, ctx) +
                      (i == d ? getAffineConstantExpr(1, ctx)
                              : getAffineConstantExpr(0, ctx)));
  unsigned last = m.getNumResults() - 1;
  for (auto [i, result] : llvm::enumerate(m.getResults())) {
    AffineExpr step = simplifyAffineExpr(result.replaceDims(shifted) - result,
                                         m.getNumDims(), m.getNumSymbols());
    auto c = dyn_cast<AffineConstantExpr>(step);
    if (!c)
      return false;
    int64_t want = c.getValue();
    if (i == last ? (want != 1 && want != -1) : want != 0)
      return false;
  }
  return true;
}

unsigned weft::consecutiveAccesses(affine::AffineForOp loop, Value iv) {
  SmallVector<affine::MemRefAccess> seen;
  unsigned n = 0;
  loop.walk([&](Operation *op) {
    if (!isa<affine::AffineReadOpInterface, affine::AffineWriteOpInterface>(op))
      return;
    affine::MemRefAccess access(op);
    if (llvm::is_contained(seen, access))
      return;
    seen.push_back(access);
    n += consecutiveAlong(op, iv);
  });
  return n;
}

bool weft::worthMoving(affine::AffineForOp outer, affine::AffineForOp inner) {
  if (inner.getNumResults() || outer.getNumResults())
    return false;
  for (Value v : inner.getOperands())
    if (outer.getRegion().isAncestor(v.getParentRegion()))
      return false;
  return consecutiveAccesses(inner, outer.getInductionVar()) >
         consecutiveAccesses(inner, inner.getInductionVar());
}
