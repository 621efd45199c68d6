//===- DeviceMapping.cpp - What GPU code generation asks ISL ----*- C++ -*-===//
//
// This file is compiled with exceptions.
//
//===----------------------------------------------------------------------===//
#include "weft/Analysis/Polyhedral/DeviceMapping.h"

#include "IslBoxes.h"
#include "RegionState.h"
#include "StatementDependences.h"

#include "mlir/Dialect/MemRef/IR/MemRef.h"

#include <isl/ast_build.h>
#include <isl/map.h>
#include <isl/set.h>

#include <optional>

using namespace mlir;
using weft::detail::ModelBuilder;
using weft::detail::StatementDependences;
using weft::detail::statementTuple;

static Value memrefOf(const ModelBuilder &model, unsigned statement) {
  Operation *access = model.accessOf(statement);
  if (auto load = dyn_cast<affine::AffineLoadOp>(access))
    return load.getMemRef();
  return cast<affine::AffineStoreOp>(access).getMemRef();
}

/// A scalar declared in the region that only `loop` uses: each GPU thread
/// may have its own.
static bool isLoopScalar(Value memref, affine::AffineForOp loop) {
  auto alloca = memref.getDefiningOp<memref::AllocaOp>();
  return alloca && alloca.getType().getRank() == 0 &&
         llvm::all_of(memref.getUsers(),
                      [&](Operation *user) { return loop->isAncestor(user); });
}

/// `{ S_s[...] }` for each statement of `statements`, with the model's
/// parameters.
static std::string statementSet(const ModelBuilder &model,
                                ArrayRef<unsigned> statements) {
  std::string s = model.params() + "{ ";
  for (auto [i, st] : llvm::enumerate(statements))
    s += (i ? "; " : "") +
         statementTuple(st, model.getStatements()[st].loops.size());
  return s + " }";
}

/// Every pair of instances of two statements of `statements` that access
/// the same memref.
static std::string samePairs(const ModelBuilder &model,
                             ArrayRef<unsigned> statements) {
  std::string s = model.params() + "{ ";
  bool first = true;
  for (unsigned from : statements)
    for (unsigned to : statements) {
      if (memrefOf(model, from) != memrefOf(model, to))
        continue;
      s += (first ? "" : "; ") +
           statementTuple(from, model.getStatements()[from].loops.size(),
                          "a") +
           " -> " +
           statementTuple(to, model.getStatements()[to].loops.size(), "b");
      first = false;
    }
  return s + " }";
}

/// Whether every flow dependence in `flow` into a read of `statements`
/// comes from the same iteration of `loop` (and of the loops around it).
static bool readsOwnIteration(const ModelBuilder &model,
                              const isl::union_map &flow,
                              ArrayRef<unsigned> statements,
                              affine::AffineForOp loop) {
  isl::map_list maps = flow.get_map_list();
  for (int k = 0, n = maps.size(); k < n; ++k) {
    isl::map m = maps.at(k);
    const char *in = isl_map_get_tuple_name(m.get(), isl_dim_in);
    const char *out = isl_map_get_tuple_name(m.get(), isl_dim_out);
    std::optional<unsigned> source =
        weft::detail::statementOfTuple(in ? in : "");
    std::optional<unsigned> sink =
        weft::detail::statementOfTuple(out ? out : "");
    if (!source || !sink || !llvm::is_contained(statements, *sink))
      continue;
    const auto &sourceLoops = model.getStatements()[*source].loops;
    const auto &sinkLoops = model.getStatements()[*sink].loops;
    auto depth = llvm::find(sinkLoops, loop) - sinkLoops.begin();
    if (depth == (long)sinkLoops.size() ||
        !llvm::is_contained(sourceLoops, loop))
      return false;
    std::string same;
    for (long d = 0; d <= depth; ++d)
      same += (d ? " and a" : "a") + std::to_string(d) + " = b" +
              std::to_string(d);
    isl::map sameIteration(
        m.ctx(), model.params() + "{ " +
                     statementTuple(*source, sourceLoops.size(), "a") +
                     " -> " + statementTuple(*sink, sinkLoops.size(), "b") +
                     " : " + same + " }");
    if (!m.is_subset(sameIteration))
      return false;
  }
  return true;
}

FailureOr<weft::DeviceLoopInfo>
weft::computeDeviceLoops(PolyhedralRegion &region,
                         unsigned long maxOperations) {
  weft::detail::PolyhedralRegionState &state = region.getState();
  FailureOr<const ModelBuilder *> built = state.getModel();
  if (failed(built))
    return failure();
  const ModelBuilder &model = **built;
  // The reduction updates each loop carries, which its threads may combine.
  FailureOr<FlowDependenceInfo> flow =
      computeFlowDependences(region, maxOperations);
  if (failed(flow))
    return failure();
  DeviceLoopInfo info;
  LogicalResult status =
      state.run("GPU mapping analysis", maxOperations, [&](isl::ctx ctx) {
        const weft::detail::RegionDependences &deps =
            state.getDependences(maxOperations);
        StatementDependences all(model, deps.all);
        // The statements of each array, to name one a loop carries a
        // dependence through.
        llvm::MapVector<Value, SmallVector<unsigned>> byArray;
        for (unsigned s = 0; s < model.numStatements(); ++s)
          byArray[memrefOf(model, s)].push_back(s);
        for (affine::AffineForOp loop : model.loops) {
          SmallVector<unsigned> scalars;
          for (unsigned s = 0; s < model.numStatements(); ++s)
            if (isLoopScalar(memrefOf(model, s), loop))
              scalars.push_back(s);
          bool carried;
          isl::union_map kept = deps.all;
          if (scalars.empty()) {
            carried = all.carriedBy(loop);
          } else if (!readsOwnIteration(model, deps.flow, scalars, loop)) {
            carried = true;
          } else {
            // Each thread writes its own copy before reading it: only the
            // flow dependences on the scalars remain, within an iteration.
            kept = deps.all.subtract(isl::union_map(ctx, samePairs(model, scalars)))
                       .unite(deps.flow);
            carried = StatementDependences(model, kept).carriedBy(loop);
          }
          info.threadParallel[loop] = !carried;
          if (!carried)
            continue;
          // Without the dependences among the accesses of the reduction
          // updates it carries, does the loop carry any?
          auto updates = flow->carriedReductions.find(loop);
          if (updates != flow->carriedReductions.end()) {
            isl::union_map rest = kept;
            for (const ModelBuilder::Reduction &r : model.reductions)
              if (llvm::any_of(updates->second,
                               [&](const FlowDependenceInfo::Reduction &u) {
                                 return u.store == model.accessOf(r.store);
                               }))
                rest = rest.subtract(
                    isl::union_map(ctx, model.reductionPairs(&r)));
            if (!StatementDependences(model, rest).carriedBy(loop))
              info.reductions[loop] = updates->second;
          }
          info.carriedThrough[loop] = Value();
          for (auto &[memref, statements] : byArray) {
            isl::union_set on(ctx, statementSet(model, statements));
            if (StatementDependences(
                    model, kept.intersect_domain(on).intersect_range(on))
                    .carriedBy(loop)) {
              info.carriedThrough[loop] = memref;
              break;
            }
          }
        }
      });
  if (failed(status))
    return failure();
  return info;
}

FailureOr<SmallVector<Value>>
weft::computePrivateScalarArguments(PolyhedralRegion &region,
                                    unsigned long maxOperations) {
  weft::detail::PolyhedralRegionState &state = region.getState();
  if (failed(state.getModel()))
    return failure();
  SmallVector<Value> scalars;
  LogicalResult status =
      state.run("private scalars", maxOperations, [&](isl::ctx) {
        for (Value memref : state.getFlow(maxOperations).privateArrays)
          if (cast<MemRefType>(memref.getType()).getRank() == 0)
            scalars.push_back(memref);
      });
  if (failed(status))
    return failure();
  return scalars;
}

//===----------------------------------------------------------------------===//
// Transfers
//===----------------------------------------------------------------------===//

namespace {
/// Bounding boxes of sets of one array's elements.
class Boxes {
public:
  Boxes(const ModelBuilder &model, isl::ctx ctx, weft::DeviceTransfers &result)
      : model(model), ctx(ctx), result(result) {}

  /// The box of `elements`, a set of `rank` subscripts.
  weft::DeviceBox box(const isl::set &elements, unsigned rank);
  /// The elements of that box, as a set.
  isl::set boxSet(const isl::set &elements, unsigned rank);

private:
  /// Per dimension, the first subscript of `elements` and the one past the
  /// last, defined for every value of the symbols: [0, 0) where the set is
  /// empty.
  std::vector<std::pair<isl::pw_aff, isl::pw_aff>>
  bounds(const isl::set &elements, unsigned rank);
  /// `pa` where it is defined, 0 elsewhere.
  isl::pw_aff total(isl::pw_aff pa);

  const ModelBuilder &model;
  isl::ctx ctx;
  weft::DeviceTransfers &result;
};
} // end anonymous namespace

isl::pw_aff Boxes::total(isl::pw_aff pa) {
  isl::set rest = pa.domain().complement();
  isl_pw_aff *zero = isl_pw_aff_zero_on_domain(
      isl_local_space_from_space(isl_set_get_space(rest.get())));
  zero = isl_pw_aff_intersect_domain(zero, rest.copy());
  return isl::manage(isl_pw_aff_union_max(pa.release(), zero));
}

std::vector<std::pair<isl::pw_aff, isl::pw_aff>>
Boxes::bounds(const isl::set &elements, unsigned rank) {
  std::vector<std::pair<isl::pw_aff, isl::pw_aff>> result;
  for (unsigned d = 0; d < rank; ++d) {
    isl::set range;
    isl::pw_aff lo, hi;
    try {
      std::tie(range, lo, hi) =
          weft::detail::subscriptRange(ctx.get(), elements, d, rank);
    } catch (const isl::exception_invalid &) {
      // A null result of a blown quota: say so.
      if (isl_ctx_last_error(ctx.get()) == isl_error_quota)
        isl::exception::throw_last_error(ctx.get());
      throw;
    }
    if (isl_pw_aff_involves_nan(lo.get()) || isl_pw_aff_involves_nan(hi.get()))
      throw std::runtime_error("a subscript range is unbounded");
    result.push_back({total(lo), total(hi.add_constant(isl::val::one(ctx)))});
  }
  return result;
}

weft::DeviceBox Boxes::box(const isl::set &elements, unsigned rank) {
  weft::DeviceBox b;
  if (elements.is_empty())
    return b;
  b.empty = false;
  isl_ctx *raw = ctx.get();
  isl::ast_build build = isl::ast_build::from_context(
      isl::set::universe(elements.space().params()));
  for (auto &[lo, end] : bounds(elements, rank))
    b.bounds.push_back(
        {weft::detail::takeExpr(
             raw, isl_ast_build_expr_from_pw_aff(build.get(), lo.copy())),
         weft::detail::takeExpr(
             raw, isl_ast_build_expr_from_pw_aff(build.get(), end.copy()))});
  weft::detail::addParams(model, elements, result.params);
  b.exact = boxSet(elements, rank).is_subset(elements);
  return b;
}

isl::set Boxes::boxSet(const isl::set &elements, unsigned rank) {
  isl::set box = isl::set::universe(elements.space());
  if (rank == 0)
    return elements.is_empty() ? elements : box;
  // Managed objects only: bounds() throws when the quota runs out, and raw
  // lists allocated before it would leak.
  isl::pw_aff_list lower(ctx, rank), upper(ctx, rank);
  for (auto &[lo, end] : bounds(elements, rank)) {
    lower = lower.add(lo);
    upper = upper.add(end.add_constant(isl::val::negone(ctx)));
  }
  isl::space space = elements.space();
  return box.lower_bound(isl::multi_pw_aff(space, lower))
      .upper_bound(isl::multi_pw_aff(space, upper));
}

FailureOr<weft::DeviceTransfers>
weft::computeDeviceTransfers(PolyhedralRegion &region, ArrayRef<Value> memrefs,
                             unsigned long maxOperations) {
  weft::detail::PolyhedralRegionState &state = region.getState();
  FailureOr<const ModelBuilder *> built = state.getModel();
  if (failed(built))
    return failure();
  const ModelBuilder &model = **built;
  DeviceTransfers result;
  LogicalResult status =
      state.run("device transfers", maxOperations, [&](isl::ctx ctx) {
        const weft::detail::RegionFlow &flow = state.getFlow(maxOperations);
        isl::union_set accessed = flow.reads.unite(flow.writes).range();
        // Reads without a source in the region see data from before it.
        isl::union_set flowIn = flow.flow.must_no_source()
                                    .intersect_domain(flow.domain)
                                    .range();
        isl::union_set liveOut = flow.endReads.range();
        Boxes boxes(model, ctx, result);
        for (Value memref : memrefs) {
          auto tuple = model.getArrays().find(memref);
          if (tuple == model.getArrays().end())
            continue;
          unsigned rank = cast<MemRefType>(memref.getType()).getRank();
          std::string dims;
          for (unsigned d = 0; d < rank; ++d)
            dims += (d ? ", i" : "i") + std::to_string(d);
          isl::set none(ctx, model.params() + "{ " + tuple->second + "[" +
                                 dims + "] : 1 = 0 }");
          auto of = [&](const isl::union_set &sets) {
            return sets.extract_set(none.space()).unite(none);
          };
          DeviceArrayTransfers &a = result.arrays.emplace_back();
          a.memref = memref;
          a.accessed = boxes.box(of(accessed), rank);
          isl::set out = of(liveOut);
          a.out = boxes.box(out, rank);
          isl::set in = of(flowIn);
          isl::set moved = in;
          if (!a.out.exact)
            moved = moved.unite(boxes.boxSet(out, rank));
          a.in = boxes.box(moved, rank);
          a.inIsFlowIn =
              a.in.empty || boxes.boxSet(moved, rank).is_subset(in);
        }
      });
  if (failed(status))
    return failure();
  return result;
}
