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
  /// With `expand`, tries scalars in arrays first (ExpandScalars.h).
  void runOnFunction(func::FuncOp func, bool expand = true);
  /// Distributes and interchanges `nest` as its answers allow (marks a
  /// unit's loop instead); with `say`, says so.
  void transform(Nest &nest, bool say);

  std::vector<DistributionQuery> distributions;
  std::vector<InterchangeQuery> interchanges;
};
} // end anonymous namespace

void DistInterchangeInner::runOnFunction(func::FuncOp func, bool expand) {
  std::vector<Nest> nests;
  func.walk([&](affine::AffineForOp outer) {
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
    // Only loops without loops in them: the ops a distribution copies
    // hold no other nest's loops.
    affine::AffineForOp first;
    for (Operation &op : outer.getBody()->without_terminator()) {
      auto loop = dyn_cast<affine::AffineForOp>(op);
      if (loop && loop.getBody()
                      ->walk([](affine::AffineForOp) {
                        return WalkResult::interrupt();
                      })
                      .wasInterrupted())
        return;
      if (loop && !first)
        first = loop;
    }
    if (!first)
      return;
    // Scalars each iteration sets before its first loop become arrays,
    // tentatively (where one may not, they all stay, and the dependences
    // decide): their accesses then walk consecutive elements along
    // `outer` (ludcmp's `w`).
    if (expand) {
      FailureOr<ExpandedScalars> expanded = expandScalars(outer, first);
      if (succeeded(expanded))
        nest.expanded = std::move(*expanded);
    }
    for (Operation &op : outer.getBody()->without_terminator()) {
      auto loop = dyn_cast<affine::AffineForOp>(op);
      if (loop && worthMoving(outer, loop))
        nest.inner.push_back(nest.children.size());
      nest.children.push_back(&op);
    }
    if (nest.inner.empty())
      restoreScalars(nest.expanded);
    else
      nests.push_back(std::move(nest));
  });
  if (nests.empty())
    return;
  bool expandedAny = llvm::any_of(
      nests, [](const Nest &n) { return !n.expanded.accesses.empty(); });
  // Where ISL cannot answer, nothing moves; dist-partition says why.
  bool islFailed = false;
  bool answered = [&] {
    ScopedDiagnosticHandler quiet(&getContext(),
                                  [](Diagnostic &) { return success(); });
    PolyhedralRegion region(func);
    FailureOr<FlowDependenceInfo> deps =
        computeFlowDependences(region, maxIslOperations);
    if (failed(deps)) {
      islFailed = true;
      return false;
    }
    // The units dist-partition chooses a distribution for stay what they
    // are: a unit's loop swapped inside a loop that carries a sum would let
    // the partitioner split the sum instead (gramschmidt's loop over j in
    // its loop over k). Each copy of one that holds a loop to move alone
    // is marked, to be swapped in each rank's part (dist-interchange-
    // local); other nests must be inside a unit.
    SmallVector<UnitCandidate> units =
        findUnits(func, *deps, /*splitFpReductions=*/true);
    llvm::erase_if(nests, [&](Nest &nest) {
      nest.unitLoop = llvm::any_of(units, [&](const UnitCandidate &u) {
        return u.unit.op == nest.outer;
      });
      bool stays =
          !nest.unitLoop && llvm::none_of(units, [&](const UnitCandidate &u) {
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
    if (nests.empty())
      return false;
    islFailed = failed(analyzeLoopReorderings(region, distributions,
                                              interchanges, maxIslOperations));
    return !islFailed;
  }();
  if (!answered) {
    for (Nest &nest : nests)
      restoreScalars(nest.expanded);
    // The arrays may be what ISL could not take (a bound it cannot
    // describe): the loops that move without them still move.
    if (islFailed && expandedAny)
      runOnFunction(func, /*expand=*/false);
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

/// Says which scalars the loop at `outer` (on `outerLine`) now keeps in
/// arrays (`expanded`), having set them first in each iteration.
static void remarkKeptScalars(Location outer, const ExpandedScalars &expanded,
                              StringRef outerLine) {
  InFlightDiagnostic remark = emitRemark(outer, "kept ");
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
  // Each loop that moves needs the cuts on both sides of it: the ops
  // around it go to copies of `outer` of their own.
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
  if (say && !nest.expanded.scalars.empty())
    remarkKeptScalars(nest.outer.getLoc(), nest.expanded, outerLine);
  bool distributed = llvm::is_contained(cut, true);
  // A unit's loop holding one loop to move alone, marked, stays a band
  // until dist-interchange-local.
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
