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
  if (state.flowDependenceInfo)
    return *state.flowDependenceInfo;
  // A smaller quota fails as the one that failed did.
  if (auto &failed = state.flowDependenceFailure;
      failed && maxOperations != 0 && maxOperations <= failed->quota) {
    for (const auto &[loc, message] : failed->errors)
      emitError(loc) << message;
    return failure();
  }
  FailureOr<const ModelBuilder *> built = state.getModel();
  if (failed(built))
    return failure();
  const ModelBuilder &model = **built;
  FlowDependenceInfo info;
  info.numStatements = model.numStatements();
  // Errors go on to the caller's handler, and are kept for later calls.
  weft::detail::PolyhedralRegionState::FlowFailure failure{maxOperations, {}};
  ScopedDiagnosticHandler record(state.func->getContext(), [&](Diagnostic &d) {
    if (d.getSeverity() == DiagnosticSeverity::Error)
      failure.errors.push_back({d.getLocation(), d.str()});
    return mlir::failure();
  });
  LogicalResult status =
      state.run("polyhedral analysis", maxOperations, [&](isl::ctx ctx) {
        const weft::detail::RegionDependences &dependences =
            state.getDependences(maxOperations);
        const isl::union_map &deps = dependences.flow, &all = dependences.all;
        char *text = isl_union_map_to_str(deps.get());
        info.dependences = text ? text : "";
        free(text);
        // Flow dependences between the accesses of one reduction update do
        // not order its iterations: the loop is a reduction if no other flow
        // dependence is carried (anti and output ones do not order
        // iterations on ranks with their own copies).
        StatementDependences flowDeps(model, deps), allDeps(model, all),
            otherFlowDeps(model, deps.subtract(isl::union_map(
                                     ctx, model.reductionPairs())));
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
          if (!info.loopCarriesFlow[loop] || otherFlowDeps.carriedBy(loop))
            continue;
          SmallVector<const ModelBuilder::Reduction *> carried;
          for (auto [index, r] : llvm::enumerate(model.reductions)) {
            if (!loop->isAncestor(model.accessOf(r.store)))
              continue;
            if (!llvm::is_contained(info.loopReductions[loop], r.kind))
              info.loopReductions[loop].push_back(r.kind.str());
            if (reductionDep(index).carriedBy(loop))
              carried.push_back(&r);
          }
          // Any other access of an accumulator inside the loop would see
          // or overwrite a partial result once the loop is split (`if (i ==
          // n - 1) last = s;`, `p[i] = s;`, `if (i == 5) s = 0;`): the loop
          // stays whole. Such an access depends on an update, or an update
          // on it, within one execution of the loop.
          auto isUpdate = [&](unsigned st) {
            return llvm::any_of(carried, [&](auto *r) {
              return r->load == st || r->store == st;
            });
          };
          if (allDeps.within(loop, [&](unsigned source, unsigned sink) {
                return isUpdate(source) != isUpdate(sink);
              })) {
            info.loopReductions.erase(loop);
            continue;
          }
          for (const ModelBuilder::Reduction *r : carried)
            info.carriedReductions[loop].push_back(
                {model.accessOf(r->store), r->kind.str()});
        }
      });
  if (failed(status)) {
    state.flowDependenceFailure = std::move(failure);
    return mlir::failure();
  }
  state.flowDependenceInfo = info;
  return info;
}

bool weft::FlowDependenceInfo::holdsFlowFreeLoop(Operation *op) const {
  return op
      ->walk([&](affine::AffineForOp inner) {
        return inner != op && carriesNoFlow(inner) ? WalkResult::interrupt()
                                                   : WalkResult::advance();
      })
      .wasInterrupted();
}
