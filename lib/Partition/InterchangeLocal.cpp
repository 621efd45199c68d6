//===- InterchangeLocal.cpp - Swap marked loops in each rank's part -------===//
//
// Implements dist-interchange-local: a unit's loop dist-interchange-inner
// marked with `dist.interchange` (the swap with the innermost loop alone in
// it is legal and makes that loop walk rows) is swapped with it once
// dist-materialize has cut the loops to the rank's part. A block of the
// outer loop swaps where all of it may.
//
//===----------------------------------------------------------------------===//
#include "weft/Partition/Passes.h"

#include "ConsecutiveAccesses.h"

#include "dialects/Dist/IR/DistOps.h"

#include "weft/Support/SourceNames.h"

#include "mlir/Dialect/Affine/LoopUtils.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"

namespace weft {
#define GEN_PASS_DEF_DISTINTERCHANGELOCAL
#include "weft/Partition/Passes.h.inc"
} // namespace weft

using namespace mlir;
using namespace weft;

/// The innermost loop alone in `outer`, if that is what `outer` holds.
static affine::AffineForOp onlyInnermostLoop(affine::AffineForOp outer) {
  Block *body = outer.getBody();
  if (!llvm::hasSingleElement(body->without_terminator()))
    return {};
  auto inner = dyn_cast<affine::AffineForOp>(body->front());
  if (!inner ||
      inner.getBody()
          ->walk([](affine::AffineForOp) { return WalkResult::interrupt(); })
          .wasInterrupted())
    return {};
  return inner;
}

namespace {
struct DistInterchangeLocal
    : weft::impl::DistInterchangeLocalBase<DistInterchangeLocal> {
  using Base::Base;
  void runOnOperation() override {
    func::FuncOp func = getOperation();
    SmallVector<affine::AffineForOp> marked;
    func.walk([&](affine::AffineForOp loop) {
      if (loop->removeAttr(dist::DistDialect::getInterchangeAttrName()))
        marked.push_back(loop);
    });
    // The region as written for one rank swaps alike, silently.
    bool say =
        report && !func->hasAttr(dist::DistDialect::getSequentialAttrName());
    for (affine::AffineForOp outer : marked) {
      // dist-materialize keeps a unit's pair of loops as it was (bounds
      // cut to blocks); a shape it changed stays as it is.
      affine::AffineForOp inner = onlyInnermostLoop(outer);
      if (!inner || !worthMoving(outer, inner))
        continue;
      if (say)
        inner.emitRemark("interchanged with the loop at ")
            << lineOf(outer) << " around it, in each rank's part: the "
            << "innermost loop walks consecutive elements in "
            << consecutiveAccesses(inner, outer.getInductionVar())
            << " of its distinct accesses, not "
            << consecutiveAccesses(inner, inner.getInductionVar())
            << ", and carries no dependence";
      // A pin names the loops of its band in their old order; applied
      // already, it goes.
      outer->removeAttr(dist::DistDialect::getLayoutAttrName());
      affine::interchangeLoops(outer, inner);
    }
  }
};
} // end anonymous namespace
