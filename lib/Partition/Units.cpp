//===- Units.cpp - Units of work of a region function -----------*- C++ -*-===//
#include "Units.h"

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

static bool holdsParallelLoop(affine::AffineForOp loop,
                              const FlowDependenceInfo &deps) {
  return loop.getBody()
      ->walk([&](affine::AffineForOp inner) {
        return deps.loopIsParallel.lookup(inner) ? WalkResult::interrupt()
                                                 : WalkResult::advance();
      })
      .wasInterrupted();
}

static void collect(Block &block, SmallVector<Operation *, 2> &enclosing,
                    const FlowDependenceInfo &deps,
                    SmallVector<UnitCandidate> &units) {
  for (Operation &op : block.without_terminator()) {
    if (!accessesMemory(&op))
      continue;
    auto loop = dyn_cast<affine::AffineForOp>(&op);
    if (loop && !deps.loopIsParallel.lookup(loop) &&
        holdsParallelLoop(loop, deps)) {
      // A time loop: every rank runs it; its body holds the units.
      enclosing.push_back(loop);
      collect(*loop.getBody(), enclosing, deps, units);
      enclosing.pop_back();
      continue;
    }
    UnitCandidate c;
    c.unit.op = &op;
    c.unit.enclosing = enclosing;
    if (!loop)
      c.reason = "not a loop";
    else if (!deps.loopIsParallel.lookup(loop))
      c.reason = "the loop carries a dependence";
    else if (loop.getStepAsInt() != 1)
      c.reason = "the loop has a step other than 1";
    else
      c.distributable = true;
    units.push_back(std::move(c));
  }
}

SmallVector<UnitCandidate> weft::findUnits(func::FuncOp func,
                                           const FlowDependenceInfo &deps) {
  SmallVector<UnitCandidate> units;
  SmallVector<Operation *, 2> enclosing;
  collect(func.getBody().front(), enclosing, deps, units);
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
        Operation *def = v.getDefiningOp();
        bool early =
            def ? def->getBlock() == &func.getBody().front() &&
                      def->isBeforeInBlock(first)
                : cast<BlockArgument>(v).getOwner() ==
                          &func.getBody().front() ||
                      llvm::any_of(c.unit.enclosing, [&](Operation *e) {
                        return cast<affine::AffineForOp>(e).getInductionVar() ==
                               v;
                      });
        if (!early) {
          c.distributable = false;
          c.reason = "the loop bounds change during the region";
        }
      }
  }
  return units;
}

SmallVector<DistUnit> weft::recordedUnits(func::FuncOp func) {
  SmallVector<DistUnit> units;
  func.walk<WalkOrder::PreOrder>([&](Operation *op) {
    if (!op->hasAttr(kUnitAttr))
      return WalkResult::advance();
    DistUnit unit;
    unit.op = op;
    unit.distributed = op->hasAttr(kDistributeAttr);
    for (Operation *p = op->getParentOp(); p != func; p = p->getParentOp())
      unit.enclosing.insert(unit.enclosing.begin(), p);
    units.push_back(std::move(unit));
    return WalkResult::skip();
  });
  return units;
}
