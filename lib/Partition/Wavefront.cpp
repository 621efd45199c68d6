//===- Wavefront.cpp - Gauss-Seidel time loops as wavefronts ----*- C++ -*-===//
//
// Implements dist-wavefront: a time loop t around one loop i that carries a
// flow dependence becomes stages s = skew * t + floor(i / tile), over tiles
// of i that one stage runs independently of each other.
//
//===----------------------------------------------------------------------===//
#include "dialects/Weft/IR/WeftDialect.h"
#include "weft/Partition/Passes.h"

#include "LoopBounds.h"

#include "weft/Analysis/Polyhedral/FlowDependences.h"
#include "weft/Analysis/Polyhedral/Wavefront.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/IR/IntegerSet.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

#include <optional>

namespace weft {
#define GEN_PASS_DEF_DISTWAVEFRONT
#include "weft/Partition/Passes.h.inc"
} // namespace weft

using namespace mlir;
using namespace weft;

namespace {
struct DistWavefront : weft::impl::DistWavefrontBase<DistWavefront> {
  using Base::Base;
  void runOnOperation() override {
    if (tile < 1) {
      getOperation().emitError() << "dist-wavefront: tile must be at least 1, "
                                    "got "
                                 << int64_t(tile);
      return signalPassFailure();
    }
    bool changed = false;
    for (func::FuncOp func : getOperation().getOps<func::FuncOp>())
      if (isDistributable(func))
        changed |= rewrite(func);
    if (!changed)
      markAllAnalysesPreserved();
  }
  /// Rewrites `func`'s time loops that qualify; whether any was.
  bool rewrite(func::FuncOp func);
};
} // end anonymous namespace

/// Whether `op` is index arithmetic (a downward loop's C iterator computed
/// from the normalised one), which moves with the body.
static bool isIndexArithmetic(Operation &op) {
  return op.getNumRegions() == 0 && isPure(&op);
}

/// The loop that is `loop`'s whole body besides index arithmetic, if any.
static affine::AffineForOp onlyLoopIn(affine::AffineForOp loop) {
  affine::AffineForOp only;
  for (Operation &op : loop.getBody()->without_terminator()) {
    if (isIndexArithmetic(op))
      continue;
    auto inner = dyn_cast<affine::AffineForOp>(op);
    if (!inner || only)
      return {};
    only = inner;
  }
  return only;
}

/// Whether `time` around `inner` has the form dist-wavefront rewrites.
static bool rewritable(affine::AffineForOp time, affine::AffineForOp inner,
                       const FlowDependenceInfo &deps) {
  // The inner bounds must not change with t, directly or through index
  // arithmetic in t's body.
  auto usesTime = [&](ValueRange operands) {
    return llvm::any_of(operands, [&](Value v) {
      return v == time.getInductionVar() ||
             (v.getDefiningOp() &&
              v.getDefiningOp()->getBlock() == time.getBody());
    });
  };
  return time.getStepAsInt() == 1 && inner.getStepAsInt() == 1 &&
         time.getLowerBoundMap().getNumResults() == 1 &&
         time.getUpperBoundMap().getNumResults() == 1 &&
         !usesTime(inner.getLowerBoundOperands()) &&
         !usesTime(inner.getUpperBoundOperands()) &&
         !time->hasAttr(dist::DistDialect::getLayoutAttrName()) &&
         !inner->hasAttr(dist::DistDialect::getLayoutAttrName()) &&
         !deps.carriesNoFlow(inner) && !deps.holdsFlowFreeLoop(time) &&
         !deps.loopReductions.count(time) && !deps.loopReductions.count(inner);
}

/// Rewrites `time` (whose body is `inner`) as the wavefront of
/// dist-wavefront's description; returns the stage loop.
static affine::AffineForOp buildWavefront(affine::AffineForOp time,
                                          affine::AffineForOp inner,
                                          int64_t skew, int64_t tile) {
  OpBuilder b(time);
  Location loc = time.getLoc();
  MLIRContext *ctx = time.getContext();
  BoundMap lbT = BoundMap::lower(time), ubT = BoundMap::upper(time);
  BoundMap lbI = BoundMap::lower(inner), ubI = BoundMap::upper(inner);
  // Tiles: b from floor(lb_i / tile) to floor((ub_i - 1) / tile) + 1.
  auto firstTile = [&](AffineExpr lb) { return lb.floorDiv(tile); };
  auto endTile = [&](AffineExpr ub) { return (ub - 1).floorDiv(tile) + 1; };
  auto each = [](ArrayRef<AffineExpr> results, auto f) {
    SmallVector<AffineExpr> out;
    for (AffineExpr e : results)
      out.push_back(f(e));
    return out;
  };
  // Stages: s = skew * t + b over [skew * lb_t + first tile,
  // skew * (ub_t - 1) + end tile).
  auto stages = b.create<affine::AffineForOp>(loc, 0, 1);
  setBound(stages, /*lower=*/true,
           combineBounds({lbT, lbI}, /*lower=*/true, [&](auto r) {
             return each(r[1], [&](AffineExpr lb) {
               return r[0][0] * skew + firstTile(lb);
             });
           }));
  setBound(stages, /*lower=*/false,
           combineBounds({ubT, ubI}, /*lower=*/false, [&](auto r) {
             return each(r[1], [&](AffineExpr ub) {
               return (r[0][0] - 1) * skew + endTile(ub);
             });
           }));
  Value s = stages.getInductionVar();
  // The tiles of stage s: those whose step t = (s - b) / skew exists.
  b.setInsertionPointToStart(stages.getBody());
  auto tiles = b.create<affine::AffineForOp>(loc, 0, 1);
  BoundMap stage = BoundMap::of(s);
  setBound(tiles, /*lower=*/true,
           combineBounds({lbI, stage, ubT}, /*lower=*/true, [&](auto r) {
             SmallVector<AffineExpr> all = each(r[0], firstTile);
             all.push_back(r[1][0] - (r[2][0] - 1) * skew);
             return all;
           }));
  setBound(tiles, /*lower=*/false,
           combineBounds({ubI, stage, lbT}, /*lower=*/false, [&](auto r) {
             SmallVector<AffineExpr> all = each(r[0], endTile);
             all.push_back(r[1][0] - r[2][0] * skew + 1);
             return all;
           }));
  Value tileIv = tiles.getInductionVar();
  b.setInsertionPointToStart(tiles.getBody());
  AffineExpr d0 = getAffineDimExpr(0, ctx), d1 = getAffineDimExpr(1, ctx);
  if (skew > 1) {
    auto set = IntegerSet::get(2, 0, {(d0 - d1) % skew}, {true});
    auto onStep = b.create<affine::AffineIfOp>(loc, set, ValueRange{s, tileIv},
                                               /*withElseRegion=*/false);
    b.setInsertionPointToStart(onStep.getThenBlock());
  }
  Value t = b.create<affine::AffineApplyOp>(
      loc, AffineMap::get(2, 0, (d0 - d1).floorDiv(skew)),
      ValueRange{s, tileIv});
  // The rows of tile b: [max(lb_i, tile * b), min(ub_i, tile * b + tile)).
  auto rows = b.create<affine::AffineForOp>(loc, 0, 1);
  BoundMap tileOf = BoundMap::of(tileIv);
  setBound(rows, /*lower=*/true,
           combineBounds({lbI, tileOf}, /*lower=*/true, [&](auto r) {
             SmallVector<AffineExpr> all(r[0]);
             all.push_back(r[1][0] * tile);
             return all;
           }));
  setBound(rows, /*lower=*/false,
           combineBounds({ubI, tileOf}, /*lower=*/false, [&](auto r) {
             SmallVector<AffineExpr> all(r[0]);
             all.push_back(r[1][0] * tile + tile);
             return all;
           }));
  // The index arithmetic of t's body and the body of `inner` move into the
  // rows loop's tile, at step t.
  for (Operation &op :
       llvm::make_early_inc_range(time.getBody()->without_terminator()))
    if (&op != inner.getOperation())
      op.moveBefore(rows);
  Block *from = inner.getBody();
  Block *to = rows.getBody();
  to->getOperations().splice(to->begin(), from->getOperations(), from->begin(),
                             std::prev(from->end()));
  inner.getInductionVar().replaceAllUsesWith(rows.getInductionVar());
  time.getInductionVar().replaceAllUsesWith(t);
  time.erase();
  return stages;
}

/// Folds the step t = (s - b) floordiv skew into the affine maps that use
/// it, so that the polyhedral model sees the accesses' subscripts again.
static void composeSteps(affine::AffineForOp stages) {
  SmallVector<Operation *> ops;
  stages.walk([&](Operation *op) { ops.push_back(op); });
  MLIRContext *ctx = stages.getContext();
  RewritePatternSet patterns(ctx);
  affine::AffineApplyOp::getCanonicalizationPatterns(patterns, ctx);
  affine::AffineLoadOp::getCanonicalizationPatterns(patterns, ctx);
  affine::AffineStoreOp::getCanonicalizationPatterns(patterns, ctx);
  affine::AffineForOp::getCanonicalizationPatterns(patterns, ctx);
  affine::AffineIfOp::getCanonicalizationPatterns(patterns, ctx);
  affine::AffineMinOp::getCanonicalizationPatterns(patterns, ctx);
  affine::AffineMaxOp::getCanonicalizationPatterns(patterns, ctx);
  GreedyRewriteConfig config;
  config.strictMode = GreedyRewriteStrictness::ExistingAndNewOps;
  (void)applyOpPatternsAndFold(ops, std::move(patterns), config);
}

/// Each legality check of a wavefront gets this fraction of the ISL quota:
/// the wavefront is an optimisation worth a few seconds of compile time,
/// not the quota's 20 (a check with floor divisions on a loop of four
/// statements took 20 s to give up).
static constexpr unsigned long kCheckShare = 10;

bool DistWavefront::rewrite(func::FuncOp func) {
  if (func->hasAttr(weft::WeftDialect::getNoDistAttrName()))
    return false;
  PolyhedralRegion &analysis = getChildAnalysis<PolyhedralRegion>(func);
  // A region the analysis cannot handle is dist-partition's to report.
  std::optional<ScopedDiagnosticHandler> quiet;
  quiet.emplace(&getContext(), [](Diagnostic &) { return success(); });
  FailureOr<FlowDependenceInfo> deps =
      computeFlowDependences(analysis, maxIslOperations);
  if (failed(deps))
    return false;
  // Outermost time loops first; a rewritten loop's inner loops are not
  // looked at again.
  SmallVector<std::pair<affine::AffineForOp, int64_t>> chosen;
  // The loop whose check went over its share (the search stops there).
  affine::AffineForOp tooCostly;
  func.walk<WalkOrder::PreOrder>([&](affine::AffineForOp time) {
    if (deps->carriesNoFlow(time) || deps->loopReductions.count(time))
      return WalkResult::skip();
    affine::AffineForOp inner = onlyLoopIn(time);
    if (!inner || !rewritable(time, inner, *deps))
      return WalkResult::advance();
    for (int64_t skew = 1; skew <= 4; ++skew) {
      FailureOr<bool> keeps = wavefrontKeepsDependences(
          analysis, time, skew, tile, maxIslOperations / kCheckShare);
      if (failed(keeps)) {
        tooCostly = time;
        return WalkResult::interrupt();
      }
      if (*keeps) {
        chosen.push_back({time, skew});
        return WalkResult::skip();
      }
    }
    return WalkResult::advance();
  });
  quiet.reset();
  if (report && tooCostly)
    tooCostly.emitRemark() << "not run as a wavefront: checking the "
                              "wavefront schedule took more than its share "
                              "of the ISL quota ("
                           << maxIslOperations / kCheckShare << " operations)";
  for (auto [time, skew] : chosen) {
    if (report)
      time.emitRemark() << "runs as a wavefront: tiles of " << int64_t(tile)
                        << " iterations of the inner loop, tile b of step t "
                           "at stage "
                        << skew << " * t + b";
    composeSteps(buildWavefront(time, onlyLoopIn(time), skew, tile));
  }
  return !chosen.empty();
}
