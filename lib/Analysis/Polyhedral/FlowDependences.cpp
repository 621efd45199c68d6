//===- FlowDependences.cpp - Exact flow dependences with ISL ----*- C++ -*-===//
//
// Asks ISL for the exact flow dependences of the model ModelBuilder builds,
// plus the memory-based anti and output dependences that decide whether a
// loop is parallel. This file is compiled with exceptions: isl::exception is
// caught here and turned into a diagnostic.
//
//===----------------------------------------------------------------------===//
#include "weft/Analysis/Polyhedral/FlowDependences.h"

#include "RegionState.h"
#include "StatementDependences.h"

#include <isl/cpp.h>
#include <isl/ctx.h>
#include <isl/options.h>
#include <isl/union_map.h>

#include <optional>

using namespace mlir;
using weft::detail::ModelBuilder;
using weft::detail::StatementDependences;

FailureOr<weft::FlowDependenceInfo>
weft::computeFlowDependences(PolyhedralRegion &region,
                             unsigned long maxOperations) {
  weft::detail::PolyhedralRegionState &state = region.getState();
  FailureOr<const ModelBuilder *> built = state.getModel();
  if (failed(built))
    return failure();
  const ModelBuilder &model = **built;
  FlowDependenceInfo info;
  info.numStatements = model.numStatements();
  LogicalResult status =
      state.run("polyhedral analysis", maxOperations, [&](isl::ctx ctx) {
        const weft::detail::RegionDependences &dependences =
            state.getDependences(maxOperations);
        const isl::union_map &deps = dependences.flow, &all = dependences.all;
        char *text = isl_union_map_to_str(deps.get());
        info.dependences = text ? text : "";
        free(text);
        // Dependences between the accesses of one reduction update do not
        // order its iterations: the loop is a reduction if nothing else is
        // carried.
        StatementDependences flowDeps(model, deps), allDeps(model, all),
            otherDeps(model, all.subtract(
                                 isl::union_map(ctx, model.reductionPairs())));
        // Those among the accesses of each reduction update; computed once,
        // when a loop first needs them.
        std::vector<std::optional<StatementDependences>> reductionDeps(
            model.reductions.size());
        auto reductionDep = [&](unsigned index) -> StatementDependences & {
          std::optional<StatementDependences> &d = reductionDeps[index];
          if (!d)
            d.emplace(
                model,
                all.intersect(isl::union_map(
                    ctx, model.reductionPairs(&model.reductions[index]))));
          return *d;
        };
        for (affine::AffineForOp loop : model.loops) {
          info.loopIsParallel[loop] = !allDeps.carriedBy(loop);
          info.loopCarriesFlow[loop] =
              !info.loopIsParallel[loop] && flowDeps.carriedBy(loop);
          if (info.loopIsParallel[loop] || otherDeps.carriedBy(loop))
            continue;
          for (auto [index, r] : llvm::enumerate(model.reductions)) {
            if (!loop->isAncestor(model.accessOf(r.store)))
              continue;
            if (!llvm::is_contained(info.loopReductions[loop], r.kind))
              info.loopReductions[loop].push_back(r.kind.str());
            if (reductionDep(index).carriedBy(loop))
              info.carriedReductions[loop].push_back(
                  {model.accessOf(r.store), r.kind.str()});
          }
        }
      });
  if (failed(status))
    return failure();
  return info;
}
