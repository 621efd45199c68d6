//===- RegionState.h - Model, ISL context and flow of a region --*- C++ -*-===//
//
// Private to WeftPolyhedral: what PolyhedralRegion holds. The ISL objects
// live in the region's own context, so they outlive one computation and are
// shared by the dependence analysis, the cost estimate and the exchanges.
//
//===----------------------------------------------------------------------===//
#ifndef WEFT_LIB_ANALYSIS_POLYHEDRAL_REGIONSTATE_H
#define WEFT_LIB_ANALYSIS_POLYHEDRAL_REGIONSTATE_H

#include "IslScope.h"
#include "ModelBuilder.h"

#include "weft/Analysis/Polyhedral/Communication.h"
#include "weft/Analysis/Polyhedral/FlowDependences.h"
#include "weft/Analysis/Polyhedral/PolyhedralRegion.h"

#include <optional>

namespace weft::detail {

/// The value-based flow of the region, whose sinks include END[], a
/// statement after the region that reads every written element.
struct RegionFlow {
  isl::union_set domain;
  isl::union_set end;
  /// Accesses and schedule tree of the statements (without END[]).
  isl::union_map reads, writes;
  /// END[]'s reads: the written elements that live after the region.
  isl::union_map endReads;
  isl::schedule schedule;
  isl::union_flow flow;
  /// The arrays private to one execution of the region: no code outside it
  /// reads them and the region writes every element before reading it, so
  /// what it leaves in them is dead (their storage could be rank-local).
  SmallVector<Value> privateArrays;
};

/// Dependences between the statements of the region (not END[]).
struct RegionDependences {
  /// Exact value-based flow dependences.
  isl::union_map flow;
  /// Those plus the memory-based anti and output dependences: everything
  /// that orders two instances.
  isl::union_map all;
};

struct PolyhedralRegionState {
  explicit PolyhedralRegionState(func::FuncOp func);
  ~PolyhedralRegionState();

  /// The model, built on the first call. Later calls give the same result
  /// and emit again what the first one said about a region it cannot model.
  FailureOr<const ModelBuilder *> getModel();

  /// The model and the unit of each statement; fails on the function when
  /// an access belongs to no unit.
  struct UnitsModel {
    const ModelBuilder *model;
    SmallVector<int> unitOf;
  };
  FailureOr<UnitsModel> getModel(ArrayRef<DistUnit> units);

  /// Runs `body(ctx)` in the region's ISL context (see runIsl).
  template <typename Body>
  LogicalResult run(StringRef what, unsigned long maxOperations, Body body) {
    return runIsl(ctx, func, what, maxOperations, body);
  }

  /// The region flow, computed on the first call (inside `run`, with the
  /// quota of `maxOperations` for the analysis, not the parsing).
  const RegionFlow &getFlow(unsigned long maxOperations);

  /// The dependences, computed on the first call (inside `run`).
  const RegionDependences &getDependences(unsigned long maxOperations);

  func::FuncOp func;
  /// What computeFlowDependences found, once it succeeded: each
  /// partitioning pass asks for it while the region is unchanged.
  std::optional<FlowDependenceInfo> flowDependenceInfo;
  /// Or that it failed within `quota` ISL operations, and what it said: a
  /// region that exhausts the quota would otherwise exhaust it once per pass.
  struct FlowFailure {
    unsigned long quota;
    SmallVector<std::pair<Location, std::string>> errors;
  };
  std::optional<FlowFailure> flowDependenceFailure;

private:
  ModelBuilder model;
  std::optional<LogicalResult> built;
  struct Said {
    Location loc;
    DiagnosticSeverity severity;
    std::string message;
  };
  SmallVector<Said> buildDiagnostics;
  isl_ctx *ctx;
  std::optional<RegionFlow> flow;
  std::optional<RegionDependences> dependences;
};

} // namespace weft::detail

#endif // WEFT_LIB_ANALYSIS_POLYHEDRAL_REGIONSTATE_H
