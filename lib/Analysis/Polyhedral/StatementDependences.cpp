//===- StatementDependences.cpp - Dependences by statement pair -----------===//
//
// This file is compiled with exceptions.
//
//===----------------------------------------------------------------------===//
#include "StatementDependences.h"

#include <isl/map.h>
#include <isl/set.h>

#include <optional>

using namespace mlir;
using weft::detail::StatementDependences;

static std::optional<unsigned> statementOf(const isl::map &m,
                                           isl_dim_type type) {
  const char *name = isl_map_get_tuple_name(m.get(), type);
  return weft::detail::statementOfTuple(name ? name : "");
}

StatementDependences::StatementDependences(const ModelBuilder &model,
                                           const isl::union_map &deps)
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

int StatementDependences::depthOf(unsigned statement,
                                  affine::AffineForOp loop) const {
  const auto &loops = model.getStatements()[statement].loops;
  auto it = llvm::find(loops, loop);
  return it == loops.end() ? -1 : int(it - loops.begin());
}

isl::map StatementDependences::inOneExecution(const Pair &p,
                                              affine::AffineForOp loop,
                                              int &depth) const {
  depth = depthOf(p.source, loop);
  if (depth < 0 || depthOf(p.sink, loop) != depth)
    return isl::map();
  isl_map *m = p.relation.copy();
  for (int k = 0; k < depth; ++k)
    m = isl_map_equate(m, isl_dim_in, k, isl_dim_out, k);
  return isl::manage(m);
}

isl::map StatementDependences::carried(const Pair &p, affine::AffineForOp loop,
                                       int &depth) const {
  isl::map m = inOneExecution(p, loop, depth);
  // (isl::map's copy constructor rejects a null map.)
  if (m.is_null())
    return isl::map();
  return isl::manage(
      isl_map_order_lt(m.release(), isl_dim_in, depth, isl_dim_out, depth));
}

bool StatementDependences::within(
    affine::AffineForOp loop,
    llvm::function_ref<bool(unsigned, unsigned)> select) const {
  for (const Pair &p : pairs) {
    if (!select(p.source, p.sink))
      continue;
    int depth;
    isl::map m = inOneExecution(p, loop, depth);
    if (!m.is_null() && !m.is_empty())
      return true;
  }
  return false;
}

bool StatementDependences::withinWhere(
    affine::AffineForOp loop,
    llvm::function_ref<isl::map(isl::map, int)> restrict,
    llvm::function_ref<bool(unsigned, unsigned)> select) const {
  for (const Pair &p : pairs) {
    if (select && !select(p.source, p.sink))
      continue;
    int depth;
    isl::map m = inOneExecution(p, loop, depth);
    if (!m.is_null() && !restrict(m, depth).is_empty())
      return true;
  }
  return false;
}

bool StatementDependences::carriedBy(affine::AffineForOp loop) const {
  for (const Pair &p : pairs) {
    int depth;
    isl::map m = carried(p, loop, depth);
    if (!m.is_null() && !m.is_empty())
      return true;
  }
  return false;
}

isl::set StatementDependences::carriedSteps(affine::AffineForOp loop) const {
  isl::set steps;
  for (const Pair &p : pairs) {
    int depth;
    isl::map m = carried(p, loop, depth);
    if (m.is_null())
      continue;
    // [o, s, rest] -> [o, t, rest'] becomes [o, s] -> [t], then [o, s, t].
    isl_map *r = m.release();
    int in = isl_map_dim(r, isl_dim_in), out = isl_map_dim(r, isl_dim_out);
    r = isl_map_project_out(r, isl_dim_in, depth + 1, in - depth - 1);
    r = isl_map_project_out(r, isl_dim_out, depth + 1, out - depth - 1);
    r = isl_map_project_out(r, isl_dim_out, 0, depth);
    isl_set *flat = isl_set_flatten(isl_map_wrap(r));
    isl::set one = isl::manage(isl_set_reset_tuple_id(flat));
    steps = steps.is_null() ? one : steps.unite(one);
  }
  return steps;
}
