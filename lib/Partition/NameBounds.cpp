//===- NameBounds.cpp - Named bounds of distributed loops -------*- C++ -*-===//
//
// Implements dist-name-bounds: a loop of a distributed form whose bound is
// the max or min of several terms (its range cut to the rank's block) gets
// that bound computed once, at the function's top level, as a value named
// after its iterator, so that the C reads `for (i = i_lo; i < i_hi; i++)`
// instead of a ternary or a `tmp`.
//
//===----------------------------------------------------------------------===//
#include "weft/Partition/Passes.h"

#include "LoopBounds.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"

namespace weft {
#define GEN_PASS_DEF_DISTNAMEBOUNDS
#include "weft/Partition/Passes.h.inc"
} // namespace weft

using namespace mlir;
using affine::AffineForOp;

namespace {
struct DistNameBounds : weft::impl::DistNameBoundsBase<DistNameBounds> {
  void runOnOperation() override;
};
} // end anonymous namespace

void DistNameBounds::runOnOperation() {
  func::FuncOp func = getOperation();
  // Only distributed forms: the sequential copy keeps the user's loops.
  if (!weft::isDistributedForm(func))
    return markAllAnalysesPreserved();

  Block *top = &func.getBody().front();
  SmallVector<AffineForOp> loops;
  func.walk([&](AffineForOp loop) {
    bool severalTerms = loop.getLowerBoundMap().getNumResults() > 1 ||
                        loop.getUpperBoundMap().getNumResults() > 1;
    // Bounds that follow an enclosing loop stay where they are.
    bool fromTopLevel = llvm::all_of(
        loop.getOperands(), [&](Value v) { return v.getParentBlock() == top; });
    if (severalTerms && fromTopLevel)
      loops.push_back(loop);
  });
  MLIRContext *ctx = func.getContext();
  AffineMap symbol = AffineMap::get(0, 1, getAffineSymbolExpr(0, ctx), ctx);
  for (AffineForOp loop : loops) {
    auto [lo, hi] =
        weft::hoistNamedBounds(loop, top->findAncestorOpInBlock(*loop));
    loop.setLowerBound(lo, symbol);
    loop.setUpperBound(hi, symbol);
  }
  if (loops.empty())
    markAllAnalysesPreserved();
}
