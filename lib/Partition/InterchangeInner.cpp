//===- InterchangeInner.cpp - Contiguous, chain-free innermost loops ------===//
//
// Implements dist-interchange-inner: an innermost loop that walks a column
// or carries a chain of dependent operations (2mm's `for k tmp[i][j] +=
// A[i][k] * B[k][j]`) is swapped with the parallel loop around it where
// more of its accesses walk consecutive elements along that loop, after
// distributing that loop around it where needed. The new innermost loop
// carries nothing and walks rows, which the C compiler vectorises whatever
// it knows of the bounds. The legality comes from the region's exact
// dependences (LoopReordering.h). A unit's own loop stays for the
// partitioner: marked, and swapped after it (InterchangeLocal.cpp).
//
//===----------------------------------------------------------------------===//
#include "weft/Partition/Passes.h"

#include "ConsecutiveAccesses.h"
#include "ExpandScalars.h"
#include "Units.h"

#include "dialects/Dist/IR/DistOps.h"

#include "weft/Analysis/Polyhedral/LoopReordering.h"
#include "weft/Support/ArgumentAliasing.h"
#include "weft/Support/SourceNames.h"

#include "mlir/Dialect/Affine/LoopUtils.h"
#include "mlir/IR/Diagnostics.h"

namespace weft {
#define GEN_PASS_DEF_DISTINTERCHANGEINNER
#include "weft/Partition/Passes.h.inc"
} // namespace weft

using namespace mlir;
using namespace weft;

namespace {
/// A loop with, among the ops of its body, innermost loops to swap with
/// it.
struct Nest {
  affine::AffineForOp outer;
  SmallVector<Operation *> children;
  /// Indices into `children` of the loops to move, and their interchange
  /// queries.
  SmallVector<unsigned> inner;
  SmallVector<int> interchange;
  int distribution = -1;
  /// The pins around `outer` whose entries from `outer` down (replicated,
  /// all of them) a distribution would leave without their loops, with
  /// the depth of `outer` below each.
  SmallVector<std::pair<affine::AffineForOp, unsigned>> pins;
  /// Whether `outer` is a unit's loop: marked, not swapped (distributed
  /// first where it holds more than the loop to move).
  bool unitLoop = false;
  /// Whether its body is ops without loops and then the loop to move, the
  /// shape a unit's loop must have.
  bool pair = false;
  /// The scalars that tied the loop to move to `outer`, now arrays.
  ExpandedScalars expanded;
};

struct DistInterchangeInner
    : weft::impl::DistInterchangeInnerBase<DistInterchangeInner> {
  using Base::Base;
  void runOnOperation() override {
    for (func::FuncOp func : getOperation().getOps<func::FuncOp>())
      if (!func->hasAttr(dist::DistDialect::getAliasCheckAttrName()) &&
          argumentsDisjoint(func))
        runOnFunction(func);
  }
  void runOnFunction(func::FuncOp func);
  /// Distributes and interchanges `nest` as its answers allow (marks a
  /// unit's loop instead); with `say`, says so.
  void transform(Nest &nest, bool say);

  std::vector<DistributionQuery> distributions;
  std::vector<InterchangeQuery> interchanges;
};
} // end anonymous namespace

void DistInterchangeInner::runOnFunction(func::FuncOp func) {
  std::vector<Nest> nests;
  func.walk([&](affine::AffineForOp outer) {
    // An op of the function's body is a unit of its own (Units.h), whose
    // loop is only marked, and only where it holds ops without loops and
    // then the loop to move: asked before any analysis runs (deriche's row
    // passes walk rows already).
    bool topLevel = !outer->getParentOfType<affine::AffineForOp>();
    Nest nest;
    nest.outer = outer;
    // The loops a `#pragma weft distribute` pins stay.
    unsigned depth = 1; // of `outer` below `around`
    for (auto around = outer->getParentOfType<affine::AffineForOp>(); around;
         around = around->getParentOfType<affine::AffineForOp>(), ++depth) {
      // A pin's entries name the loops of the band rooted at `around`;
      // `outer` and the loops in it must be none it distributes.
      if (auto pin = around->getAttrOfType<dist::LayoutAttr>(
              dist::DistDialect::getLayoutAttrName())) {
        for (auto [d, dim] : llvm::enumerate(pin.getDims()))
          if (d >= depth && dim.isDistributed())
            return;
        if (pin.getRank() > depth)
          nest.pins.push_back({around, depth});
      }
    }
    for (Operation &op : outer.getBody()->without_terminator()) {
      // Only loops without loops in them: the ops a distribution copies
      // hold no other nest's loops.
      auto loop = dyn_cast<affine::AffineForOp>(op);
      if (loop && loop.getBody()
                      ->walk([](affine::AffineForOp) {
                        return WalkResult::interrupt();
                      })
                      .wasInterrupted())
        return;
      if (loop && worthMoving(outer, loop))
        nest.inner.push_back(nest.children.size());
      nest.children.push_back(&op);
    }
    nest.pair =
        nest.inner.size() == 1 &&
        nest.inner.front() + 1 == nest.children.size() &&
        llvm::none_of(ArrayRef(nest.children).drop_back(), [](Operation *op) {
          return isa<affine::AffineForOp>(op);
        });
    if (!nest.inner.empty() && (!topLevel || nest.pair))
      nests.push_back(std::move(nest));
  });
  // Scalars each iteration of a loop of the function's body sets before
  // the loop to move uses them become arrays, tentatively (where one may
  // not, they all stay, and the dependences decide).
  for (Nest &nest : nests) {
    if (!nest.pair || nest.outer->getParentOp() != func)
      continue;
    auto inner = cast<affine::AffineForOp>(nest.children.back());
    FailureOr<ExpandedScalars> expanded = expandScalars(nest.outer, inner);
    if (failed(expanded) || expanded->accesses.empty())
      continue;
    nest.expanded = std::move(*expanded);
    // The stores before the loop are new ops.
    nest.children.clear();
    for (Operation &op : nest.outer.getBody()->without_terminator())
      nest.children.push_back(&op);
  }
  if (nests.empty())
    return;
  // Where ISL cannot answer, nothing moves; dist-partition says why.
  bool answered = [&] {
    ScopedDiagnosticHandler quiet(&getContext(),
                                  [](Diagnostic &) { return success(); });
    PolyhedralRegion region(func);
    FailureOr<FlowDependenceInfo> deps =
        computeFlowDependences(region, maxIslOperations);
    if (failed(deps))
      return false;
    // The units dist-partition chooses a distribution for stay what they
    // are: a unit's loop swapped inside a loop that carries a sum would let
    // the partitioner split the sum instead (gramschmidt's loop over j in
    // its loop over k). One that holds only the loop to move is marked, to
    // be swapped in each rank's part (dist-interchange-local); other nests
    // must be inside a unit.
    SmallVector<UnitCandidate> units =
        findUnits(func, *deps, /*splitFpReductions=*/true);
    llvm::erase_if(nests, [&](Nest &nest) {
      nest.unitLoop = llvm::any_of(units, [&](const UnitCandidate &u) {
        return u.unit.op == nest.outer;
      });
      bool stays = nest.unitLoop
                       ? !nest.pair
                       : llvm::none_of(units, [&](const UnitCandidate &u) {
                           return u.unit.op->isProperAncestor(nest.outer);
                         });
      if (stays)
        restoreScalars(nest.expanded);
      return stays;
    });
    distributions.clear();
    interchanges.clear();
    for (Nest &nest : nests) {
      for (unsigned child : nest.inner) {
        nest.interchange.push_back(interchanges.size());
        interchanges.push_back(
            {nest.outer, cast<affine::AffineForOp>(nest.children[child]), {}});
      }
      if (nest.children.size() > 1) {
        nest.distribution = distributions.size();
        distributions.push_back({nest.outer, {}, {}});
      }
    }
    return !nests.empty() &&
           succeeded(analyzeLoopReorderings(region, distributions, interchanges,
                                            maxIslOperations));
  }();
  if (!answered) {
    for (Nest &nest : nests)
      restoreScalars(nest.expanded);
    return;
  }
  // The region's copies (dist-alias-check's) change as it does; one
  // remark each.
  bool say =
      report && !func->hasAttr(dist::DistDialect::getSequentialAttrName());
  for (Nest &nest : nests)
    transform(nest, say);
}

/// A pin names the loops of a perfectly nested band, which a distribution
/// or an interchange of `nest` breaks: it keeps the ones above `outer`
/// (what it leaves out is replicated, as it said).
static void keepPinnedLoopsAbove(const Nest &nest) {
  for (auto [around, depth] : nest.pins) {
    auto pin = around->getAttrOfType<dist::LayoutAttr>(
        dist::DistDialect::getLayoutAttrName());
    if (pin.getRank() > depth)
      around->setAttr(dist::DistDialect::getLayoutAttrName(),
                      dist::LayoutAttr::get(around.getContext(),
                                            pin.getDims().take_front(depth),
                                            pin.getGrid()));
  }
}

/// Says which scalars `marked` now keeps in arrays (`expanded`), the loop
/// at `outerLine` having set them first in each iteration.
static void remarkKeptScalars(affine::AffineForOp marked,
                              const ExpandedScalars &expanded,
                              StringRef outerLine) {
  InFlightDiagnostic remark = marked.emitRemark("kept ");
  llvm::interleaveComma(expanded.scalars, remark, [&](Value s) {
    StringRef name = sourceName(s);
    if (!name.empty())
      remark << name;
    else if (auto arg = dyn_cast<BlockArgument>(s))
      remark << "argument " << arg.getArgNumber();
    else
      remark << "a local";
  });
  remark << " in arrays, one element per iteration of the loop at "
         << outerLine << ", which sets them first: the loop in it may "
         << "move around it";
}

void DistInterchangeInner::transform(Nest &nest, bool say) {
  unsigned n = nest.children.size();
  SmallVector<bool> allowed(n ? n - 1 : 0, false);
  if (nest.distribution >= 0) {
    SmallVector<bool> byValues = valueFreeCuts(nest.outer, nest.children);
    for (unsigned p = 0; p + 1 < n; ++p)
      allowed[p] = byValues[p] && distributions[nest.distribution].legalCuts[p];
  }
  // Each loop that moves needs the cuts on both sides of it (a unit's loop
  // to move is its last op: the ops before it go to a copy of `outer` of
  // their own).
  SmallVector<bool> cut(allowed.size(), false);
  SmallVector<unsigned> moving;
  for (auto [child, q] : llvm::zip(nest.inner, nest.interchange)) {
    const InterchangeQuery &answer = interchanges[q];
    if (!answer.legal || !answer.outerParallel ||
        (child > 0 && !allowed[child - 1]) ||
        (child + 1 < n && !allowed[child]))
      continue;
    if (child > 0)
      cut[child - 1] = true;
    if (child + 1 < n)
      cut[child] = true;
    moving.push_back(child);
  }
  if (moving.empty()) {
    restoreScalars(nest.expanded);
    return;
  }
  std::string outerLine = lineOf(nest.outer);
  bool distributed = llvm::is_contained(cut, true);
  // A unit's pair, marked, stays a band until dist-interchange-local.
  if (!nest.unitLoop || distributed)
    keepPinnedLoopsAbove(nest);
  SmallVector<Operation *> placed = distributeLoop(nest.outer, cut);
  for (unsigned child : moving) {
    auto inner = cast<affine::AffineForOp>(placed[child]);
    auto outer = cast<affine::AffineForOp>(inner->getParentOp());
    // A unit's loop, now holding the loop to move alone, is marked for
    // dist-interchange-local.
    if (nest.unitLoop) {
      outer->setAttr(dist::DistDialect::getInterchangeAttrName(),
                     UnitAttr::get(outer.getContext()));
      if (say && !nest.expanded.scalars.empty())
        remarkKeptScalars(outer, nest.expanded, outerLine);
      continue;
    }
    if (say)
      inner.emitRemark("interchanged with the loop at ")
          << outerLine << " around it"
          << (distributed ? " (distributed around it first)" : "")
          << ": the innermost loop walks consecutive elements in "
          << consecutiveAccesses(inner, outer.getInductionVar())
          << " of its distinct accesses, not "
          << consecutiveAccesses(inner, inner.getInductionVar())
          << ", and carries no dependence";
    affine::interchangeLoops(outer, inner);
  }
}
