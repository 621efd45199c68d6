//===- Units.cpp - Units of work of a region function -----------*- C++ -*-===//
#include "Units.h"

#include "dialects/Dist/IR/DistOps.h"
#include "mlir/Dialect/Affine/IR/AffineOps.h"

using namespace mlir;
using namespace weft;

static bool accessesMemory(Operation *op) {
  return op
      ->walk([](Operation *inner) {
        return isa<affine::AffineLoadOp, affine::AffineStoreOp>(inner)
                   ? WalkResult::interrupt()
                   : WalkResult::advance();
      })
      .wasInterrupted();
}

/// Whether the partial results can be combined element by element: one
/// kind of update per array.
static bool combinable(ArrayRef<UnitReduction> reductions) {
  for (const UnitReduction &r : reductions)
    for (const UnitReduction &other : reductions)
      if (cast<affine::AffineStoreOp>(r.store).getMemRef() ==
              cast<affine::AffineStoreOp>(other.store).getMemRef() &&
          r.kind != other.kind)
        return false;
  return true;
}

/// Whether every reduction `loop` carries may be split across ranks.
static bool splittable(Operation *loop, const FlowDependenceInfo &deps,
                       bool splitFpReductions) {
  auto it = deps.carriedReductions.find(loop);
  if (it == deps.carriedReductions.end())
    return false;
  return splitFpReductions ||
         llvm::none_of(it->second, [](const FlowDependenceInfo::Reduction &r) {
           return isa<FloatType>(cast<affine::AffineStoreOp>(r.store)
                                     .getValueToStore()
                                     .getType());
         });
}

/// Whether some loop nested in `loop` satisfies `pred`.
static bool holdsLoop(affine::AffineForOp loop,
                      function_ref<bool(affine::AffineForOp)> pred) {
  return loop.getBody()
      ->walk([&](affine::AffineForOp inner) {
        return pred(inner) ? WalkResult::interrupt() : WalkResult::advance();
      })
      .wasInterrupted();
}

/// Whether a `#pragma weft distribute` names a loop nested in `loop`.
static bool pinsInside(affine::AffineForOp loop) {
  return holdsLoop(loop, [](affine::AffineForOp inner) {
    return inner->hasAttr(dist::DistDialect::getLayoutAttrName());
  });
}

/// Whether a `#pragma weft distribute` asks to split a loop nested in
/// `loop`.
static bool distributesInside(affine::AffineForOp loop) {
  return holdsLoop(loop, [](affine::AffineForOp inner) {
    auto layout = inner->getAttrOfType<dist::LayoutAttr>(
        dist::DistDialect::getLayoutAttrName());
    return layout && layout.getDims().front().isDistributed();
  });
}

static bool holdsSplittableLoop(affine::AffineForOp loop,
                                const FlowDependenceInfo &deps,
                                bool splitFpReductions) {
  return holdsLoop(loop, [&](affine::AffineForOp inner) {
    return splittable(inner, deps, splitFpReductions);
  });
}

/// Whether `loop`'s body is one loop, holding every access of the body,
/// that carries no flow dependence and has step 1 (so that a 2-D grid may
/// split both: no value flows between iterations of either).
static bool splitsInnerLoop(affine::AffineForOp loop,
                            const FlowDependenceInfo &deps) {
  affine::AffineForOp inner = innerGridLoop(loop);
  if (!inner || inner.getStepAsInt() != 1 || !deps.carriesNoFlow(inner))
    return false;
  return llvm::all_of(loop.getBody()->without_terminator(), [&](Operation &op) {
    return &op == inner.getOperation() || !accessesMemory(&op);
  });
}

static void collect(Block &block, SmallVector<Operation *, 2> &enclosing,
                    const FlowDependenceInfo &deps, bool splitFpReductions,
                    SmallVector<UnitCandidate> &units) {
  for (Operation &op : block.without_terminator()) {
    if (!accessesMemory(&op))
      continue;
    auto loop = dyn_cast<affine::AffineForOp>(&op);
    // A loop whose iterations only combine into shared accumulators is a
    // unit of work: split across ranks, its partial results get combined.
    bool reductionOnly = loop && !deps.carriesNoFlow(loop) &&
                         splittable(loop, deps, splitFpReductions);
    // Unless a directive distributes a loop inside it: then it is a time
    // loop, like any other loop that carries a dependence.
    if (reductionOnly && pinsInside(loop))
      reductionOnly = false;
    // A loop around a loop a directive splits runs on every rank too, even
    // one that carries no dependence: the user chose the inner loop.
    if (loop && !reductionOnly &&
        (distributesInside(loop) ||
         (!deps.carriesNoFlow(loop) &&
          (deps.holdsFlowFreeLoop(loop) ||
           holdsSplittableLoop(loop, deps, splitFpReductions))))) {
      // A time loop: every rank runs it; its body holds the units.
      enclosing.push_back(loop);
      collect(*loop.getBody(), enclosing, deps, splitFpReductions, units);
      enclosing.pop_back();
      continue;
    }
    UnitCandidate c;
    c.unit.op = &op;
    c.unit.enclosing = enclosing;
    if (reductionOnly)
      for (const FlowDependenceInfo::Reduction &r :
           deps.carriedReductions.lookup(loop))
        c.unit.reductions.push_back({r.store, r.kind});
    if (!loop)
      c.reason = "not a loop";
    else if (!deps.carriesNoFlow(loop) && !reductionOnly)
      c.reason = splitsWithFpReductionsOnly(loop, deps)
                     ? kFpReductionsOrdered.str()
                     : "the loop carries a flow dependence";
    else if (loop.getStepAsInt() != 1)
      c.reason = "the loop has a step other than 1";
    else if (!combinable(c.unit.reductions))
      c.reason = "it updates one array with two kinds of reduction";
    else
      c.distributable = true;
    c.gridCapable =
        c.distributable && c.unit.reductions.empty() &&
        !loop->hasAttr(dist::DistDialect::getPivotSplitAttrName()) &&
        splitsInnerLoop(loop, deps);
    units.push_back(std::move(c));
  }
}

SmallVector<UnitCandidate> weft::findUnits(func::FuncOp func,
                                           const FlowDependenceInfo &deps,
                                           bool splitFpReductions) {
  SmallVector<UnitCandidate> units;
  SmallVector<Operation *, 2> enclosing;
  collect(func.getBody().front(), enclosing, deps, splitFpReductions, units);
  if (units.empty())
    return units;
  // A distributed loop's range must be known before the first unit, where
  // every rank computes its blocks: its bounds (and those of the loops
  // around it) may use values defined by then, and the iterators of those
  // loops (the range is then the hull over all their iterations).
  Operation *first = units.front().unit.op;
  while (first->getParentOp() != func)
    first = first->getParentOp();
  for (UnitCandidate &c : units) {
    if (!c.distributable)
      continue;
    SmallVector<Operation *> loops(c.unit.enclosing.begin(),
                                   c.unit.enclosing.end());
    loops.push_back(c.unit.op);
    for (Operation *loop : loops)
      for (Value v : loop->getOperands()) {
        bool early =
            definedBefore(v, first) ||
            llvm::any_of(c.unit.enclosing, [&](Operation *e) {
              return cast<affine::AffineForOp>(e).getInductionVar() == v;
            });
        if (!early) {
          c.distributable = false;
          c.gridCapable = false;
          c.reason = "the loop bounds change during the region";
        }
      }
    // The inner loop's range must be the same for every iteration of the
    // loops around it: values defined before the first unit only.
    if (c.gridCapable)
      for (Value v :
           innerGridLoop(cast<affine::AffineForOp>(c.unit.op))->getOperands())
        if (!definedBefore(v, first))
          c.gridCapable = false;
  }
  return units;
}

bool weft::definedBefore(Value v, Operation *op) {
  if (auto arg = dyn_cast<BlockArgument>(v))
    return arg.getOwner() == op->getBlock();
  Operation *def = v.getDefiningOp();
  return def->getBlock() == op->getBlock() && def->isBeforeInBlock(op);
}

GridPreference weft::gridPreference(func::FuncOp func) {
  GridPreference p;
  auto grid =
      func->getAttrOfType<dist::GridAttr>(dist::DistDialect::getGridAttrName());
  if (!grid)
    return p;
  p.allowsGrid = grid.getRank() != 1;
  if (grid.getRank() != 2)
    return p;
  auto extent = [&](unsigned axis) {
    return grid.isDynamicAxis(axis) ? 0 : grid.getShape()[axis];
  };
  p.rows = extent(0);
  p.cols = extent(1);
  return p;
}

bool weft::splitsWithFpReductionsOnly(Operation *loop,
                                      const FlowDependenceInfo &deps) {
  return splittable(loop, deps, /*splitFpReductions=*/true) &&
         !splittable(loop, deps, /*splitFpReductions=*/false);
}

SmallVector<DistUnit> weft::recordedUnits(func::FuncOp func) {
  SmallVector<DistUnit> units;
  func.walk<WalkOrder::PreOrder>([&](Operation *op) {
    if (!op->hasAttr(dist::DistDialect::getUnitAttrName()))
      return WalkResult::advance();
    DistUnit unit;
    unit.op = op;
    Attribute distribution =
        op->getAttr(dist::DistDialect::getDistributeAttrName());
    unit.distributed = bool(distribution);
    if (auto layout = dyn_cast_or_null<dist::LayoutAttr>(distribution))
      unit.gridDims = layout.getRank();
    op->walk([&](affine::AffineStoreOp store) {
      if (auto kind = store->getAttrOfType<StringAttr>(
              dist::DistDialect::getReduceAttrName()))
        unit.reductions.push_back({store, kind.str()});
    });
    for (Operation *p = op->getParentOp(); p != func; p = p->getParentOp())
      unit.enclosing.insert(unit.enclosing.begin(), p);
    units.push_back(std::move(unit));
    return WalkResult::skip();
  });
  return units;
}
