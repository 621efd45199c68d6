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

#include <optional>

using namespace mlir;
using weft::detail::ModelBuilder;

namespace {
/// Dependences between statement instances, one relation per pair of
/// statements, to ask which loops carry them.
class StatementDependences {
public:
  StatementDependences(const ModelBuilder &model, const isl::union_map &deps)
      : model(model) {
    isl::map_list maps = deps.get_map_list();
    for (int k = 0, n = maps.size(); k < n; ++k) {
      isl::map m = maps.at(k);
      std::optional<unsigned> source = statementOf(m, isl_dim_in);
      std::optional<unsigned> sink = statementOf(m, isl_dim_out);
      if (source && sink)
        pairs.push_back({*source, *sink, m});
    }
  }

  /// Whether `loop` carries one of them: both instances inside it, in the
  /// same iterations of the loops around it and in different iterations of
  /// it, the source's first. Checked pair by pair in the statements' own
  /// spaces, where the loop is the iterator at its depth.
  bool carriedBy(affine::AffineForOp loop) const {
    for (const Pair &p : pairs) {
      int depth = depthOf(p.source, loop);
      if (depth < 0 || depthOf(p.sink, loop) != depth)
        continue;
      isl_map *m = p.relation.copy();
      for (int k = 0; k < depth; ++k)
        m = isl_map_equate(m, isl_dim_in, k, isl_dim_out, k);
      m = isl_map_order_lt(m, isl_dim_in, depth, isl_dim_out, depth);
      if (!isl::manage(m).is_empty())
        return true;
    }
    return false;
  }

private:
  struct Pair {
    unsigned source, sink;
    isl::map relation;
  };

  static std::optional<unsigned> statementOf(const isl::map &m,
                                             isl_dim_type type) {
    const char *name = isl_map_get_tuple_name(m.get(), type);
    return weft::detail::statementOfTuple(name ? name : "");
  }

  /// The position of `loop` among the loops around a statement, or -1.
  int depthOf(unsigned statement, affine::AffineForOp loop) const {
    const auto &loops = model.getStatements()[statement].loops;
    auto it = llvm::find(loops, loop);
    return it == loops.end() ? -1 : int(it - loops.begin());
  }

  const ModelBuilder &model;
  std::vector<Pair> pairs;
};
} // end anonymous namespace

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
        const isl::union_map &writes = flow.writes, &reads = flow.reads;
        // The region flow's sinks include END[], after the region.
        isl::union_map deps =
            flow.flow.must_dependence().subtract_range(flow.end);
        char *text = isl_union_map_to_str(deps.get());
        info.dependences = text ? text : "";
        free(text);
        // Memory-based anti and output dependences: a later write of an
        // element read or written before. As may-sources never kill each
        // other, ISL returns every earlier access of the element each write
        // overwrites, without pairing all statements through lex_lt.
        isl::union_map antiAndOutput = isl::union_access_info(writes)
                                           .set_may_source(reads.unite(writes))
                                           .set_schedule(flow.schedule)
                                           .compute_flow()
                                           .may_dependence();
        // Dependences between the accesses of one reduction update do not
        // order its iterations: the loop is a reduction if nothing else is
        // carried.
        isl::union_map all = deps.unite(antiAndOutput);
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
