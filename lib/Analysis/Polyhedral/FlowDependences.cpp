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

#include <isl/cpp.h>
#include <isl/ctx.h>
#include <isl/options.h>
#include <isl/union_map.h>

using namespace mlir;
using weft::detail::ModelBuilder;

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
        const weft::detail::RegionFlow &flow = state.getFlow(maxOperations);
        const isl::union_map &writes = flow.writes, &reads = flow.reads,
                             &schedule = flow.schedule;
        // The region flow's sinks include END[], after the region.
        isl::union_map deps =
            flow.flow.must_dependence().subtract_range(flow.end);
        char *text = isl_union_map_to_str(deps.get());
        info.dependences = text ? text : "";
        free(text);
        // Memory-based anti and output dependences: a later write of an element
        // read or written before. As may-sources never kill each other, ISL
        // returns every earlier read (write) of the element each write
        // overwrites, without pairing all statements through lex_lt.
        auto earlier = [&](isl::union_map sources) {
          return isl::union_access_info(writes)
              .set_may_source(sources)
              .set_schedule_map(schedule)
              .compute_flow()
              .may_dependence();
        };
        isl::union_map anti = earlier(reads);
        isl::union_map output = earlier(writes);
        isl::union_map flowInTime =
            deps.apply_domain(schedule).apply_range(schedule);
        isl::union_map allInTime =
            deps.unite(anti).unite(output).apply_domain(schedule).apply_range(
                schedule);
        // Dependences between the accesses of one reduction update do not order
        // its iterations: the loop is a reduction if nothing else is carried.
        isl::union_map otherInTime =
            deps.unite(anti)
                .unite(output)
                .subtract(isl::union_map(ctx, model.reductionPairs()))
                .apply_domain(schedule)
                .apply_range(schedule);
        // The dependences among the accesses of each reduction update, in
        // time; computed once, when a loop first needs them.
        isl::union_map all = deps.unite(anti).unite(output);
        std::vector<isl::union_map> reductionTimes(model.reductions.size());
        auto reductionInTime = [&](unsigned index) -> isl::union_map & {
          isl::union_map &m = reductionTimes[index];
          if (m.is_null())
            m = all.intersect(isl::union_map(
                                  ctx, model.reductionPairs(
                                           &model.reductions[index])))
                    .apply_domain(schedule)
                    .apply_range(schedule);
          return m;
        };
        for (affine::AffineForOp loop : model.loops) {
          isl::union_map carried(ctx, model.carriedBy(loop));
          info.loopCarriesFlow[loop] =
              !flowInTime.intersect(carried).is_empty();
          info.loopIsParallel[loop] = allInTime.intersect(carried).is_empty();
          if (info.loopIsParallel[loop] ||
              !otherInTime.intersect(carried).is_empty())
            continue;
          for (auto [index, r] : llvm::enumerate(model.reductions)) {
            if (!loop->isAncestor(model.accessOf(r.store)))
              continue;
            if (!llvm::is_contained(info.loopReductions[loop], r.kind))
              info.loopReductions[loop].push_back(r.kind.str());
            if (!reductionInTime(index).intersect(carried).is_empty())
              info.carriedReductions[loop].push_back(
                  {model.accessOf(r.store), r.kind.str()});
          }
        }
      });
  if (failed(status))
    return failure();
  return info;
}
