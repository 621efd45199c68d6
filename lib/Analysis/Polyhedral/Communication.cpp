//===- Communication.cpp - Exact communication sets with ISL ----*- C++ -*-===//
//
// The flow dependences of the whole region come from one compute_flow call
// whose sinks are the reads plus a virtual statement END[] after the region
// that reads every written element, so that the last writer of each live-out
// value is known too. After a distributed unit S:
//
//   elements(S) = { x : (S[i] -> x) flows to (T[j] -> x), S[i] is in the
//                   current execution of S (its sequential loops at e0,
//                   e1, ...) and in the sender's block, and T[j] is a read
//                   the receiver makes (in its block of T's group if T is
//                   distributed; END[] only on rank 0) }
//
// Since every flow has one source, each value goes once to each reader.
//
// This file is compiled with exceptions (see CMakeLists.txt).
//
//===----------------------------------------------------------------------===//
#include "weft/Analysis/Polyhedral/Communication.h"
#include "dialects/Dist/IR/DistDialect.h"

#include "IslBoxes.h"
#include "RegionState.h"
#include "Selections.h"

#include <isl/ast.h>
#include <isl/ast_build.h>
#include <isl/constraint.h>
#include <isl/cpp.h>
#include <isl/ctx.h>
#include <isl/options.h>

#include <cstdlib>
#include <stdexcept>

using namespace mlir;
using weft::AstExpr;
using weft::AstNode;
using weft::ReductionCombine;
using weft::UnitCombine;
using weft::UnitReduction;
using weft::detail::ModelBuilder;
using weft::detail::Selections;
using weft::detail::addParams;
using weft::detail::subscriptRange;
using weft::detail::takeExpr;
using weft::detail::statementTuple;

//===----------------------------------------------------------------------===//
// ISL AST to AstNode
//===----------------------------------------------------------------------===//

namespace {
/// An AST the conversion does not expect (it enumerates plain sets, so this
/// is an internal error).
struct AstError : std::runtime_error {
  using std::runtime_error::runtime_error;
};
} // end anonymous namespace

static void throwIfNull(isl_ctx *ctx, const void *p) {
  if (!p)
    isl::exception::throw_last_error(ctx);
}

static AstExpr convertExpr(isl_ctx *ctx, isl_ast_expr *e);

static AstExpr opExpr(isl_ctx *ctx, isl_ast_expr *e, AstExpr::Kind kind) {
  AstExpr r;
  r.kind = kind;
  isl_size n = isl_ast_expr_op_get_n_arg(e);
  for (isl_size i = 0; i < n; ++i) {
    isl_ast_expr *arg = isl_ast_expr_op_get_arg(e, i);
    throwIfNull(ctx, arg);
    r.args.push_back(convertExpr(ctx, arg));
    isl_ast_expr_free(arg);
  }
  return r;
}

static AstExpr convertExpr(isl_ctx *ctx, isl_ast_expr *e) {
  using K = AstExpr::Kind;
  AstExpr r;
  switch (isl_ast_expr_get_type(e)) {
  case isl_ast_expr_int: {
    isl_val *v = isl_ast_expr_get_val(e);
    throwIfNull(ctx, v);
    r.kind = K::Int;
    r.value = isl_val_get_num_si(v);
    isl_val_free(v);
    return r;
  }
  case isl_ast_expr_id: {
    isl_id *id = isl_ast_expr_get_id(e);
    throwIfNull(ctx, id);
    r.kind = K::Id;
    r.id = isl_id_get_name(id);
    isl_id_free(id);
    return r;
  }
  case isl_ast_expr_op:
    break;
  default:
    throw AstError("unexpected AST expression");
  }
  switch (isl_ast_expr_op_get_type(e)) {
  case isl_ast_expr_op_and:
  case isl_ast_expr_op_and_then:
    return opExpr(ctx, e, K::And);
  case isl_ast_expr_op_or:
  case isl_ast_expr_op_or_else:
    return opExpr(ctx, e, K::Or);
  case isl_ast_expr_op_max:
    return opExpr(ctx, e, K::Max);
  case isl_ast_expr_op_min:
    return opExpr(ctx, e, K::Min);
  case isl_ast_expr_op_minus:
    return opExpr(ctx, e, K::Neg);
  case isl_ast_expr_op_add:
    return opExpr(ctx, e, K::Add);
  case isl_ast_expr_op_sub:
    return opExpr(ctx, e, K::Sub);
  case isl_ast_expr_op_mul:
    return opExpr(ctx, e, K::Mul);
  case isl_ast_expr_op_div:
    return opExpr(ctx, e, K::ExactDiv);
  case isl_ast_expr_op_fdiv_q:
    return opExpr(ctx, e, K::FloorDiv);
  case isl_ast_expr_op_pdiv_q:
    return opExpr(ctx, e, K::TruncDiv);
  case isl_ast_expr_op_pdiv_r:
  case isl_ast_expr_op_zdiv_r:
    return opExpr(ctx, e, K::Rem);
  case isl_ast_expr_op_cond:
  case isl_ast_expr_op_select:
    return opExpr(ctx, e, K::Select);
  case isl_ast_expr_op_eq:
    return opExpr(ctx, e, K::Eq);
  case isl_ast_expr_op_le:
    return opExpr(ctx, e, K::Le);
  case isl_ast_expr_op_lt:
    return opExpr(ctx, e, K::Lt);
  case isl_ast_expr_op_ge:
    return opExpr(ctx, e, K::Ge);
  case isl_ast_expr_op_gt:
    return opExpr(ctx, e, K::Gt);
  default:
    throw AstError("unexpected AST operation");
  }
}

AstExpr weft::detail::takeExpr(isl_ctx *ctx, isl_ast_expr *e) {
  throwIfNull(ctx, e);
  AstExpr r = convertExpr(ctx, e);
  isl_ast_expr_free(e);
  return r;
}

static AstNode convertNode(isl_ctx *ctx, isl_ast_node *node);

static AstNode takeNode(isl_ctx *ctx, isl_ast_node *node) {
  throwIfNull(ctx, node);
  AstNode r = convertNode(ctx, node);
  isl_ast_node_free(node);
  return r;
}

static AstNode convertNode(isl_ctx *ctx, isl_ast_node *node) {
  AstNode r;
  switch (isl_ast_node_get_type(node)) {
  case isl_ast_node_for: {
    r.kind = AstNode::Kind::For;
    r.iterator = takeExpr(ctx, isl_ast_node_for_get_iterator(node)).id;
    r.init = takeExpr(ctx, isl_ast_node_for_get_init(node));
    r.cond = takeExpr(ctx, isl_ast_node_for_get_cond(node));
    AstExpr inc = takeExpr(ctx, isl_ast_node_for_get_inc(node));
    if (inc.kind != AstExpr::Kind::Int)
      throw AstError("non-constant loop step");
    r.step = inc.value;
    r.children.push_back(takeNode(ctx, isl_ast_node_for_get_body(node)));
    return r;
  }
  case isl_ast_node_if:
    r.kind = AstNode::Kind::If;
    r.condition = takeExpr(ctx, isl_ast_node_if_get_cond(node));
    r.children.push_back(takeNode(ctx, isl_ast_node_if_get_then_node(node)));
    if (isl_ast_node_if_has_else_node(node) == isl_bool_true)
      r.children.push_back(takeNode(ctx, isl_ast_node_if_get_else_node(node)));
    return r;
  case isl_ast_node_block: {
    r.kind = AstNode::Kind::Block;
    isl_ast_node_list *list = isl_ast_node_block_get_children(node);
    throwIfNull(ctx, list);
    isl_size n = isl_ast_node_list_n_ast_node(list);
    for (isl_size i = 0; i < n; ++i)
      r.children.push_back(
          takeNode(ctx, isl_ast_node_list_get_ast_node(list, i)));
    isl_ast_node_list_free(list);
    return r;
  }
  case isl_ast_node_mark:
    return takeNode(ctx, isl_ast_node_mark_get_node(node));
  case isl_ast_node_user: {
    // A call `M(c0, c1, ...)`: the element.
    r.kind = AstNode::Kind::Element;
    AstExpr call;
    isl_ast_expr *e = isl_ast_node_user_get_expr(node);
    throwIfNull(ctx, e);
    isl_size n = isl_ast_expr_op_get_n_arg(e);
    for (isl_size i = 1; i < n; ++i)
      r.subscripts.push_back(takeExpr(ctx, isl_ast_expr_op_get_arg(e, i)));
    isl_ast_expr_free(e);
    return r;
  }
  default:
    throw AstError("unexpected AST node");
  }
}

/// What every block satisfies, lo <= hi, for the bounds of 2-D grid blocks
/// among the parameters of `set` (the universe if there are none). Without
/// it ISL splits a 2-D grid's sets into many cases of empty blocks, which
/// the AST generator must then separate.
static isl::set gridBlockContext(const isl::set &set) {
  isl::set context = isl::set::universe(set.space().params());
  std::string params, bounds;
  for (int p = 0, np = isl_set_dim(set.get(), isl_dim_param); p < np; ++p) {
    std::string name = isl_set_get_dim_name(set.get(), isl_dim_param, p);
    params += (p ? ", " : "") + name;
    std::optional<weft::detail::BlockParam> block =
        weft::detail::parseBlockParam(name);
    if (!block || block->gridDims != 2 || !block->lo)
      continue;
    std::string hi = name;
    hi.replace(hi.find("lo"), 2, "hi");
    bounds += (bounds.empty() ? "" : " and ") + name + " <= " + hi;
  }
  if (bounds.empty())
    return context;
  return isl::set(set.ctx(), "[" + params + "] -> { : " + bounds + " }");
}

/// The constraints of `set`'s pieces, existentially quantified variables
/// counted as constraints, given the grid's block bounds: what the
/// runtime's tables hold of it, without computing them.
static size_t constraintCount(isl::set set) {
  set = set.gist_params(gridBlockContext(set)).coalesce();
  size_t count = 0;
  isl_stat status = isl_set_foreach_basic_set(
      set.get(),
      [](isl_basic_set *piece, void *user) -> isl_stat {
        isl_size constraints = isl_basic_set_n_constraint(piece);
        isl_size divs = isl_basic_set_dim(piece, isl_dim_div);
        isl_basic_set_free(piece);
        if (constraints < 0 || divs < 0)
          return isl_stat_error;
        *static_cast<size_t *>(user) += 1 + constraints + divs;
        return isl_stat_ok;
      },
      &count);
  if (status < 0)
    isl::exception::throw_last_error(set.ctx().get());
  return count;
}

/// A loop nest enumerating `set` in lexicographic order.
static AstNode enumerate(isl::set set) {
  isl::ctx ctx = set.ctx();
  isl::set context = gridBlockContext(set);
  set = set.gist_params(context);
  isl::ast_build build = isl::ast_build::from_context(context);
  isl::union_map schedule = isl::union_set(set).identity();
  isl::ast_node node = build.node_from_schedule_map(schedule);
  return convertNode(ctx.get(), node.get());
}

//===----------------------------------------------------------------------===//
// Communication sets
//===----------------------------------------------------------------------===//

/// `e` as `rest + constant`.
static std::pair<AffineExpr, int64_t> splitConstant(AffineExpr e) {
  if (auto c = dyn_cast<AffineConstantExpr>(e))
    return {getAffineConstantExpr(0, e.getContext()), c.getValue()};
  if (auto add = dyn_cast<AffineBinaryOpExpr>(e))
    if (add.getKind() == AffineExprKind::Add)
      if (auto c = dyn_cast<AffineConstantExpr>(add.getRHS()))
        return {add.getLHS(), c.getValue()};
  return {e, 0};
}

/// Bounds that differ by more than this are not aligned: the blocks of
/// [0, 256) and [0, 2048) over one hull would leave most ranks idle.
static constexpr int64_t kMaxAlignedOffset = 4;

/// Whether two loops' bounds differ only by small constants, or they are
/// pieces of one loop.
static bool alignable(affine::AffineForOp x, affine::AffineForOp y) {
  if (Attribute split =
          x->getAttr(weft::dist::DistDialect::getPivotSplitAttrName()))
    if (split == y->getAttr(weft::dist::DistDialect::getPivotSplitAttrName()))
      return true;
  auto same = [](AffineMap a, ValueRange ao, AffineMap b, ValueRange bo) {
    if (a.getNumResults() != 1 || b.getNumResults() != 1 ||
        a.getNumDims() != b.getNumDims() ||
        a.getNumSymbols() != b.getNumSymbols() || !llvm::equal(ao, bo))
      return false;
    auto [restA, constantA] = splitConstant(a.getResult(0));
    auto [restB, constantB] = splitConstant(b.getResult(0));
    return restA == restB &&
           std::abs(constantA - constantB) <= kMaxAlignedOffset;
  };
  if (x.getLowerBoundMap() == y.getLowerBoundMap() &&
      x.getUpperBoundMap() == y.getUpperBoundMap() &&
      llvm::equal(x.getLowerBoundOperands(), y.getLowerBoundOperands()) &&
      llvm::equal(x.getUpperBoundOperands(), y.getUpperBoundOperands()))
    return true;
  return same(x.getLowerBoundMap(), x.getLowerBoundOperands(),
              y.getLowerBoundMap(), y.getLowerBoundOperands()) &&
         same(x.getUpperBoundMap(), x.getUpperBoundOperands(),
              y.getUpperBoundMap(), y.getUpperBoundOperands());
}

SmallVector<affine::AffineForOp, 2>
weft::splitLoops(const weft::DistUnit &unit) {
  SmallVector<affine::AffineForOp, 2> loops{cast<affine::AffineForOp>(unit.op)};
  if (unit.gridDims == 2)
    loops.push_back(weft::innerGridLoop(loops.front()));
  return loops;
}

affine::AffineForOp weft::innerGridLoop(affine::AffineForOp loop) {
  for (Operation &op : loop.getBody()->without_terminator())
    if (auto inner = dyn_cast<affine::AffineForOp>(op))
      return inner;
  return nullptr;
}

SmallVector<unsigned> weft::blockGroups(ArrayRef<DistUnit> units) {
  SmallVector<unsigned> group;
  // Units over grids of different rank, or whose split loops do not line
  // up one by one, have blocks of their own.
  auto sameBlocks = [&](const DistUnit &x, const DistUnit &y) {
    if (x.gridDims != y.gridDims)
      return false;
    return llvm::all_of(llvm::zip(splitLoops(x), splitLoops(y)), [](auto p) {
      return alignable(std::get<0>(p), std::get<1>(p));
    });
  };
  for (auto [u, unit] : llvm::enumerate(units)) {
    group.push_back(u);
    if (!unit.distributed)
      continue;
    for (unsigned v = 0; v < u; ++v)
      if (units[v].distributed && group[v] == v && sameBlocks(unit, units[v])) {
        group[u] = v;
        break;
      }
  }
  return group;
}

/// What the parameter called `name` stands for.
static weft::CommParam classifyParam(const ModelBuilder &model,
                                     StringRef name) {
  using K = weft::CommParam::Kind;
  weft::CommParam p{K::Symbol, Value(), 0, 0};
  if (name == "rq") {
    p.kind = K::ReceiverRank;
  } else if (std::optional<weft::detail::BlockParam> block =
                 weft::detail::parseBlockParam(name)) {
    p.kind = block->sender ? (block->lo ? K::SenderLo : K::SenderHi)
                           : (block->lo ? K::ReceiverLo : K::ReceiverHi);
    p.index = block->group.value_or(0);
    p.axis = block->axis;
  } else if (name.starts_with("e")) {
    p.kind = K::Enclosing;
    name.drop_front().getAsInteger(10, p.index);
  } else {
    for (auto &[value, symbol] : model.getSymbols())
      if (symbol == name)
        p.symbol = value;
  }
  return p;
}

/// The names of the parameters of `set`, in order.
static std::vector<std::string> paramNames(const isl::set &set) {
  std::vector<std::string> names;
  for (int p = 0, np = isl_set_dim(set.get(), isl_dim_param); p < np; ++p)
    names.push_back(isl_set_get_dim_name(set.get(), isl_dim_param, p));
  return names;
}

void weft::detail::addParams(
    const ModelBuilder &model, const isl::set &set,
    std::vector<std::pair<std::string, weft::CommParam>> &params) {
  for (int p = 0, np = isl_set_dim(set.get(), isl_dim_param); p < np; ++p) {
    std::string name = isl_set_get_dim_name(set.get(), isl_dim_param, p);
    if (llvm::none_of(params, [&](const auto &known) {
          return known.first == name;
        }))
      params.push_back({name, classifyParam(model, name)});
  }
}

FailureOr<weft::RegionExchanges>
weft::computeExchanges(PolyhedralRegion &analysis, ArrayRef<DistUnit> units,
                       bool liveOutEverywhere, unsigned long maxOperations) {
  weft::detail::PolyhedralRegionState &state = analysis.getState();
  auto built = state.getModel(units);
  if (failed(built))
    return failure();
  const ModelBuilder &model = *built->model;
  RegionExchanges result;
  std::vector<Exchange> &exchanges = result.exchanges;
  if (llvm::none_of(units, [](const DistUnit &u) { return u.distributed; }))
    return result;
  Selections select(model, units, built->unitOf);

  // The sets' constraints measure them for the partitioner's limit on 2-D
  // grids.
  bool measure = llvm::any_of(units, [](const DistUnit &u) {
    return u.distributed && u.gridDims == 2;
  });
  LogicalResult status =
      state.run("communication analysis", maxOperations, [&](isl::ctx ctx) {
        const weft::detail::RegionFlow &region = state.getFlow(maxOperations);
        isl::union_flow flow = region.flow;
        isl::union_map fromDistributed =
            flow.full_must_dependence().intersect_domain(
                isl::union_set(ctx, select.sources()));
        auto addExchange = [&](int target, isl::union_set elements) {
          elements = elements.coalesce();
          if (elements.is_empty())
            return;
          Exchange exchange;
          exchange.target = target;
          isl::set_list sets = elements.get_set_list();
          for (int k = 0, n = sets.size(); k < n; ++k) {
            isl::set set = sets.at(k);
            std::string array = isl_set_get_tuple_name(set.get());
            ArrayMessage message;
            message.memref = model.arrayOf(array);
            char *text = isl_set_to_str(set.get());
            message.set = text ? text : "";
            free(text);
            message.params = paramNames(set);
            if (measure)
              message.constraints = constraintCount(set);
            exchange.messages.push_back(std::move(message));
            addParams(model, set, exchange.params);
          }
          exchanges.push_back(std::move(exchange));
        };
        // Reads without a source in the region see data from before it.
        addExchange(
            Exchange::kBeforeRegion,
            flow.must_no_source().intersect_domain(region.domain).range());
        // After each distributed unit, what it wrote goes to the ranks that
        // read it later (or keep it after the region).
        isl::union_set sinks(ctx, select.allSinks(liveOutEverywhere));
        isl::union_map flowToSinks =
            flow.full_must_dependence().intersect_range_wrapped_domain(sinks);
        for (int u = 0; u < (int)units.size(); ++u) {
          if (!units[u].distributed)
            continue;
          isl::union_set elements =
              flowToSinks
                  .intersect_domain(
                      isl::union_set(ctx, select.sourcesInExecution(u)))
                  .range()
                  .unwrap()
                  .range()
                  .intersect_params(
                      isl::set(ctx, select.senderIsNotReceiver(u)));
          addExchange(u, elements);
        }
        // Reductions split across ranks: what each unit combines, and what
        // each rank resets to the identity first.
        isl::union_map writes(ctx, model.accesses(true));
        for (int u = 0; u < (int)units.size(); ++u) {
          if (!units[u].distributed || units[u].reductions.empty())
            continue;
          // A rank keeps an accumulator's value if the accumulator's first
          // update in this execution of the unit (the one whose value comes
          // from before it: an earlier unit or execution, or before the
          // region) is in its block.
          isl::union_set updates =
              isl::union_set(ctx, select.reductionAccesses(u, /*loads=*/false))
                  .intersect(region.domain);
          isl::union_set reads =
              isl::union_set(ctx, select.reductionAccesses(u, /*loads=*/true))
                  .intersect(region.domain);
          isl::union_set kept =
              flow.must_no_source().intersect_domain(reads).range().unite(
                  flow.full_must_dependence()
                      .subtract_domain(updates)
                      .intersect_range_wrapped_domain(reads)
                      .range()
                      .unwrap()
                      .range());
          isl::union_set all = writes.intersect_domain(updates).range();
          isl::union_set reset = all.subtract(kept).coalesce();
          UnitCombine combine;
          combine.target = u;
          isl::set_list sets = all.coalesce().get_set_list();
          for (int k = 0, n = sets.size(); k < n; ++k) {
            isl::set set = sets.at(k);
            std::string array = isl_set_get_tuple_name(set.get());
            ReductionCombine c;
            c.memref = model.arrayOf(array);
            for (const UnitReduction &r : units[u].reductions)
              if (cast<affine::AffineStoreOp>(r.store).getMemRef() == c.memref)
                c.kind = r.kind;
            char *text = isl_set_to_str(set.get());
            c.set = text ? text : "";
            free(text);
            c.params = paramNames(set);
            if (measure)
              c.constraints = constraintCount(set);
            addParams(model, set, combine.params);
            isl::set resetHere = reset.extract_set(set.space());
            text = isl_set_to_str(resetHere.get());
            c.resetSet = text ? text : "";
            free(text);
            c.reset = enumerate(resetHere);
            if (measure)
              c.constraints += constraintCount(resetHere);
            addParams(model, resetHere, combine.params);
            combine.arrays.push_back(std::move(c));
          }
          result.combines.push_back(std::move(combine));
        }
        result.liveOutToRoot =
            !liveOutEverywhere &&
            !fromDistributed.intersect_range_wrapped_domain(region.end)
                 .is_empty();
      });
  if (failed(status))
    return failure();
  return result;
}

FailureOr<weft::LoopHull> weft::computeLoopHull(PolyhedralRegion &analysis,
                                                ArrayRef<DistUnit> units,
                                                unsigned u,
                                                unsigned long maxOperations) {
  weft::detail::PolyhedralRegionState &state = analysis.getState();
  auto built = state.getModel(units);
  if (failed(built))
    return failure();
  const ModelBuilder &model = *built->model;
  ArrayRef<int> unitOf = built->unitOf;
  unsigned k = units[u].enclosing.size();
  LoopHull hull;
  LogicalResult status = state.run(
      "bounding a distributed loop", maxOperations, [&](isl::ctx ctx) {
        isl_ctx *raw = ctx.get();
        // The values of the loop's iterator at which some access of the unit
        // runs, over all iterations of the loops around it.
        isl::set range;
        for (auto [i, st] : llvm::enumerate(model.getStatements())) {
          if ((unsigned)unitOf[i] != u)
            continue;
          isl::set dom(ctx, model.params() + "{ " + st.domain + " }");
          unsigned depth = st.loops.size();
          isl_set *d = isl_set_project_out(dom.release(), isl_dim_set, k + 1,
                                           depth - k - 1);
          d = isl_set_project_out(d, isl_dim_set, 0, k);
          isl::set one = isl::manage(isl_set_reset_tuple_id(d));
          range = range.is_null() ? one : range.unite(one);
        }
        if (range.is_null() || range.is_empty())
          throw AstError("the loop runs no access");
        isl::ast_build build = isl::ast_build::from_context(
            isl::set::universe(range.space().params()));
        isl_pw_aff *lo = isl_set_dim_min(range.copy(), 0);
        isl_pw_aff *hi = isl_set_dim_max(range.copy(), 0);
        throwIfNull(raw, lo);
        throwIfNull(raw, hi);
        hull.lb =
            takeExpr(raw, isl_ast_build_expr_from_pw_aff(build.get(), lo));
        hi = isl_pw_aff_add_constant_val(hi, isl_val_one(raw));
        hull.ub =
            takeExpr(raw, isl_ast_build_expr_from_pw_aff(build.get(), hi));
        addParams(model, range, hull.params);
      });
  if (failed(status))
    return failure();
  return hull;
}

/// Whether the value of `pa` (not only where it is defined) depends on a
/// bound of the receiver's blocks (rlo<g>, rhi<g>, rrlo<g>, ...).
static bool dependsOnBlocks(const isl::pw_aff &pa) {
  bool depends = false;
  isl_pw_aff_foreach_piece(
      pa.get(),
      [](isl_set *set, isl_aff *aff, void *user) {
        for (int p = 0, np = isl_aff_dim(aff, isl_dim_param); p < np; ++p) {
          StringRef name = isl_aff_get_dim_name(aff, isl_dim_param, p);
          std::optional<weft::detail::BlockParam> block =
              weft::detail::parseBlockParam(name);
          if (block && !block->sender &&
              isl_aff_involves_dims(aff, isl_dim_param, p, 1))
            *static_cast<bool *>(user) = true;
        }
        isl_set_free(set);
        isl_aff_free(aff);
        return isl_stat_ok;
      },
      &depends);
  return depends;
}

std::tuple<isl::set, isl::pw_aff, isl::pw_aff>
weft::detail::subscriptRange(isl_ctx *raw, const isl::set &elements,
                             unsigned d, unsigned rank) {
  isl::set range = isl::manage(isl_set_project_out(
      elements.copy(), isl_dim_set, d + 1, rank - d - 1));
  range = isl::manage(isl_set_project_out(range.release(), isl_dim_set, 0, d));
  isl::pw_aff lo = isl::manage(isl_set_dim_min(range.copy(), 0));
  isl::pw_aff hi = isl::manage(isl_set_dim_max(range.copy(), 0));
  throwIfNull(raw, lo.get());
  throwIfNull(raw, hi.get());
  return {range, lo, hi};
}

FailureOr<std::vector<weft::PrivateFootprint>>
weft::computePrivateFootprints(PolyhedralRegion &analysis,
                               ArrayRef<DistUnit> units,
                               unsigned long maxOperations) {
  weft::detail::PolyhedralRegionState &state = analysis.getState();
  auto built = state.getModel(units);
  if (failed(built))
    return failure();
  const ModelBuilder &model = *built->model;
  Selections select(model, units, built->unitOf);
  std::vector<PrivateFootprint> result;
  LogicalResult status =
      state.run("rank-local storage", maxOperations, [&](isl::ctx ctx) {
        isl_ctx *raw = ctx.get();
        const weft::detail::RegionFlow &region = state.getFlow(maxOperations);
        isl::union_set touched =
            region.reads.unite(region.writes)
                .intersect_domain(isl::union_set(ctx, select.allAccesses()))
                .range();
        for (Value memref : region.privateArrays) {
          auto tuple = model.getArrays().find(memref);
          auto type = cast<MemRefType>(memref.getType());
          if (tuple == model.getArrays().end() || type.getRank() == 0)
            continue;
          isl::set elements;
          isl::set_list sets = touched.get_set_list();
          for (int k = 0, n = sets.size(); k < n; ++k)
            if (tuple->second == isl_set_get_tuple_name(sets.at(k).get()))
              elements = sets.at(k);
          if (elements.is_null())
            continue;
          // Each dimension whose range follows the rank's blocks.
          PrivateFootprint f;
          f.memref = memref;
          for (unsigned d = 0; d < type.getRank(); ++d) {
            auto [range, lo, hi] =
                subscriptRange(raw, elements, d, type.getRank());
            if (!dependsOnBlocks(lo) && !dependsOnBlocks(hi))
              continue;
            hi = hi.add_constant(isl::val::one(ctx));
            isl::ast_build build = isl::ast_build::from_context(
                isl::set::universe(range.space().params()));
            PrivateFootprint::Range &r = f.ranges.emplace_back();
            r.dim = d;
            r.lo = takeExpr(
                raw, isl_ast_build_expr_from_pw_aff(build.get(), lo.copy()));
            r.hi = takeExpr(
                raw, isl_ast_build_expr_from_pw_aff(build.get(), hi.copy()));
            auto text = [](const isl::pw_aff &pa) {
              char *t = isl_pw_aff_to_str(pa.get());
              std::string s = t ? t : "";
              free(t);
              return s;
            };
            r.text = "[" + text(lo) + ", " + text(hi) + ")";
            addParams(model, range, f.params);
          }
          if (!f.ranges.empty())
            result.push_back(std::move(f));
        }
      });
  if (failed(status))
    return failure();
  return result;
}

FailureOr<weft::ArgumentFootprints>
weft::computeArgumentFootprints(PolyhedralRegion &analysis,
                                unsigned long maxOperations) {
  weft::detail::PolyhedralRegionState &state = analysis.getState();
  ArgumentFootprints result;
  auto built = state.getModel();
  if (failed(built)) {
    result.modelled = false;
    return result;
  }
  const ModelBuilder &model = **built;
  LogicalResult status =
      state.run("argument footprints", maxOperations, [&](isl::ctx ctx) {
        isl_ctx *raw = ctx.get();
        isl::union_set domain(ctx, model.domains());
        isl::union_set read = isl::union_map(ctx, model.accesses(false))
                                  .intersect_domain(domain)
                                  .range();
        isl::union_set written = isl::union_map(ctx, model.accesses(true))
                                     .intersect_domain(domain)
                                     .range();
        isl::set_list sets = read.unite(written).get_set_list();
        for (int k = 0, n = sets.size(); k < n; ++k) {
          isl::set elements = sets.at(k);
          const char *tuple = isl_set_get_tuple_name(elements.get());
          Value memref = model.arrayOf(tuple);
          if (!memref || !isa<BlockArgument>(memref))
            continue;
          ArgumentFootprint &f = result.arrays.emplace_back();
          f.memref = memref;
          f.written = !written.extract_set(elements.space()).is_empty();
          unsigned rank = cast<MemRefType>(memref.getType()).getRank();
          isl::ast_build build = isl::ast_build::from_context(
              isl::set::universe(elements.space().params()));
          for (unsigned d = 0; d < rank; ++d) {
            auto [range, lo, hi] = subscriptRange(raw, elements, d, rank);
            // An unbounded subscript (no bound in the parameters) has no
            // box; the caller then cannot prove anything.
            if (isl_pw_aff_involves_nan(lo.get()) ||
                isl_pw_aff_involves_nan(hi.get()))
              throw AstError("a subscript range is unbounded");
            hi = hi.add_constant(isl::val::one(ctx));
            f.box.push_back(
                {takeExpr(raw, isl_ast_build_expr_from_pw_aff(build.get(),
                                                              lo.copy())),
                 takeExpr(raw, isl_ast_build_expr_from_pw_aff(build.get(),
                                                              hi.copy()))});
          }
          addParams(model, elements, result.params);
        }
      });
  if (failed(status))
    return failure();
  llvm::sort(result.arrays, [](const ArgumentFootprint &a,
                               const ArgumentFootprint &b) {
    return cast<BlockArgument>(a.memref).getArgNumber() <
           cast<BlockArgument>(b.memref).getArgNumber();
  });
  return result;
}
