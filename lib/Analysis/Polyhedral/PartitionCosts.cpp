//===- PartitionCosts.cpp - Costs of distribution choices -------*- C++ -*-===//
//
// Evaluates the parametric sets of Communication.cpp at nominal sizes for
// every pair of ranks. This file is compiled with exceptions.
//
//===----------------------------------------------------------------------===//
#include "weft/Analysis/Polyhedral/PartitionCosts.h"

#include "CoreTraffic.h"
#include "IslBoxes.h"
#include "RegionState.h"
#include "Selections.h"

#include "weft/Support/SourceNames.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "llvm/ADT/DenseSet.h"

#include <isl/set.h>
#include <isl/union_map.h>
#include <isl/val.h>

#include <algorithm>
#include <cmath>
#include <tuple>

using namespace mlir;
using weft::detail::countByBoxes;
using weft::detail::dimExtent;
using weft::detail::elementBytes;
using weft::detail::fixParam;
using weft::detail::ModelBuilder;
using weft::detail::Selections;

namespace {
/// Fixes parameters and counts points.
class Evaluator {
public:
  /// `byMode[m - 1]`: the units with every candidate distributed over
  /// grids of at most m axes.
  Evaluator(isl::ctx ctx, const ModelBuilder &model,
            std::array<ArrayRef<weft::DistUnit>, weft::kMaxGridDims> byMode,
            ArrayRef<int> unitOf, unsigned ranks,
            const weft::cost::NominalSizes &sizes,
            std::pair<int64_t, int64_t> grid)
      : ctx(ctx), model(model), units(byMode[0]), unitOf(unitOf), ranks(ranks),
        sizes(sizes), grid(grid) {
    for (unsigned m = 0; m < weft::kMaxGridDims; ++m)
      groups[m] = weft::blockGroups(byMode[m]);
  }

  /// The domain of statement `i` with the sizes fixed.
  isl::set domainOf(unsigned i) const {
    isl::set &d = domains[i];
    if (d.is_null())
      d = fixSymbols(isl::set(ctx, model.params() + "{ " +
                                       model.getStatements()[i].domain + " }"));
    return d;
  }

  isl::set fixSymbols(isl::set set) const {
    return weft::detail::fixSymbols(model, set, sizes);
  }

  /// The first statement of unit `u`.
  unsigned firstStatement(unsigned u) const {
    for (unsigned i = 0; i < unitOf.size(); ++i)
      if ((unsigned)unitOf[i] == u)
        return i;
    return 0;
  }

  /// [lb, ub) of the loop of a distributed unit split over grid axis
  /// `axis` (the unit's loop, or the loop inside it).
  std::pair<int64_t, int64_t> ownRange(unsigned u, unsigned axis) const {
    auto e = dimExtent(domainOf(firstStatement(u)),
                       units[u].enclosing.size() + axis);
    return e ? std::make_pair(e->first, e->second + 1)
             : std::make_pair<int64_t, int64_t>(0, 0);
  }

  /// The hull of the ranges of `u`'s block group over a grid of `mode`
  /// axes, along `axis`.
  std::pair<int64_t, int64_t> range(unsigned u, unsigned mode,
                                    unsigned axis) const {
    auto key = std::make_tuple(u, mode, axis);
    auto known = ranges.find(key);
    if (known != ranges.end())
      return known->second;
    const SmallVector<unsigned> &group = groups[mode - 1];
    std::pair<int64_t, int64_t> hull = ownRange(u, axis);
    for (unsigned v = 0; v < group.size(); ++v)
      if (group[v] == group[u] && v != u) {
        auto [lb, ub] = ownRange(v, axis);
        hull = {std::min(hull.first, lb), std::max(hull.second, ub)};
      }
    return ranges[key] = hull;
  }

  /// dist.local_bounds of rank `p`'s block along `axis` of `u`'s group over
  /// a grid of `mode` axes.
  std::pair<int64_t, int64_t> block(unsigned u, int64_t p, unsigned mode,
                                    unsigned axis) const {
    auto [lb, ub] = range(u, mode, axis);
    int64_t extent = ranks, coord = p;
    if (mode == 2) {
      auto [rows, cols] = grid;
      extent = axis == 0 ? rows : cols;
      coord = axis == 0 ? p / cols : p % cols;
    }
    int64_t n = std::max<int64_t>(ub - lb, 0), q = n / extent, r = n % extent;
    auto start = [&](int64_t k) { return lb + k * q + std::min(k, r); };
    return {start(coord), start(coord + 1)};
  }

  /// Executions of unit `t` (iterations of its sequential loops), and a
  /// typical value of each of their iterators.
  double executions(unsigned t, SmallVectorImpl<int64_t> &typical) const {
    isl::set dom = domainOf(firstStatement(t));
    double n = 1;
    for (unsigned d = 0; d < units[t].enclosing.size(); ++d) {
      auto e = dimExtent(dom, d);
      if (!e)
        return 0;
      n *= double(e->second - e->first + 1);
      typical.push_back((e->first + e->second + 1) / 2);
    }
    return n;
  }

  isl::ctx ctx;
  const ModelBuilder &model;
  ArrayRef<weft::DistUnit> units;
  ArrayRef<int> unitOf;
  unsigned ranks;
  const weft::cost::NominalSizes &sizes;
  /// The 2-D grid's rows and columns at `ranks` ranks.
  std::pair<int64_t, int64_t> grid;
  /// The block groups of byMode[m - 1].
  std::array<SmallVector<unsigned>, weft::kMaxGridDims> groups;

private:
  // Memoized: the cost estimate asks for them for every pair of ranks.
  mutable std::vector<isl::set> domains =
      std::vector<isl::set>(model.numStatements());
  mutable std::map<std::tuple<unsigned, unsigned, unsigned>,
                   std::pair<int64_t, int64_t>>
      ranges;
};
} // end anonymous namespace

isl::set weft::detail::fixSymbols(const ModelBuilder &model, isl::set set,
                                  const cost::NominalSizes &sizes,
                                  const llvm::DenseMap<Value, int64_t> *known) {
  for (auto &[value, name] : model.getSymbols()) {
    int64_t v;
    if (known && known->count(value))
      v = known->lookup(value);
    else if (auto c = value.getDefiningOp<arith::ConstantIndexOp>())
      v = c.value();
    else
      v = sizes.of(symbolName(value, name));
    set = fixParam(set, name, v);
  }
  return set;
}

isl::set weft::detail::fixParam(isl::set set, StringRef name, int64_t value) {
  int pos =
      isl_set_find_dim_by_name(set.get(), isl_dim_param, name.str().c_str());
  if (pos < 0)
    return set;
  return isl::manage(isl_set_fix_si(set.release(), isl_dim_param, pos, value));
}

std::optional<std::pair<int64_t, int64_t>> weft::detail::dimExtent(isl::set set,
                                                                   int d) {
  if (set.is_empty())
    return std::nullopt;
  isl::val lo = set.dim_min_val(d), hi = set.dim_max_val(d);
  if (!lo.is_int() || !hi.is_int())
    return std::nullopt;
  return std::make_pair(lo.get_num_si(), hi.get_num_si());
}

double weft::detail::countByBoxes(isl::set set) {
  std::vector<isl::set> pieces;
  set.foreach_basic_set(
      [&](isl::basic_set piece) { pieces.push_back(isl::set(piece)); });
  double total = 0;
  for (isl::set &piece : pieces) {
    double volume = 1;
    int dims = isl_set_dim(piece.get(), isl_dim_set);
    for (int d = 0; d < dims && volume > 0; ++d) {
      auto e = dimExtent(piece, d);
      volume *= e ? double(e->second - e->first + 1) : 0.0;
    }
    if (!piece.is_empty())
      total += volume;
  }
  return total;
}

std::string weft::detail::symbolName(Value symbol, StringRef islName) {
  // The symbol is usually the index cast of a scalar argument.
  StringRef shown = weft::scalarName(symbol);
  return shown.empty() ? islName.str() : shown.str();
}

double weft::detail::elementBytes(const ModelBuilder &model, StringRef tuple) {
  Value array = model.arrayOf(tuple);
  return array ? elementBytes(cast<MemRefType>(array.getType()).getElementType())
               : 8;
}

double weft::detail::elementBytes(Type type) {
  return type.isIndex() ? 8 : std::max(1u, type.getIntOrFloatBitWidth() / 8);
}

/// Traffic of `elements` summed over the ordered pairs of ranks that
/// `pairs` accepts, with the senders' blocks filled in, and the receiver's
/// (rlo, rhi, ...) as those of unit `receiverUnit` over a grid of
/// `receiverMode` axes.
static weft::Traffic traffic(const Evaluator &eval, isl::union_set elements,
                             int receiverUnit, unsigned receiverMode,
                             function_ref<bool(unsigned, unsigned)> pairs) {
  weft::Traffic total;
  isl::set_list sets = elements.get_set_list();
  for (int k = 0, n = sets.size(); k < n; ++k) {
    isl::set set = sets.at(k);
    double bytes = elementBytes(eval.model, isl_set_get_tuple_name(set.get()));
    std::vector<std::pair<std::string, weft::detail::BlockParam>> params;
    for (int d = 0, np = isl_set_dim(set.get(), isl_dim_param); d < np; ++d) {
      std::string name = isl_set_get_dim_name(set.get(), isl_dim_param, d);
      if (auto block = weft::detail::parseBlockParam(name))
        params.push_back({name, *block});
    }
    for (unsigned p = 0; p < eval.ranks; ++p)
      for (unsigned q = 0; q < eval.ranks; ++q) {
        if (!pairs(p, q))
          continue;
        isl::set s = set;
        for (auto &[name, block] : params) {
          unsigned rank = block.sender ? p : q;
          int unit = block.group ? int(*block.group) : receiverUnit;
          unsigned mode = block.group ? block.gridDims : receiverMode;
          if (unit < 0)
            continue;
          auto [lo, hi] = eval.block(unit, rank, mode, block.axis);
          s = fixParam(s, name, block.lo ? lo : hi);
        }
        double count = countByBoxes(s);
        if (count > 0) {
          total.bytes += count * bytes;
          total.messages += 1;
        }
      }
  }
  return total;
}

/// An all-reduce of the accumulators that unit `u` combines, after each of
/// its executions: every rank sends and receives about twice their bytes,
/// in 2 log2(P) steps (totals over the ranks, like the other traffic).
static void addCombineTraffic(const Evaluator &eval, const Selections &select,
                              unsigned u, weft::Traffic &total) {
  isl::ctx ctx = eval.ctx;
  SmallVector<int64_t> typical;
  double runs = eval.executions(u, typical);
  isl::union_set all =
      isl::union_map(ctx, eval.model.accesses(true))
          .intersect_domain(
              isl::union_set(ctx, select.reductionAccesses(u, /*loads=*/false)))
          .intersect_domain(isl::union_set(ctx, eval.model.domains()))
          .range();
  double bytes = 0;
  isl::set_list sets = all.get_set_list();
  for (int k = 0, n = sets.size(); k < n; ++k) {
    isl::set s = eval.fixSymbols(sets.at(k));
    for (auto [d, v] : llvm::enumerate(typical))
      s = fixParam(s, "e" + std::to_string(d), v);
    bytes += countByBoxes(s) *
             elementBytes(eval.model, isl_set_get_tuple_name(s.get()));
  }
  double steps = 2 * std::ceil(std::log2(std::max(2u, eval.ranks)));
  total.bytes += runs * eval.ranks * 2 * bytes;
  total.messages += runs * eval.ranks * steps;
}

/// The traffic from distributed unit `u` over a grid of `mu` axes: to each
/// unit that reads what u writes, in each of that unit's modes (u's
/// candidates in `units`), and of u's live-out values.
static void estimateFrom(const Evaluator &eval, ArrayRef<Selections> select,
                         ArrayRef<weft::DistUnit> units,
                         const isl::union_map &flow,
                         const weft::detail::RegionFlow &region, unsigned u,
                         unsigned mu, weft::PartitionCosts &costs) {
  isl::ctx ctx = eval.ctx;
  isl::union_map fromU =
      flow.intersect_domain(isl::union_set(ctx, select[mu - 1].sources(u)));
  // Only units that read what u writes can receive from it: skip the others
  // before any set arithmetic (most units of a long region read nothing of
  // any one unit).
  llvm::SmallDenseSet<int> readers;
  isl::set_list sinks = fromU.range().unwrap().domain().get_set_list();
  for (int k = 0, n = sinks.size(); k < n; ++k) {
    if (std::optional<unsigned> statement = weft::detail::statementOfTuple(
            isl_set_get_tuple_name(sinks.at(k).get())))
      readers.insert(eval.unitOf[*statement]);
  }
  for (auto [t, sink] : llvm::enumerate(units)) {
    if (!readers.count(int(t)))
      continue;
    SmallVector<int64_t> typical;
    double runs = eval.executions(t, typical);
    unsigned maxMode = sink.distributed ? sink.gridDims : 0;
    for (unsigned mt = 0; mt <= maxMode; ++mt) {
      // A unit has one mode.
      if (t == u && mt != mu)
        continue;
      const Selections &sinkSelect = select[std::max(mt, 1u) - 1];
      isl::union_set elements =
          fromU
              .intersect_range_wrapped_domain(
                  isl::union_set(ctx, sinkSelect.sinks(t, mt > 0)))
              .range()
              .unwrap()
              .range();
      if (mt > 0)
        elements = elements.intersect_params(
            isl::set(ctx, sinkSelect.disjointBlocks(t)));
      if (elements.is_empty())
        continue;
      // One typical execution, with the sizes fixed.
      isl::union_set fixed;
      isl::set_list sets = elements.get_set_list();
      for (int k = 0, n = sets.size(); k < n; ++k) {
        isl::set s = eval.fixSymbols(sets.at(k));
        for (auto [d, v] : llvm::enumerate(typical))
          s = fixParam(s, "e" + std::to_string(d), v);
        fixed = fixed.is_null() ? isl::union_set(s) : fixed.unite(s);
      }
      weft::Traffic one =
          traffic(eval, fixed, mt ? (int)t : -1, mt,
                  [](unsigned p, unsigned q) { return p != q; });
      if (one.bytes == 0)
        continue;
      weft::Traffic &all = costs.flows[{u, (unsigned)t}][mu][mt];
      all.bytes = one.bytes * runs;
      all.messages = one.messages * runs;
    }
  }
  isl::union_set live =
      fromU.intersect_range_wrapped_domain(region.end).range().unwrap().range();
  isl::union_set fixed;
  isl::set_list sets = live.get_set_list();
  for (int k = 0, n = sets.size(); k < n; ++k) {
    isl::set s = eval.fixSymbols(sets.at(k));
    fixed = fixed.is_null() ? isl::union_set(s) : fixed.unite(s);
  }
  if (!fixed.is_null())
    costs.liveOut[u][mu] =
        traffic(eval, fixed, -1, 0,
                [](unsigned p, unsigned q) { return p != q && q == 0; });
}

FailureOr<weft::PartitionCosts> weft::estimatePartitionCosts(
    PolyhedralRegion &analysis, ArrayRef<DistUnit> units, unsigned ranks,
    const cost::NominalSizes &sizes, const cost::DeviceSpec &cpu,
    unsigned long maxOperations, std::pair<int64_t, int64_t> preferredGrid) {
  weft::detail::PolyhedralRegionState &state = analysis.getState();
  auto built = state.getModel(units);
  if (failed(built))
    return failure();
  const ModelBuilder &model = *built->model;
  ArrayRef<int> unitOf = built->unitOf;
  PartitionCosts costs;
  costs.ranks = ranks;
  costs.sizes = sizes;
  for (auto &[value, name] : model.getSymbols())
    if (!value.getDefiningOp<arith::ConstantIndexOp>())
      costs.nominalSizes.push_back(weft::detail::symbolName(value, name));
  costs.work.assign(units.size(), cost::CoreWork());
  costs.liveOut.assign(units.size(), ModeTraffic());
  // The units in each mode: every candidate over one axis, and every
  // candidate over as many axes as it may have.
  SmallVector<DistUnit> oneAxis(units.begin(), units.end());
  for (DistUnit &unit : oneAxis)
    unit.gridDims = 1;
  std::array<ArrayRef<DistUnit>, kMaxGridDims> byMode{oneAxis, units};
  std::array<Selections, kMaxGridDims> select{
      Selections(model, byMode[0], unitOf),
      Selections(model, byMode[1], unitOf)};

  LogicalResult status =
      state.run("partition cost estimate", maxOperations, [&](isl::ctx ctx) {
        Evaluator eval(ctx, model, byMode, unitOf, ranks, sizes,
                       weft::gridShape2D(ranks, preferredGrid.first,
                                         preferredGrid.second));
        const weft::detail::RegionFlow &region = state.getFlow(maxOperations);
        isl::union_map accesses = region.reads.unite(region.writes);
        for (auto [u, unit] : llvm::enumerate(units)) {
          SmallVector<unsigned> inside;
          for (unsigned i = 0; i < unitOf.size(); ++i)
            if (unitOf[i] == (int)u)
              inside.push_back(i);
          costs.work[u] = weft::detail::coreWork(
              model, ctx, accesses, inside, unit.op, sizes,
              llvm::DenseMap<Value, int64_t>(), cpu);
        }
        isl::union_map flow = region.flow.full_must_dependence();
        for (auto [u, source] : llvm::enumerate(units)) {
          if (!source.distributed)
            continue;
          for (unsigned mu = 1; mu <= source.gridDims; ++mu)
            estimateFrom(eval, select, units, flow, region, u, mu, costs);
          if (!source.reductions.empty())
            addCombineTraffic(eval, select[0], u, costs.liveOut[u][1]);
        }
      });
  if (failed(status))
    return failure();
  return costs;
}
