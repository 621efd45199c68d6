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
  q.innerParallel = !all.withinWhere(
      q.outer,
      [](isl::map m, int d) {
        isl::map before = isl::manage(
            isl_map_order_lt(m.copy(), isl_dim_in, d + 1, isl_dim_out, d + 1));
        isl::map after = isl::manage(isl_map_order_gt(
            m.release(), isl_dim_in, d + 1, isl_dim_out, d + 1));
        return before.unite(after);
      },
      only);
}

LogicalResult weft::analyzeLoopReorderings(
    PolyhedralRegion &region, MutableArrayRef<DistributionQuery> distributions,
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
