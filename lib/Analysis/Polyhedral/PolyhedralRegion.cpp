//===- PolyhedralRegion.cpp - Shared polyhedral model of a region ---------===//
//
// This file is compiled with exceptions.
//
//===----------------------------------------------------------------------===//
#include "weft/Analysis/Polyhedral/PolyhedralRegion.h"
#include "dialects/Weft/IR/WeftDialect.h"

#include "RegionState.h"

#include "mlir/IR/Diagnostics.h"

#include <isl/schedule.h>

#include <map>

using namespace mlir;
using weft::DistUnit;
using weft::detail::PolyhedralRegionState;
using weft::detail::RegionFlow;
using weft::detail::ScheduleEntry;
using weft::detail::Statement;
using weft::detail::ModelBuilder;

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
  // ISL objects go before their context.
  dependences.reset();
  flow.reset();
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

/// The schedule tree of `group` (statements with the same first `k`
/// schedule entries): a band for a loop's iterator, a sequence for the
/// positions of ops in a block, a leaf for one access. Equivalent to the
/// flat schedule map, but ISL's flow analysis splits its work along it.
static isl::schedule scheduleTree(isl::ctx ctx, const ModelBuilder &model,
                                  ArrayRef<unsigned> group, unsigned k) {
  const auto &statements = model.getStatements();
  auto domainOf = [&](ArrayRef<unsigned> members) {
    std::string text = model.params() + "{ ";
    for (auto [n, i] : llvm::enumerate(members))
      text += (n ? "; " : "") + statements[i].domain;
    return isl::union_set(ctx, text + " }");
  };
  const Statement &first = statements[group.front()];
  if (k >= first.schedule.size())
    return isl::schedule::from_domain(domainOf(group));
  const ScheduleEntry &entry = first.schedule[k];
  if (entry.isIterator) {
    std::string partial = model.params() + "{ ";
    for (auto [n, i] : llvm::enumerate(group))
      partial += (n ? "; " : "") +
                 weft::detail::statementTuple(i, statements[i].loops.size()) +
                 " -> [i" + std::to_string(entry.loopDepth) + "]";
    isl::union_map band(ctx, partial + " }");
    isl::schedule inner = scheduleTree(ctx, model, group, k + 1);
    return isl::manage(isl_schedule_insert_partial_schedule(
        inner.release(),
        isl_multi_union_pw_aff_from_union_map(band.release())));
  }
  std::map<int64_t, SmallVector<unsigned>> byPosition;
  for (unsigned i : group)
    byPosition[statements[i].schedule[k].position].push_back(i);
  isl_schedule *sequence = nullptr;
  for (auto &[position, members] : byPosition) {
    isl_schedule *part = scheduleTree(ctx, model, members, k + 1).release();
    sequence = sequence ? isl_schedule_sequence(sequence, part) : part;
  }
  return isl::manage(sequence);
}

/// An array argument that no code outside the region reads (the importer's
/// weft.region_only).
static bool isRegionOnly(Value memref) {
  return weft::detail::isMarkedArgument(
      memref, weft::WeftDialect::getRegionOnlyAttrName());
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
  SmallVector<unsigned> all =
      llvm::to_vector(llvm::seq<unsigned>(0, model.numStatements()));
  r.schedule = all.empty() ? isl::schedule::from_domain(r.domain)
                           : scheduleTree(c, model, all, 0);
  r.end = isl::union_set(c, "{ END[] }");
  isl::schedule schedule = isl::manage(isl_schedule_sequence(
      r.schedule.copy(), isl::schedule::from_domain(r.end).release()));
  isl_ctx_set_max_operations(ctx, maxOperations);
  isl_ctx_reset_operations(ctx);
  // END[] runs after the whole region and reads what it wrote, except the
  // variables declared in the region (allocas), which are gone by then, and
  // the private arrays (RegionFlow::privateArrays). Optimistically, every
  // array that no code outside the region reads is private; a read that
  // sees a value from before the region makes it shared. Where a read's
  // value comes from does not depend on END[], so the first flow tells all
  // such arrays.
  SmallVector<Value> shared;
  auto computeFlow = [&] {
    isl::union_set liveOut = isl::union_set::empty(c);
    isl::set_list written = r.writes.range().get_set_list();
    for (int k = 0, n = written.size(); k < n; ++k) {
      isl::set elements = written.at(k);
      Value memref = model.arrayOf(isl_set_get_tuple_name(elements.get()));
      if (memref && isa<BlockArgument>(memref) &&
          (!isRegionOnly(memref) || llvm::is_contained(shared, memref)))
        liveOut = liveOut.unite(elements);
    }
    r.endReads = isl::union_map::from_domain_and_range(r.end, liveOut);
    r.flow = isl::union_access_info(r.reads.unite(r.endReads))
                 .set_must_source(r.writes)
                 .set_schedule(schedule)
                 .compute_flow();
  };
  computeFlow();
  isl::set_list exposed = r.flow.must_no_source().range().get_set_list();
  for (int k = 0, n = exposed.size(); k < n; ++k) {
    Value memref = model.arrayOf(isl_set_get_tuple_name(exposed.at(k).get()));
    if (memref && isRegionOnly(memref))
      shared.push_back(memref);
  }
  for (BlockArgument arg : func.getArguments())
    if (isRegionOnly(arg) && !llvm::is_contained(shared, Value(arg)))
      r.privateArrays.push_back(arg);
  if (!shared.empty())
    computeFlow();
  flow = std::move(r);
  return *flow;
}

const weft::detail::RegionDependences &
PolyhedralRegionState::getDependences(unsigned long maxOperations) {
  if (dependences)
    return *dependences;
  const RegionFlow &f = getFlow(maxOperations);
  RegionDependences d;
  // The region flow's sinks include END[], after the region.
  d.flow = f.flow.must_dependence().subtract_range(f.end);
  // Memory-based anti and output dependences: a later write of an element
  // read or written before. As may-sources never kill each other, ISL
  // returns every earlier access of the element each write overwrites,
  // without pairing all statements through lex_lt.
  isl::union_map antiAndOutput = isl::union_access_info(f.writes)
                                     .set_may_source(f.reads.unite(f.writes))
                                     .set_schedule(f.schedule)
                                     .compute_flow()
                                     .may_dependence();
  d.all = d.flow.unite(antiAndOutput);
  dependences = std::move(d);
  return *dependences;
}
