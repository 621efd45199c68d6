//===- PolyhedralRegion.cpp - Shared polyhedral model of a region ---------===//
//
// This file is compiled with exceptions.
//
//===----------------------------------------------------------------------===//
#include "weft/Analysis/Polyhedral/PolyhedralRegion.h"

#include "RegionState.h"

#include "mlir/IR/Diagnostics.h"

using namespace mlir;
using weft::DistUnit;
using weft::detail::PolyhedralRegionState;
using weft::detail::RegionFlow;
using weft::detail::Statement;

weft::PolyhedralRegion::PolyhedralRegion(Operation *func)
    : state(std::make_unique<PolyhedralRegionState>(cast<func::FuncOp>(func))) {
}

weft::PolyhedralRegion::~PolyhedralRegion() = default;

func::FuncOp weft::PolyhedralRegion::getFunction() const { return state->func; }

PolyhedralRegionState::PolyhedralRegionState(func::FuncOp func)
    : func(func), model(func), ctx(isl_ctx_alloc()) {
  isl_options_set_on_error(ctx, ISL_ON_ERROR_CONTINUE);
}

PolyhedralRegionState::~PolyhedralRegionState() {
  flow.reset(); // ISL objects go before their context.
  isl_ctx_free(ctx);
}

FailureOr<const weft::detail::ModelBuilder *>
PolyhedralRegionState::getModel() {
  if (!built) {
    // Record what the builder says (it still reaches the other handlers).
    ScopedDiagnosticHandler record(func.getContext(), [&](Diagnostic &d) {
      buildDiagnostics.push_back({d.getLocation(), d.getSeverity(), d.str()});
      return failure();
    });
    built = model.build();
  } else {
    for (const Said &s : buildDiagnostics)
      func.getContext()->getDiagEngine().emit(s.loc, s.severity) << s.message;
  }
  if (failed(*built))
    return failure();
  return &model;
}

FailureOr<PolyhedralRegionState::UnitsModel>
PolyhedralRegionState::getModel(ArrayRef<DistUnit> units) {
  FailureOr<const ModelBuilder *> built = getModel();
  if (failed(built))
    return failure();
  UnitsModel result{*built, {}};
  for (const Statement &st : model.getStatements()) {
    auto it = llvm::find_if(units, [&](const DistUnit &u) {
      return u.op == st.access || u.op->isAncestor(st.access);
    });
    if (it == units.end())
      return func.emitError("an access belongs to no unit of work"), failure();
    result.unitOf.push_back(it - units.begin());
  }
  return result;
}

const RegionFlow &PolyhedralRegionState::getFlow(unsigned long maxOperations) {
  if (flow)
    return *flow;
  isl::ctx c(ctx);
  RegionFlow r;
  // The quota bounds the analysis, not the parsing of the model, whose cost
  // is linear in its size.
  isl_ctx_set_max_operations(ctx, 0);
  r.domain = isl::union_set(c, model.domains());
  r.reads = isl::union_map(c, model.accesses(false)).intersect_domain(r.domain);
  r.writes = isl::union_map(c, model.accesses(true)).intersect_domain(r.domain);
  r.schedule =
      isl::union_map(c, model.scheduleMap()).intersect_domain(r.domain);
  r.end = isl::union_set(c, "{ END[] }");
  std::string endTime =
      std::to_string(func.getBody().front().getOperations().size());
  for (unsigned k = 1; k < model.getScheduleLength(); ++k)
    endTime += ", 0";
  isl::union_map reads = r.reads.unite(
      isl::union_map::from_domain_and_range(r.end, r.writes.range()));
  isl::union_map schedule =
      r.schedule.unite(isl::union_map(c, "{ END[] -> [" + endTime + "] }"));
  isl_ctx_set_max_operations(ctx, maxOperations);
  isl_ctx_reset_operations(ctx);
  r.flow = isl::union_access_info(reads)
               .set_must_source(r.writes)
               .set_schedule_map(schedule)
               .compute_flow();
  flow = std::move(r);
  return *flow;
}
