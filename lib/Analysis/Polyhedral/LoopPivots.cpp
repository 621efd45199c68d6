//===- LoopPivots.cpp - Loops whose dependences meet at one iteration -----===//
//
// This file is compiled with exceptions.
//
//===----------------------------------------------------------------------===//
#include "weft/Analysis/Polyhedral/LoopPivots.h"

#include "RegionState.h"
#include "StatementDependences.h"

#include <isl/aff.h>
#include <isl/local_space.h>
#include <isl/map.h>
#include <isl/set.h>
#include <isl/space.h>

#include <optional>

using namespace mlir;
using weft::detail::ModelBuilder;
using weft::detail::StatementDependences;

/// The pivots of a loop's carried `steps` [o, s, t]: { [o] -> [x] } for the
/// x that every step at o starts or ends at, wherever some step exists;
/// fails (a null map) where some o with steps has no such x.
static isl::map pivotsOf(const isl::set &steps) {
  unsigned d = isl_set_dim(steps.get(), isl_dim_set) - 2;
  isl_set *withX = isl_set_add_dims(steps.copy(), isl_dim_set, 1);
  isl_local_space *ls = isl_local_space_from_space(isl_set_get_space(withX));
  auto var = [&](unsigned k) {
    return isl_aff_var_on_domain(isl_local_space_copy(ls), isl_dim_set, k);
  };
  isl_set *avoids = isl_set_intersect(isl_aff_ne_set(var(d), var(d + 2)),
                                      isl_aff_ne_set(var(d + 1), var(d + 2)));
  isl_local_space_free(ls);
  // [o, x] such that some step at o neither starts nor ends at x.
  isl_set *bad =
      isl_set_project_out(isl_set_intersect(withX, avoids), isl_dim_set, d, 2);
  isl::set where =
      isl::manage(isl_set_project_out(steps.copy(), isl_dim_set, d, 2));
  isl_set *good =
      isl_set_subtract(isl_set_add_dims(where.copy(), isl_dim_set, 1), bad);
  isl::map pivots = isl::manage(isl_map_move_dims(
      isl_map_from_range(good), isl_dim_in, 0, isl_dim_out, 0, d));
  if (!pivots.domain().is_equal(where))
    return isl::map();
  return pivots;
}

/// `aff` over the loops around (dims) and the model's parameters as an
/// affine expression; its symbols are appended to `symbols` and its ISL
/// spelling ("i0 + 1", "p0 - i1") to `text`.
static std::optional<AffineExpr> toAffineExpr(const isl::aff &aff,
                                              const ModelBuilder &model,
                                              SmallVectorImpl<Value> &symbols,
                                              std::string &text,
                                              MLIRContext *context) {
  isl_aff *a = aff.get();
  if (isl_aff_dim(a, isl_dim_div) > 0)
    return std::nullopt;
  auto integer = [](isl_val *v) -> std::optional<int64_t> {
    std::optional<int64_t> r;
    if (isl_val_is_int(v))
      r = isl_val_get_num_si(v);
    isl_val_free(v);
    return r;
  };
  std::optional<int64_t> c = integer(isl_aff_get_constant_val(a));
  if (!c || integer(isl_aff_get_denominator_val(a)) != 1)
    return std::nullopt;
  AffineExpr e = getAffineConstantExpr(0, context);
  auto addTerm = [&](int64_t coefficient, AffineExpr term, StringRef name) {
    e = e + term * coefficient;
    if (coefficient == 0)
      return;
    text += text.empty() ? (coefficient < 0 ? "-" : "")
                         : (coefficient < 0 ? " - " : " + ");
    if (std::abs(coefficient) != 1)
      text += std::to_string(std::abs(coefficient)) + "*";
    text += name;
  };
  for (isl_dim_type type : {isl_dim_in, isl_dim_param})
    for (int k = 0, n = isl_aff_dim(a, type); k < n; ++k) {
      std::optional<int64_t> ck =
          integer(isl_aff_get_coefficient_val(a, type, k));
      if (!ck)
        return std::nullopt;
      if (type == isl_dim_in) {
        addTerm(*ck, getAffineDimExpr(k, context), "i" + std::to_string(k));
        continue;
      }
      if (*ck == 0)
        continue;
      StringRef name = isl_aff_get_dim_name(a, type, k);
      auto it = llvm::find_if(model.getSymbols(),
                              [&](const auto &s) { return s.second == name; });
      if (it == model.getSymbols().end())
        return std::nullopt;
      addTerm(*ck, getAffineSymbolExpr(symbols.size(), context), name);
      symbols.push_back(it->first);
    }
  if (*c != 0 || text.empty())
    text += text.empty()
                ? std::to_string(*c)
                : (*c < 0 ? " - " : " + ") + std::to_string(std::abs(*c));
  return e + *c;
}

/// The iterations [o, x] of the loop at `depth` in which some statement
/// runs.
static isl::set iterationsOf(affine::AffineForOp loop, unsigned depth,
                             const ModelBuilder &model, isl::ctx ctx) {
  isl::set all;
  for (const weft::detail::Statement &st : model.getStatements()) {
    if (st.loops.size() <= depth || st.loops[depth] != loop)
      continue;
    isl::set dom(ctx, model.params() + "{ " + st.domain + " }");
    unsigned n = st.loops.size();
    isl::set one = isl::manage(isl_set_reset_tuple_id(isl_set_project_out(
        dom.release(), isl_dim_set, depth + 1, n - depth - 1)));
    all = all.is_null() ? one : all.unite(one);
  }
  return all;
}

/// Whether some of `iterations` [o, x] lies before (`before`) or after the
/// pivot x = f(o).
static bool runsBeside(const isl::set &iterations, const isl::aff &f,
                       unsigned depth, bool before) {
  if (iterations.is_null())
    return true;
  isl_aff *pivot = isl_aff_align_params(
      isl_aff_add_dims(f.copy(), isl_dim_in, 1),
      isl_space_params(isl_set_get_space(iterations.get())));
  isl_local_space *ls =
      isl_local_space_from_space(isl_set_get_space(iterations.get()));
  isl_aff *x = isl_aff_var_on_domain(ls, isl_dim_set, depth);
  isl_set *side = before ? isl_aff_lt_set(x, pivot) : isl_aff_gt_set(x, pivot);
  return !iterations.intersect(isl::manage(side)).is_empty();
}

/// The pivot of `loop`, one affine function valid wherever it carries a
/// dependence, from the least or greatest pivots' pieces.
static std::optional<weft::LoopPivot> pivotOf(affine::AffineForOp loop,
                                              const isl::map &pivots,
                                              const ModelBuilder &model) {
  isl::set where = pivots.domain();
  std::optional<weft::LoopPivot> found;
  auto tryPiece = [&](isl::set, isl::multi_aff piece) {
    if (found)
      return;
    isl::aff aff = piece.at(0);
    isl::map graph = isl::manage(isl_map_from_aff(aff.copy()));
    if (!graph.intersect_domain(where).is_subset(pivots))
      return;
    weft::LoopPivot p;
    SmallVector<Value> symbols;
    std::optional<AffineExpr> e =
        toAffineExpr(aff, model, symbols, p.text, loop.getContext());
    if (!e)
      return;
    // The loops around `loop`, outermost first.
    SmallVector<Value> ivs;
    for (Operation *op = loop->getParentOp(); op; op = op->getParentOp())
      if (auto around = dyn_cast<affine::AffineForOp>(op))
        ivs.insert(ivs.begin(), around.getInductionVar());
    p.map = AffineMap::get(ivs.size(), symbols.size(), *e);
    p.operands.append(ivs);
    p.operands.append(symbols);
    p.text = "i" + std::to_string(ivs.size()) + " = " + p.text;
    isl::set iterations = iterationsOf(loop, ivs.size(), model, pivots.ctx());
    p.runsBefore = runsBeside(iterations, aff, ivs.size(), /*before=*/true);
    p.runsAfter = runsBeside(iterations, aff, ivs.size(), /*before=*/false);
    found = std::move(p);
  };
  for (isl::pw_multi_aff extreme :
       {pivots.lexmin_pw_multi_aff(), pivots.lexmax_pw_multi_aff()})
    extreme.foreach_piece(tryPiece);
  return found;
}

FailureOr<llvm::DenseMap<Operation *, weft::LoopPivot>>
weft::computeLoopPivots(PolyhedralRegion &region,
                        ArrayRef<affine::AffineForOp> loops,
                        unsigned long maxOperations) {
  weft::detail::PolyhedralRegionState &state = region.getState();
  FailureOr<const ModelBuilder *> built = state.getModel();
  if (failed(built))
    return failure();
  const ModelBuilder &model = **built;
  llvm::DenseMap<Operation *, LoopPivot> result;
  LogicalResult status =
      state.run("finding pivot iterations", maxOperations, [&](isl::ctx) {
        StatementDependences flow(model,
                                  state.getDependences(maxOperations).flow);
        for (affine::AffineForOp loop : loops) {
          isl::set steps = flow.carriedSteps(loop);
          if (steps.is_null() || steps.is_empty())
            continue;
          isl::map pivots = pivotsOf(steps);
          if (pivots.is_null())
            continue;
          if (std::optional<LoopPivot> p = pivotOf(loop, pivots, model))
            result[loop] = std::move(*p);
        }
      });
  if (failed(status))
    return failure();
  return result;
}
