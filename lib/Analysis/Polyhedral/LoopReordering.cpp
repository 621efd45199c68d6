//===- LoopReordering.cpp - Legality of loop distribution, interchange ----===//
//
// This file is compiled with exceptions.
//
//===----------------------------------------------------------------------===//
#include "weft/Analysis/Polyhedral/LoopReordering.h"

#include "RegionState.h"
#include "StatementDependences.h"

#include <isl/map.h>

using namespace mlir;
using weft::detail::ModelBuilder;
using weft::detail::StatementDependences;

/// The position in `parts` of the op that holds `op`, or -1.
static int partIndex(ArrayRef<Operation *> parts, Operation *op) {
  for (auto [index, part] : llvm::enumerate(parts))
    if (part->isAncestor(op))
      return index;
  return -1;
}

static void answer(const ModelBuilder &model, const StatementDependences &all,
                   weft::DistributionQuery &q) {
  if (q.parts.empty())
    for (Operation &op : q.loop.getBody()->without_terminator())
      q.parts.push_back(&op);
  SmallVector<int> childOf;
  for (unsigned s = 0; s < model.numStatements(); ++s)
    childOf.push_back(partIndex(q.parts, model.accessOf(s)));
  unsigned children = q.parts.size();
  q.legalCuts.assign(children ? children - 1 : 0, true);
  // A dependence from part a back to part b < a forbids every cut between
  // them.
  for (unsigned a = 1; a < children; ++a)
    for (unsigned b = 0; b < a; ++b)
      if (all.within(q.loop, [&](unsigned source, unsigned sink) {
            return childOf[source] == int(a) && childOf[sink] == int(b);
          }))
        for (unsigned p = b; p < a; ++p)
          q.legalCuts[p] = false;
}

/// The pairs of a dependence relation (`loop` at depth d) whose iterations
/// of the loop `level` deeper than `loop` (0: `loop` itself) differ.
static auto differAt(int level) {
  return [level](isl::map m, int d) {
    isl::map before = isl::manage(isl_map_order_lt(
        m.copy(), isl_dim_in, d + level, isl_dim_out, d + level));
    isl::map after = isl::manage(isl_map_order_gt(
        m.release(), isl_dim_in, d + level, isl_dim_out, d + level));
    return before.unite(after);
  };
}

static void answer(const ModelBuilder &model, const StatementDependences &all,
                   weft::InterchangeQuery &q) {
  // Only the statements in `inner` (one level deeper than `outer`), and of
  // those the ones a distribution keeps with it.
  SmallVector<bool> kept;
  for (unsigned s = 0; s < model.numStatements(); ++s) {
    Operation *access = model.accessOf(s);
    kept.push_back(q.inner->isAncestor(access) &&
                   (q.only.empty() || partIndex(q.only, access) >= 0));
  }
  auto only = [&](unsigned source, unsigned sink) {
    return kept[source] && kept[sink];
  };
  q.legal = !all.withinWhere(
      q.outer,
      [](isl::map m, int d) {
        isl_map *r =
            isl_map_order_lt(m.release(), isl_dim_in, d, isl_dim_out, d);
        return isl::manage(
            isl_map_order_gt(r, isl_dim_in, d + 1, isl_dim_out, d + 1));
      },
      only);
  q.innerParallel = !all.withinWhere(q.outer, differAt(1), only);
  q.outerParallel = !all.withinWhere(q.outer, differAt(0), only);
}

LogicalResult
weft::analyzeLoopReorderings(PolyhedralRegion &region,
                             MutableArrayRef<DistributionQuery> distributions,
                             MutableArrayRef<InterchangeQuery> interchanges,
                             unsigned long maxOperations) {
  weft::detail::PolyhedralRegionState &state = region.getState();
  FailureOr<const ModelBuilder *> built = state.getModel();
  if (failed(built))
    return failure();
  const ModelBuilder &model = **built;
  return state.run("loop reordering analysis", maxOperations,
                   [&](isl::ctx) {
                     StatementDependences all(
                         model, state.getDependences(maxOperations).all);
                     for (DistributionQuery &q : distributions)
                       answer(model, all, q);
                     for (InterchangeQuery &q : interchanges)
                       answer(model, all, q);
                   });
}

SmallVector<bool> weft::valueFreeCuts(Operation *root,
                                      ArrayRef<Operation *> parts) {
  unsigned n = parts.size();
  SmallVector<bool> cuts(n ? n - 1 : 0, true);
  auto indexOf = [&](Operation *op) -> int {
    for (; op && op != root; op = op->getParentOp())
      if (auto it = llvm::find(parts, op); it != parts.end())
        return it - parts.begin();
    return -1;
  };
  for (unsigned a = 0; a < n; ++a)
    parts[a]->walk([&](Operation *op) {
      for (Value v : op->getOperands()) {
        Operation *def = v.getDefiningOp();
        if (!def)
          def = v.getParentBlock()->getParentOp();
        int b = indexOf(def);
        for (int p = b; b >= 0 && p < int(a); ++p)
          cuts[p] = false;
      }
    });
  return cuts;
}

SmallVector<Operation *>
weft::distributeLoop(affine::AffineForOp loop, ArrayRef<bool> cut,
                     SmallVectorImpl<affine::AffineForOp> *made) {
  SmallVector<Operation *> placed;
  for (Operation &op : loop.getBody()->without_terminator())
    placed.push_back(&op);
  unsigned n = placed.size();
  if (llvm::none_of(cut, [](bool x) { return x; })) {
    if (made)
      made->push_back(loop);
    return placed;
  }
  // One copy of the loop per group of ops, each keeping its group's ops, in
  // order.
  SmallVector<std::pair<unsigned, unsigned>> groups;
  for (unsigned start = 0, k = 0; k < n; ++k)
    if (k == n - 1 || cut[k]) {
      groups.push_back({start, k + 1});
      start = k + 1;
    }
  OpBuilder b(loop);
  for (auto [start, end] : groups) {
    auto copy = cast<affine::AffineForOp>(b.clone(*loop));
    if (made)
      made->push_back(copy);
    SmallVector<Operation *> ops;
    for (Operation &op : copy.getBody()->without_terminator())
      ops.push_back(&op);
    for (unsigned k = n; k-- > 0;) {
      if (k >= start && k < end)
        placed[k] = ops[k];
      else
        ops[k]->erase();
    }
  }
  loop.erase();
  return placed;
}
