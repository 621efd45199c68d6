//===- SplitPivots.cpp - Split loops at their pivot iteration ---*- C++ -*-===//
//
// Implements dist-split-pivots: a loop whose carried flow dependences all
// start or end at one iteration p becomes three loops, [lb, p), [p, p + 1)
// and [p + 1, ub), none of which carries a flow dependence.
//
//===----------------------------------------------------------------------===//
#include "dialects/Weft/IR/WeftDialect.h"
#include "weft/Partition/Passes.h"

#include "dialects/Dist/IR/DistOps.h"

#include "LoopBounds.h"

#include "weft/Analysis/Polyhedral/Communication.h"
#include "weft/Analysis/Polyhedral/FlowDependences.h"
#include "weft/Analysis/Polyhedral/LoopPivots.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/IR/Dominance.h"

namespace weft {
#define GEN_PASS_DEF_DISTSPLITPIVOTS
#include "weft/Partition/Passes.h.inc"
} // namespace weft

using namespace mlir;
using namespace weft;

namespace {
struct DistSplitPivots : weft::impl::DistSplitPivotsBase<DistSplitPivots> {
  using Base::Base;
  void runOnOperation() override {
    bool changed = false;
    for (func::FuncOp func : getOperation().getOps<func::FuncOp>())
      if (isDistributable(func))
        changed |= split(func);
    if (!changed)
      markAllAnalysesPreserved();
  }
  /// Splits `func`'s loops at their pivots; whether any was.
  bool split(func::FuncOp func);
};
} // end anonymous namespace

/// Splits `loop` at `pivot` in place into [lb, p), [p, p + 1) and
/// [p + 1, ub): copies before it run the first pieces, the loop itself the
/// last. Pieces that never run an iteration are left out.
static void splitAt(affine::AffineForOp loop, const LoopPivot &pivot,
                    int64_t id) {
  AffineMap p = pivot.map;
  AffineMap next = AffineMap::get(p.getNumDims(), p.getNumSymbols(),
                                  p.getResult(0) + 1, p.getContext());
  BoundMap pivotAt{p, pivot.operands}, pivotNext{next, pivot.operands};
  BoundMap lower = BoundMap::lower(loop), upper = BoundMap::upper(loop);
  // The loop's bound and the pivot, as a max (lower) or min (upper).
  auto bound = [&](affine::AffineForOp piece, bool isLower,
                   const BoundMap &extra) {
    setBound(piece, isLower,
             combineBounds({isLower ? lower : upper, extra}, isLower,
                           [](auto results) {
                             SmallVector<AffineExpr> all(results[0]);
                             llvm::append_range(all, results[1]);
                             return all;
                           }));
  };
  OpBuilder b(loop);
  SmallVector<affine::AffineForOp, 3> pieces;
  if (pivot.runsBefore) {
    pieces.push_back(cast<affine::AffineForOp>(b.clone(*loop)));
    bound(pieces.back(), /*isLower=*/false, pivotAt);
  }
  affine::AffineForOp at =
      pivot.runsAfter ? cast<affine::AffineForOp>(b.clone(*loop)) : loop;
  pieces.push_back(at);
  bound(at, /*isLower=*/true, pivotAt);
  bound(at, /*isLower=*/false, pivotNext);
  if (pivot.runsAfter) {
    pieces.push_back(loop);
    bound(loop, /*isLower=*/true, pivotNext);
  }
  auto mark = IntegerAttr::get(IntegerType::get(loop.getContext(), 64), id);
  for (affine::AffineForOp piece : pieces)
    piece->setAttr(dist::DistDialect::getPivotSplitAttrName(), mark);
}

/// Whether a `#pragma weft distribute` asks for `loop` to be distributed:
/// then it is split even if a loop inside it could be distributed instead.
static bool pinnedDistributed(affine::AffineForOp loop) {
  auto layout = loop->getAttrOfType<dist::LayoutAttr>(
      dist::DistDialect::getLayoutAttrName());
  return layout && layout.getDims().front().isDistributed();
}

bool DistSplitPivots::split(func::FuncOp func) {
  if (func->hasAttr(weft::WeftDialect::getNoDistAttrName()))
    return false;
  PolyhedralRegion &analysis = getChildAnalysis<PolyhedralRegion>(func);
  // A region the analysis cannot handle is dist-partition's to report.
  FailureOr<FlowDependenceInfo> deps;
  {
    ScopedDiagnosticHandler quiet(&getContext(),
                                  [](Diagnostic &) { return success(); });
    deps = computeFlowDependences(analysis, maxIslOperations);
  }
  if (failed(deps))
    return false;
  // Loops that would run replicated as a whole: they carry a flow
  // dependence other than a reduction's and hold no loop free of them (or
  // a directive pins their distribution). Inside such a loop or a
  // reduction, the unit to distribute is that loop.
  SmallVector<affine::AffineForOp> candidates;
  func.walk<WalkOrder::PreOrder>([&](affine::AffineForOp loop) {
    if (deps->carriesNoFlow(loop) || deps->loopReductions.count(loop))
      return WalkResult::skip();
    if (loop.getStepAsInt() == 1 &&
        (!deps->holdsFlowFreeLoop(loop) || pinnedDistributed(loop)))
      candidates.push_back(loop);
    return WalkResult::advance();
  });
  if (candidates.empty())
    return false;
  FailureOr<llvm::DenseMap<Operation *, LoopPivot>> pivots;
  {
    ScopedDiagnosticHandler quiet(&getContext(),
                                  [](Diagnostic &) { return success(); });
    pivots = computeLoopPivots(analysis, candidates, maxIslOperations);
  }
  if (failed(pivots))
    return false;
  DominanceInfo dominance(func);
  SmallVector<Operation *> split;
  for (affine::AffineForOp loop : candidates) {
    auto it = pivots->find(loop);
    // The outermost loop of a nest only: the pieces of a split loop carry
    // no flow dependence, and their inner loops run on one rank each.
    if (it == pivots->end() || llvm::any_of(split, [&](Operation *s) {
          return s->isProperAncestor(loop);
        }))
      continue;
    const LoopPivot &pivot = it->second;
    bool usable = llvm::all_of(
        ArrayRef<Value>(pivot.operands).drop_front(pivot.map.getNumDims()),
        [&](Value v) {
          return affine::isValidSymbol(v) &&
                 dominance.properlyDominates(v, loop);
        });
    if (!usable)
      continue;
    if (report)
      loop.emitRemark() << "split at iteration " << pivot.text
                        << ": every flow dependence the loop carries starts "
                           "or ends there";
    splitAt(loop, pivot, split.size());
    split.push_back(loop);
  }
  return !split.empty();
}
