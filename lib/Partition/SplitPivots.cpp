//===- SplitPivots.cpp - Split loops at their pivot iteration ---*- C++ -*-===//
//
// Implements dist-split-pivots: a loop whose carried flow dependences all
// start or end at one iteration p becomes three loops, [lb, p), [p, p + 1)
// and [p + 1, ub), none of which carries a flow dependence.
//
//===----------------------------------------------------------------------===//
#include "weft/Partition/Passes.h"

#include "weft/Analysis/Polyhedral/Communication.h"
#include "weft/Analysis/Polyhedral/FlowDependences.h"
#include "weft/Analysis/Polyhedral/LoopPivots.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/IR/Dominance.h"

#include <optional>

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
      changed |= split(func);
    if (!changed)
      markAllAnalysesPreserved();
  }
  /// Splits `func`'s loops at their pivots; whether any was.
  bool split(func::FuncOp func);
};
} // end anonymous namespace

/// The bound `map` of a max (`lower`) or min without repeated results and
/// with at most one constant, the greatest (least) of them.
static AffineMap withoutRedundantResults(AffineMap map, bool lower) {
  SmallVector<AffineExpr> results;
  std::optional<int64_t> constant;
  for (AffineExpr e : map.getResults()) {
    if (auto c = dyn_cast<AffineConstantExpr>(e)) {
      int64_t v = c.getValue();
      constant = !constant ? v
                 : lower   ? std::max(*constant, v)
                           : std::min(*constant, v);
    } else if (!llvm::is_contained(results, e)) {
      results.push_back(e);
    }
  }
  if (constant)
    results.push_back(getAffineConstantExpr(*constant, map.getContext()));
  return AffineMap::get(map.getNumDims(), map.getNumSymbols(), results,
                        map.getContext());
}

/// One bound with the results of `a` and `b`, over the operands (a's dims,
/// b's dims, a's symbols, b's symbols) it returns: their max if `lower`,
/// else their min.
static std::pair<AffineMap, SmallVector<Value>>
concatResults(AffineMap a, ValueRange aOperands, AffineMap b,
              ValueRange bOperands, bool lower) {
  unsigned aDims = a.getNumDims(), bDims = b.getNumDims();
  unsigned aSyms = a.getNumSymbols(), bSyms = b.getNumSymbols();
  SmallVector<AffineExpr> results(a.getResults());
  for (AffineExpr e : b.getResults())
    results.push_back(e.shiftDims(bDims, aDims).shiftSymbols(bSyms, aSyms));
  SmallVector<Value> operands(aOperands.take_front(aDims));
  llvm::append_range(operands, bOperands.take_front(bDims));
  llvm::append_range(operands, aOperands.drop_front(aDims));
  llvm::append_range(operands, bOperands.drop_front(bDims));
  AffineMap map = withoutRedundantResults(
      AffineMap::get(aDims + bDims, aSyms + bSyms, results, a.getContext()),
      lower);
  affine::canonicalizeMapAndOperands(&map, &operands);
  return {map, operands};
}

/// Splits `loop` at `pivot` in place: two copies before it run [lb, p) and
/// [p, p + 1), the loop itself [p + 1, ub). Pieces with constant bounds
/// that run nothing are left out.
static void splitAt(affine::AffineForOp loop, const LoopPivot &pivot,
                    int64_t id) {
  AffineMap p = pivot.map;
  AffineMap next = AffineMap::get(p.getNumDims(), p.getNumSymbols(),
                                  p.getResult(0) + 1, p.getContext());
  OpBuilder b(loop);
  auto before = cast<affine::AffineForOp>(b.clone(*loop));
  auto at = cast<affine::AffineForOp>(b.clone(*loop));
  auto bound = [&](affine::AffineForOp piece, bool lower, AffineMap extra) {
    AffineMap map = lower ? loop.getLowerBoundMap() : loop.getUpperBoundMap();
    SmallVector<Value> operands(lower ? loop.getLowerBoundOperands()
                                      : loop.getUpperBoundOperands());
    auto [merged, mergedOperands] =
        concatResults(map, operands, extra, pivot.operands, lower);
    if (lower)
      piece.setLowerBound(mergedOperands, merged);
    else
      piece.setUpperBound(mergedOperands, merged);
  };
  bound(before, /*lower=*/false, p);
  bound(at, /*lower=*/true, p);
  bound(at, /*lower=*/false, next);
  bound(loop, /*lower=*/true, next);
  auto mark = IntegerAttr::get(IntegerType::get(loop.getContext(), 64), id);
  for (affine::AffineForOp piece : {before, at, loop}) {
    piece->setAttr(kPivotSplitAttr, mark);
    if (piece.hasConstantBounds() &&
        piece.getConstantLowerBound() >= piece.getConstantUpperBound() &&
        piece != loop)
      piece.erase();
  }
}

/// Whether `op` holds a loop that carries no flow dependence.
static bool holdsFlowFreeLoop(Operation *op, const FlowDependenceInfo &deps) {
  return op
      ->walk([&](affine::AffineForOp inner) {
        return inner != op && deps.carriesNoFlow(inner)
                   ? WalkResult::interrupt()
                   : WalkResult::advance();
      })
      .wasInterrupted();
}

bool DistSplitPivots::split(func::FuncOp func) {
  if (func->hasAttr("weft.nodist"))
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
  // dependence other than a reduction's and hold no loop free of them.
  // Inside such a loop or a reduction, the unit to distribute is that loop.
  SmallVector<affine::AffineForOp> candidates;
  func.walk<WalkOrder::PreOrder>([&](affine::AffineForOp loop) {
    if (deps->carriesNoFlow(loop) || deps->loopReductions.count(loop))
      return WalkResult::skip();
    if (loop.getStepAsInt() == 1 && !holdsFlowFreeLoop(loop, *deps))
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
