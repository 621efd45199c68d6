//===- VectorRuns.cpp - Fixed-length runs in distributed loops --*- C++ -*-===//
//
// Implements dist-vector-runs: an innermost parallel loop of a distributed
// form, whose trip count a rank's block makes a run-time value, becomes a
// loop over runs of exactly L iterations and a remainder loop, which gcc -O2
// vectorises as it does the sequential program's constant-bound loops.
//
//===----------------------------------------------------------------------===//
#include "weft/Partition/Passes.h"

#include "LoopBounds.h"

#include "dialects/Dist/IR/DistOps.h"

#include "mlir/Dialect/Affine/Analysis/AffineAnalysis.h"
#include "mlir/Dialect/Affine/Analysis/LoopAnalysis.h"
#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/IRMapping.h"

namespace weft {
#define GEN_PASS_DEF_DISTVECTORRUNS
#include "weft/Partition/Passes.h.inc"
} // namespace weft

using namespace mlir;
using affine::AffineForOp;

namespace {
struct DistVectorRuns : weft::impl::DistVectorRunsBase<DistVectorRuns> {
  using Base::Base;
  void runOnOperation() override;
};
} // end anonymous namespace

/// Whether `access` (an affine load or store) steps through its array's last
/// dimension by one element per iteration of `loop`, the other subscripts
/// fixed: the access a vector load or store serves.
static bool walksLastDimension(Operation *access, AffineForOp loop) {
  AffineMap map;
  ValueRange operands;
  if (auto load = dyn_cast<affine::AffineReadOpInterface>(access)) {
    map = load.getAffineMap();
    operands = load.getMapOperands();
  } else if (auto store = dyn_cast<affine::AffineWriteOpInterface>(access)) {
    map = store.getAffineMap();
    operands = store.getMapOperands();
  } else {
    return false;
  }
  if (map.getNumResults() == 0)
    return false;
  // The iterator as a dimension of `map` (an operand that is a symbol is
  // loop-invariant by definition).
  auto position = llvm::find(operands, loop.getInductionVar());
  if (position == operands.end() ||
      unsigned(position - operands.begin()) >= map.getNumDims())
    return false;
  unsigned dim = position - operands.begin();
  for (AffineExpr subscript : map.getResults().drop_back())
    if (subscript.isFunctionOfDim(dim))
      return false;
  AffineExpr last = map.getResults().back();
  MLIRContext *ctx = map.getContext();
  AffineExpr next =
      last.replace(getAffineDimExpr(dim, ctx), getAffineDimExpr(dim, ctx) + 1);
  return simplifyAffineExpr(next - last, map.getNumDims(),
                            map.getNumSymbols()) ==
         getAffineConstantExpr(1, ctx);
}

/// Whether splitting `loop` into runs pays and can be written with bounds
/// computed in `func`'s top level.
static bool worthRuns(AffineForOp loop, func::FuncOp func,
                      unsigned maxBodyOps) {
  if (loop.getStepAsInt() != 1 || loop.getNumIterOperands() != 0 ||
      affine::getConstantTripCount(loop))
    return false;
  unsigned bodyOps = 0;
  bool contiguous = false;
  for (Operation &op : loop.getBody()->without_terminator()) {
    if (op.getNumRegions() != 0 || ++bodyOps > maxBodyOps)
      return false;
    contiguous |= walksLastDimension(&op, loop);
  }
  if (!contiguous)
    return false;
  // A loop in the band of a `dist.layout` (the user's or the partitioner's
  // distribution of a perfect nest) stays, so that the band does too.
  unsigned distance = 1;
  for (Operation *outer = loop->getParentOp(); outer != func;
       outer = outer->getParentOp(), ++distance)
    if (auto layout = outer->getAttrOfType<weft::dist::LayoutAttr>(
            weft::dist::DistDialect::getLayoutAttrName()))
      if (layout.getRank() > distance)
        return false;
  Block *top = &func.getBody().front();
  for (Value bound : loop.getOperands())
    if (bound.getParentBlock() != top)
      return false;
  return affine::isLoopParallel(loop);
}

/// Copies `from`'s body into `to`'s, `from`'s iterator replaced by `to`'s.
static void cloneBody(AffineForOp from, AffineForOp to) {
  IRMapping mapping;
  mapping.map(from.getInductionVar(), to.getInductionVar());
  to.getInductionVar().setLoc(from.getInductionVar().getLoc());
  OpBuilder b = OpBuilder::atBlockTerminator(to.getBody());
  for (Operation &op : from.getBody()->without_terminator())
    b.clone(op, mapping);
}

/// Replaces `loop` by runs of `length` iterations and the remainder; the
/// bounds are computed just before `loop`'s outermost enclosing op.
static void splitIntoRuns(AffineForOp loop, Operation *topLevelOp,
                          int64_t length) {
  MLIRContext *ctx = loop.getContext();
  Location ivLoc = loop.getInductionVar().getLoc();
  auto named = [&](StringRef suffix) {
    return weft::namedAfter(loop, ivLoc, suffix);
  };

  auto [lo, hi] = weft::hoistNamedBounds(loop, topLevelOp);
  OpBuilder b(topLevelOp);
  // hi - (hi - lo) % L: lo plus the whole runs when lo <= hi; when hi < lo
  // (C's remainder takes the dividend's sign) between hi and lo, so that
  // neither loop runs.
  Location loc = loop.getLoc();
  Value runLength = b.create<arith::ConstantIndexOp>(loc, length);
  Value span = b.create<arith::SubIOp>(loc, hi, lo);
  Value partial = b.create<arith::RemSIOp>(loc, span, runLength);
  Value runsEnd = b.create<arith::SubIOp>(named("_runs_end"), hi, partial);

  AffineExpr s0 = getAffineSymbolExpr(0, ctx);
  AffineMap symbol = AffineMap::get(0, 1, s0, ctx);
  AffineExpr d0 = getAffineDimExpr(0, ctx);
  b.setInsertionPoint(loop);
  auto runs = b.create<AffineForOp>(loc, ValueRange{lo}, symbol,
                                    ValueRange{runsEnd}, symbol, length);
  runs.getInductionVar().setLoc(named("_run"));
  b.setInsertionPointToStart(runs.getBody());
  Value runStart = runs.getInductionVar();
  auto run = b.create<AffineForOp>(
      loc, ValueRange{runStart}, AffineMap::get(1, 0, d0, ctx),
      ValueRange{runStart}, AffineMap::get(1, 0, d0 + length, ctx));
  cloneBody(loop, run);

  b.setInsertionPoint(loop);
  auto rest = b.create<AffineForOp>(loc, ValueRange{runsEnd}, symbol,
                                    ValueRange{hi}, symbol);
  cloneBody(loop, rest);
  loop.erase();
}

void DistVectorRuns::runOnOperation() {
  func::FuncOp func = getOperation();
  if (runLength < 2) {
    func.emitError("dist-vector-runs: run-length must be at least 2, not ")
        << int64_t(runLength);
    return signalPassFailure();
  }
  // Only distributed forms: the sequential copy and undistributed regions
  // stay as the user wrote them.
  if (!weft::isDistributedForm(func))
    return markAllAnalysesPreserved();

  SmallVector<AffineForOp> loops;
  func.walk([&](AffineForOp loop) {
    if (worthRuns(loop, func, maxBodyOps))
      loops.push_back(loop);
  });
  Block *top = &func.getBody().front();
  for (AffineForOp loop : loops)
    splitIntoRuns(loop, top->findAncestorOpInBlock(*loop), runLength);
  if (loops.empty())
    markAllAnalysesPreserved();
}
