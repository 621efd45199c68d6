//===- MaterializeDistribution.cpp - Local loops and messages ---*- C++ -*-===//
//
// Implements dist-materialize. The exchange after a distributed unit is, on
// every rank `me` (S(s, r): the set of elements rank s sends rank r):
//
//   for r != me: isend S(me, r) to r; irecv S(r, me) from r
//   wait_all
//
// S is one ISL set, parametric in the blocks of the sender and the
// receiver; the dist ops carry it as text with the values of its
// parameters, and the runtime walks it at both ends with the same values
// (convert-dist-to-emitc, runtime/mpi/weft_rt_elements.h), so both agree on
// the count and order of the elements without sending either.
//
//===----------------------------------------------------------------------===//
#include "dialects/Weft/IR/WeftDialect.h"
#include "weft/Partition/Passes.h"

#include "IterationWork.h"
#include "LocalStorage.h"
#include "Units.h"
#include "weft/Partition/AstToLoops.h"
#include "weft/Partition/NestComments.h"
#include "weft/Support/SourceNames.h"

#include "dialects/Dist/IR/DistOps.h"
#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

#include <map>

namespace weft {
#define GEN_PASS_DEF_DISTMATERIALIZE
#include "weft/Partition/Passes.h.inc"
} // namespace weft

using namespace mlir;
using namespace weft;

namespace {

class Materializer {
public:
  /// `analysis` is the region's before any change: its ops must stay where
  /// they are until the ranges are computed (the first step of `run`).
  Materializer(PolyhedralRegion &analysis, ArrayRef<DistUnit> units,
               unsigned long maxIslOperations)
      : func(analysis.getFunction()), analysis(analysis), units(units),
        maxIslOperations(maxIslOperations), b(func.getContext()) {}

  LogicalResult run(const RegionExchanges &region,
                    ArrayRef<PrivateFootprint> privateArrays);

private:
  /// A block [lo, hi) along each grid axis.
  struct RankBlock {
    Value lo[2], hi[2];
  };
  /// Along each grid axis of a block group.
  struct Range {
    Value lb[2], ub[2]; // the split loop's whole range
    /// The work of the first and the last iteration along axis 0 of a 1-D
    /// group whose iterations differ in work; null otherwise.
    Value workFirst, workLast;
    RankBlock mine; // the calling rank's block
  };
  LogicalResult computeRanges();
  /// Weighs the blocks of 1-D group `leader` by the work of its first and
  /// last iteration when its units' iterations do unequal work.
  void weighBlocks(unsigned leader, Range &range);
  /// The work of the group's `members` at indices `x0` and `x1`, built
  /// before the first unit.
  FailureOr<std::pair<Value, Value>>
  groupWork(ArrayRef<unsigned> members, Value x0, Value x1,
            function_ref<bool(Value)> available);
  /// [lb, ub) of distributed unit `u`'s loop, before the first unit.
  FailureOr<std::pair<Value, Value>> rangeOf(unsigned u);
  /// Names unit `u`'s range bounds for the C after its loops (`i_end`).
  void nameBounds(unsigned u, ArrayRef<std::pair<Value, Value>> bounds);
  void restrictLoops();
  /// The block [lo, hi) along each grid axis of distributed unit `u`'s
  /// group owned by `rank`.
  RankBlock blockOf(unsigned u, Value rank);
  /// The blocks of each group, by rank, made at one insertion point.
  using BlockCache = llvm::DenseMap<std::pair<unsigned, Value>, RankBlock>;
  /// Parameter values of `params` (of sets about unit `target`) for a
  /// message from `sender` to `receiver`; the blocks of ranks other than
  /// this one come from `blocks`, or are made and kept there.
  FailureOr<llvm::StringMap<Value>>
  paramValues(ArrayRef<std::pair<std::string, CommParam>> params, int target,
              Value sender, Value receiver, BlockCache &blocks);
  FailureOr<llvm::StringMap<Value>>
  paramValues(ArrayRef<std::pair<std::string, CommParam>> params, int target,
              Value sender, Value receiver) {
    BlockCache blocks;
    return paramValues(params, target, sender, receiver, blocks);
  }
  FailureOr<llvm::StringMap<Value>> paramValues(const Exchange &e, Value sender,
                                                Value receiver) {
    return paramValues(e.params, e.target, sender, receiver);
  }
  LogicalResult emitCombine(const UnitCombine &c);
  LogicalResult emitExchange(const Exchange &e);
  LogicalResult emitFetchFromRoot(const Exchange &e);
  void broadcastScalarArguments();
  /// The op of the function body that holds the first unit.
  Operation *firstTopLevelUnit() {
    Operation *first = units.front().op;
    while (first->getParentOp() != func)
      first = first->getParentOp();
    return first;
  }
  /// Emits a loop over the ranks other than `me`; `body` builds its body.
  LogicalResult forEachPeer(function_ref<LogicalResult(Value)> body);

  Location loc() { return func.getLoc(); }
  Value constant(int64_t v) {
    return b.create<arith::ConstantIndexOp>(loc(), v);
  }

  func::FuncOp func;
  PolyhedralRegion &analysis;
  ArrayRef<DistUnit> units;
  unsigned long maxIslOperations;
  OpBuilder b;
  /// By the first unit of each block group.
  std::map<unsigned, Range> ranges;
  SmallVector<unsigned> groups;
  Value me, numRanks;
  /// The 2-D grid's rows and columns, if a unit uses it.
  Value gridRows, gridCols;
  /// Grid coordinates and block bounds of other ranks, in creation order:
  /// those no message set uses are erased at the end (C compilers warn
  /// about unused variables).
  SmallVector<Operation *> blockOps;
};

} // end anonymous namespace

FailureOr<std::pair<Value, Value>> Materializer::rangeOf(unsigned u) {
  auto loop = cast<affine::AffineForOp>(units[u].op);
  bool followsEnclosing = llvm::any_of(loop->getOperands(), [&](Value v) {
    return llvm::any_of(units[u].enclosing, [&](Operation *e) {
      return cast<affine::AffineForOp>(e).getInductionVar() == v;
    });
  });
  if (!followsEnclosing)
    return std::make_pair(buildBound(b, loc(), loop.getLowerBoundMap(),
                                     loop.getLowerBoundOperands(), true),
                          buildBound(b, loc(), loop.getUpperBoundMap(),
                                     loop.getUpperBoundOperands(), false));
  // A triangular loop: blocks of the hull of its ranges.
  FailureOr<LoopHull> hull =
      computeLoopHull(analysis, units, u, maxIslOperations);
  if (failed(hull))
    return failure();
  llvm::StringMap<Value> ids;
  for (auto &[name, param] : hull->params)
    if (param.kind == CommParam::Kind::Symbol)
      ids[name] = param.symbol;
  FailureOr<Value> lb = emitAstExpr(b, loc(), hull->lb, ids);
  FailureOr<Value> ub = emitAstExpr(b, loc(), hull->ub, ids);
  if (failed(lb) || failed(ub))
    return failure();
  return std::make_pair(*lb, *ub);
}

LogicalResult Materializer::computeRanges() {
  b.setInsertionPoint(firstTopLevelUnit());
  me = b.create<dist::RankOp>(loc());
  numRanks = b.create<dist::NumRanksOp>(loc());
  if (llvm::any_of(units, [](const DistUnit &unit) {
        return unit.distributed && unit.gridDims == 2;
      })) {
    GridPreference preference = gridPreference(func);
    auto shape = b.create<dist::GridShapeOp>(
        loc(),
        dist::GridAttr::get(b.getContext(),
                            {ShapedType::kDynamic, ShapedType::kDynamic}),
        preference.rows || preference.cols
            ? b.getDenseI64ArrayAttr({preference.rows, preference.cols})
            : DenseI64ArrayAttr());
    gridRows = shape.getResult(0);
    gridCols = shape.getResult(1);
  }
  // One block distribution per group, over the hull of its ranges.
  groups = blockGroups(units);
  for (auto [u, unit] : llvm::enumerate(units)) {
    if (!unit.distributed)
      continue;
    FailureOr<std::pair<Value, Value>> outer = rangeOf(u);
    if (failed(outer))
      return failure();
    SmallVector<std::pair<Value, Value>, 2> bounds{*outer};
    if (unit.gridDims == 2) {
      // Its bounds are values from before the first unit (Units.cpp).
      affine::AffineForOp inner =
          innerGridLoop(cast<affine::AffineForOp>(unit.op));
      bounds.emplace_back(buildBound(b, loc(), inner.getLowerBoundMap(),
                                     inner.getLowerBoundOperands(), true),
                          buildBound(b, loc(), inner.getUpperBoundMap(),
                                     inner.getUpperBoundOperands(), false));
    }
    nameBounds(u, bounds);
    auto it = ranges.find(groups[u]);
    if (it == ranges.end()) {
      Range &range = ranges[u];
      for (auto [axis, lbUb] : llvm::enumerate(bounds))
        std::tie(range.lb[axis], range.ub[axis]) = lbUb;
      continue;
    }
    for (auto [axis, lbUb] : llvm::enumerate(bounds)) {
      Range &range = it->second;
      lbUb.first = b.create<arith::MinSIOp>(loc(), range.lb[axis], lbUb.first);
      lbUb.second =
          b.create<arith::MaxSIOp>(loc(), range.ub[axis], lbUb.second);
      std::tie(range.lb[axis], range.ub[axis]) = lbUb;
    }
    nameBounds(groups[u], bounds);
  }
  for (auto &[u, range] : ranges) {
    weighBlocks(u, range);
    range.mine = blockOf(u, me);
  }
  return success();
}

void Materializer::weighBlocks(unsigned leader, Range &range) {
  SmallVector<unsigned> members;
  bool varies = false;
  for (auto [u, unit] : llvm::enumerate(units)) {
    if (!unit.distributed || groups[u] != leader)
      continue;
    // One sequential loop around the unit at most (a pivot loop): its
    // iterations sum up below.
    if (unit.gridDims != 1 || unit.enclosing.size() > 1)
      return;
    auto loop = cast<affine::AffineForOp>(unit.op);
    varies |= workVariesWithIterator(loop);
    if (!unit.enclosing.empty()) {
      Value pivot =
          cast<affine::AffineForOp>(unit.enclosing.front()).getInductionVar();
      varies |= llvm::is_contained(loop->getOperands(), pivot);
    }
    members.push_back(u);
  }
  if (!varies)
    return;
  // Values the weights may use: the function's arguments and what is
  // computed before the first unit.
  Operation *first = firstTopLevelUnit();
  auto available = [&](Value v) { return definedBefore(v, first); };
  Operation *last = first->getPrevNode();
  Value lastIndex = b.create<arith::SubIOp>(loc(), range.ub[0], constant(1));
  FailureOr<std::pair<Value, Value>> ends =
      groupWork(members, range.lb[0], lastIndex, available);
  if (failed(ends)) {
    // Not a product of trip counts known here: equal blocks, and none of
    // the ops made on the way.
    while (first->getPrevNode() != last)
      first->getPrevNode()->erase();
    return;
  }
  range.workFirst = ends->first;
  range.workLast = ends->second;
  range.workFirst.getDefiningOp()->setLoc(
      weft::withSourceName(loc(), "work_first"));
  range.workLast.getDefiningOp()->setLoc(
      weft::withSourceName(loc(), "work_last"));
}

FailureOr<std::pair<Value, Value>>
Materializer::groupWork(ArrayRef<unsigned> members, Value x0, Value x1,
                        function_ref<bool(Value)> available) {
  Value xs[2] = {x0, x1}, totals[2];
  auto add = [&](int k, Value w) {
    totals[k] = totals[k]
                    ? b.create<arith::AddIOp>(loc(), totals[k], w).getResult()
                    : w;
  };
  for (unsigned u : members) {
    auto loop = cast<affine::AffineForOp>(units[u].op);
    if (units[u].enclosing.empty()) {
      for (int k = 0; k < 2; ++k) {
        FailureOr<Value> w =
            buildIterationWork(b, loc(), loop, xs[k], available);
        if (failed(w))
          return failure();
        add(k, *w);
      }
      continue;
    }
    // Inside a pivot loop, index x's work is the sum over the pivots whose
    // range holds x: a loop at run time, before the first unit (two
    // accumulators: C loops carry no values).
    auto pivot = cast<affine::AffineForOp>(units[u].enclosing.front());
    if (!llvm::all_of(pivot->getOperands(), available))
      return failure();
    Value pivotLb = buildBound(b, loc(), pivot.getLowerBoundMap(),
                               pivot.getLowerBoundOperands(), true);
    Value pivotUb = buildBound(b, loc(), pivot.getUpperBoundMap(),
                               pivot.getUpperBoundOperands(), false);
    auto slot = MemRefType::get({}, b.getIndexType());
    Value zero = constant(0);
    Value sums[2];
    const char *names[2] = {"work_first_sum", "work_last_sum"};
    for (int k = 0; k < 2; ++k) {
      sums[k] = b.create<memref::AllocaOp>(
          weft::withSourceName(loc(), names[k]), slot);
      b.create<memref::StoreOp>(loc(), zero, sums[k]);
    }
    auto scan = b.create<scf::ForOp>(loc(), pivotLb, pivotUb,
                                     constant(pivot.getStepAsInt()));
    // `for (k = ...)`, after the pivot loop.
    scan.getInductionVar().setLoc(pivot.getInductionVar().getLoc());
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(scan.getBody());
    IRMapping known;
    known.map(pivot.getInductionVar(), scan.getInductionVar());
    FailureOr<std::pair<Value, Value>> bounds =
        buildLoopBounds(b, loc(), loop, known, available);
    if (failed(bounds))
      return failure();
    auto [lb, ub] = *bounds;
    for (int k = 0; k < 2; ++k) {
      Value above =
          b.create<arith::CmpIOp>(loc(), arith::CmpIPredicate::sge, xs[k], lb);
      Value below =
          b.create<arith::CmpIOp>(loc(), arith::CmpIPredicate::slt, xs[k], ub);
      Value in = b.create<arith::AndIOp>(loc(), above, below);
      auto ifIn = b.create<scf::IfOp>(loc(), in, /*withElseRegion=*/false);
      OpBuilder::InsertionGuard inIf(b);
      b.setInsertionPointToStart(ifIn.thenBlock());
      FailureOr<Value> w =
          buildIterationWork(b, loc(), loop, xs[k], available, known);
      if (failed(w))
        return failure();
      Value old = b.create<memref::LoadOp>(loc(), sums[k]);
      b.create<memref::StoreOp>(
          loc(), b.create<arith::AddIOp>(loc(), old, *w), sums[k]);
    }
    b.setInsertionPointAfter(scan);
    for (int k = 0; k < 2; ++k)
      add(k, b.create<memref::LoadOp>(loc(), sums[k]));
  }
  return std::make_pair(totals[0], totals[1]);
}

// Every bound is named, not only a group's merged one: folding
// max(x, x) to x keeps x's name.
void Materializer::nameBounds(unsigned u,
                              ArrayRef<std::pair<Value, Value>> bounds) {
  auto loop = cast<affine::AffineForOp>(units[u].op);
  SmallVector<Value, 2> ivs{loop.getInductionVar()};
  if (units[u].gridDims == 2)
    ivs.push_back(innerGridLoop(loop).getInductionVar());
  for (auto [iv, lbUb] : llvm::zip(ivs, bounds)) {
    StringRef name = weft::sourceName(iv);
    if (name.empty())
      continue;
    for (auto [bound, suffix] : {std::make_pair(lbUb.first, "_begin"),
                                 std::make_pair(lbUb.second, "_end")}) {
      // A function argument or an already named value keeps its name.
      Operation *def = bound.getDefiningOp();
      if (def && weft::sourceName(bound).empty())
        def->setLoc(weft::withSourceName(def->getLoc(), name.str() + suffix));
    }
  }
}

Materializer::RankBlock Materializer::blockOf(unsigned u, Value rank) {
  const Range &range = ranges[groups[u]];
  RankBlock result;
  // Named for the C: block_lo, row_block_lo, peer_col_block_hi, ...
  bool grid = units[groups[u]].gridDims != 1;
  std::string whose = rank == me ? "" : "peer_";
  auto split = [&](unsigned axis, Value coord, Value extent) {
    auto dim = dist::DimDistAttr::get(b.getContext(), dist::DistKind::Block,
                                      int64_t(axis));
    std::string name = whose + (grid ? (axis ? "col_" : "row_") : "") + "block";
    SmallVector<Value, 2> weights;
    if (axis == 0 && range.workFirst)
      weights = {range.workFirst, range.workLast};
    auto bounds = b.create<dist::LocalBoundsOp>(
        weft::withSourceName(loc(), name), range.lb[axis], range.ub[axis],
        coord, extent, dim, weights);
    blockOps.push_back(bounds);
    result.lo[axis] = bounds.getLocalLb();
    result.hi[axis] = bounds.getLocalUb();
  };
  if (!grid) {
    split(0, rank, numRanks);
    return result;
  }
  // Row-major ranks: rank r is at (r / cols, r % cols) (both non-negative:
  // the signed operations, which C spells without casts).
  Value row = b.create<arith::DivSIOp>(
      weft::withSourceName(loc(), rank == me ? "grid_row" : "peer_row"), rank,
      gridCols);
  Value col = b.create<arith::RemSIOp>(
      weft::withSourceName(loc(), rank == me ? "grid_col" : "peer_col"), rank,
      gridCols);
  blockOps.append({row.getDefiningOp(), col.getDefiningOp()});
  split(0, row, gridRows);
  split(1, col, gridCols);
  return result;
}

/// `map` with one more symbol as one more result (another max/min term).
static AffineMap withSymbolResult(AffineMap map) {
  SmallVector<AffineExpr> results(map.getResults());
  results.push_back(getAffineSymbolExpr(map.getNumSymbols(), map.getContext()));
  return AffineMap::get(map.getNumDims(), map.getNumSymbols() + 1, results,
                        map.getContext());
}

void Materializer::restrictLoops() {
  for (auto [u, unit] : llvm::enumerate(units)) {
    if (!unit.distributed)
      continue;
    const RankBlock &mine = ranges[groups[u]].mine;
    for (auto [axis, loop] : llvm::enumerate(splitLoops(unit))) {
      SmallVector<Value> lbOperands(loop.getLowerBoundOperands());
      lbOperands.push_back(mine.lo[axis]);
      SmallVector<Value> ubOperands(loop.getUpperBoundOperands());
      ubOperands.push_back(mine.hi[axis]);
      loop.setLowerBound(lbOperands, withSymbolResult(loop.getLowerBoundMap()));
      loop.setUpperBound(ubOperands, withSymbolResult(loop.getUpperBoundMap()));
    }
  }
}

FailureOr<llvm::StringMap<Value>>
Materializer::paramValues(ArrayRef<std::pair<std::string, CommParam>> params,
                          int target, Value sender, Value receiver,
                          BlockCache &blocks) {
  llvm::StringMap<Value> ids;
  auto blockBound = [&](unsigned group, bool ofSender, bool lo, unsigned axis) {
    Value rank = ofSender ? sender : receiver;
    auto key = std::make_pair(group, rank);
    if (!blocks.count(key))
      blocks[key] =
          rank == me ? ranges[groups[group]].mine : blockOf(group, rank);
    return lo ? blocks[key].lo[axis] : blocks[key].hi[axis];
  };
  for (auto &[name, param] : params) {
    Value v;
    switch (param.kind) {
    case CommParam::Kind::Symbol:
      v = param.symbol;
      break;
    case CommParam::Kind::Enclosing:
      v = cast<affine::AffineForOp>(units[target].enclosing[param.index])
              .getInductionVar();
      break;
    case CommParam::Kind::SenderLo:
    case CommParam::Kind::SenderHi:
      v = blockBound(param.index, /*ofSender=*/true,
                     param.kind == CommParam::Kind::SenderLo, param.axis);
      break;
    case CommParam::Kind::ReceiverLo:
    case CommParam::Kind::ReceiverHi:
      v = blockBound(param.index, /*ofSender=*/false,
                     param.kind == CommParam::Kind::ReceiverLo, param.axis);
      break;
    case CommParam::Kind::ReceiverRank:
      v = receiver;
      break;
    }
    if (!v)
      return failure();
    ids[name] = v;
  }
  return ids;
}

LogicalResult
Materializer::forEachPeer(function_ref<LogicalResult(Value)> body) {
  auto loop = b.create<scf::ForOp>(loc(), constant(0), numRanks, constant(1));
  loop.getInductionVar().setLoc(weft::withSourceName(loc(), "peer"));
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPoint(loop.getBody()->getTerminator());
  Value peer = loop.getInductionVar();
  Value other =
      b.create<arith::CmpIOp>(loc(), arith::CmpIPredicate::ne, peer, me);
  auto ifOp = b.create<scf::IfOp>(loc(), other, /*withElseRegion=*/false);
  b.setInsertionPoint(ifOp.thenBlock()->getTerminator());
  return body(peer);
}

/// The values of a set's parameters, in its order.
static SmallVector<Value> paramList(ArrayRef<std::string> names,
                                    const llvm::StringMap<Value> &ids) {
  SmallVector<Value> values;
  for (const std::string &name : names)
    values.push_back(ids.lookup(name));
  return values;
}

LogicalResult Materializer::emitExchange(const Exchange &e) {
  if (e.target == Exchange::kBeforeRegion)
    return emitFetchFromRoot(e);
  // After the sending unit, every rank starts its messages to and from every
  // other rank (the sets are empty where a rank needs nothing); the runtime
  // writes the received elements when they have all arrived.
  b.setInsertionPointAfter(units[e.target].op);
  if (failed(forEachPeer([&](Value peer) -> LogicalResult {
        BlockCache blocks;
        FailureOr<llvm::StringMap<Value>> out =
            paramValues(e.params, e.target, me, peer, blocks);
        FailureOr<llvm::StringMap<Value>> in =
            paramValues(e.params, e.target, peer, me, blocks);
        if (failed(out) || failed(in))
          return failure();
        for (auto [i, m] : llvm::enumerate(e.messages)) {
          b.create<dist::ISendOp>(loc(), m.memref, m.set,
                                  paramList(m.params, *out), ValueRange{}, peer,
                                  i);
          b.create<dist::IRecvOp>(loc(), m.memref, m.set,
                                  paramList(m.params, *in), ValueRange{}, peer,
                                  i);
        }
        return success();
      })))
    return failure();
  b.create<dist::WaitAllOp>(loc());
  return success();
}

/// The value that leaves any other unchanged under `kind`.
static Value identityOf(OpBuilder &b, Location loc, StringRef kind, Type t) {
  if (auto f = dyn_cast<FloatType>(t)) {
    const llvm::fltSemantics &sem = f.getFloatSemantics();
    APFloat v = kind == "add"   ? APFloat::getZero(sem)
                : kind == "mul" ? APFloat::getOne(sem)
                                : APFloat::getInf(sem, kind == "max");
    return b.create<arith::ConstantOp>(loc, b.getFloatAttr(t, v));
  }
  unsigned width = t.isIndex() ? 64 : t.getIntOrFloatBitWidth();
  APInt v = kind == "add"   ? APInt(width, 0)
            : kind == "mul" ? APInt(width, 1)
            : kind == "max" ? APInt::getSignedMinValue(width)
                            : APInt::getSignedMaxValue(width);
  return b.create<arith::ConstantOp>(loc, b.getIntegerAttr(t, v));
}

/// Around a unit that splits reductions: before it, each rank sets the
/// accumulators whose first update another rank makes to the identity;
/// after it, an all-reduce combines every accumulator.
LogicalResult Materializer::emitCombine(const UnitCombine &c) {
  Operation *unit = units[c.target].op;
  b.setInsertionPoint(unit);
  FailureOr<llvm::StringMap<Value>> ids =
      paramValues(c.params, c.target, me, me);
  if (failed(ids))
    return failure();
  for (const ReductionCombine &r : c.arrays) {
    Type element = cast<MemRefType>(r.memref.getType()).getElementType();
    Value identity = identityOf(b, loc(), r.kind, element);
    if (failed(emitAstLoops(b, loc(), r.reset, *ids, [&](ValueRange at) {
          b.create<memref::StoreOp>(loc(), identity, r.memref, at);
        })))
      return failure();
  }
  b.setInsertionPointAfter(unit);
  for (const ReductionCombine &r : c.arrays) {
    auto kind = dist::symbolizeReductionKind(r.kind);
    if (!kind)
      return failure();
    b.create<dist::AllReduceOp>(loc(), *kind, r.memref, r.set,
                                paramList(r.params, *ids), ValueRange{});
  }
  return success();
}

/// When an earlier region left only rank 0 with current data, rank 0
/// broadcasts what this region reads from before it.
LogicalResult Materializer::emitFetchFromRoot(const Exchange &e) {
  b.setInsertionPoint(firstTopLevelUnit());
  Value stale = b.create<dist::ReplicasStaleOp>(loc());
  auto ifStale = b.create<scf::IfOp>(loc(), stale, /*withElseRegion=*/false);
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPoint(ifStale.thenBlock()->getTerminator());
  Value root = constant(0);
  FailureOr<llvm::StringMap<Value>> ids = paramValues(e, root, root);
  if (failed(ids))
    return failure();
  for (const ArrayMessage &m : e.messages)
    b.create<dist::BroadcastOp>(loc(), m.memref, m.set,
                                paramList(m.params, *ids), ValueRange{}, root);
  return success();
}

/// Scalars passed by value come from code outside regions, which on ranks
/// other than 0 may have computed them from outdated copies (a value read
/// from an array an earlier region left on rank 0 only): when the replicas
/// are stale, rank 0 broadcasts them too, before anything uses them. Runs
/// last, so that every use the materializer created is replaced too.
/// (Array extents, the `index` arguments, are left as they are.)
void Materializer::broadcastScalarArguments() {
  Block &entry = func.getBody().front();
  SmallVector<BlockArgument> scalars;
  for (BlockArgument arg : entry.getArguments())
    if (!isa<MemRefType, IndexType>(arg.getType()) && !arg.use_empty())
      scalars.push_back(arg);
  if (scalars.empty())
    return;
  b.setInsertionPointToStart(&entry);
  Value zero = constant(0), root = zero;
  Value stale = b.create<dist::ReplicasStaleOp>(loc());
  for (BlockArgument arg : scalars) {
    // The argument goes through a one-element array, which rank 0
    // broadcasts when the replicas are stale (named for the C: n_on_rank0).
    StringRef name = weft::sourceName(arg);
    Location slotLoc =
        name.empty() ? loc()
                     : weft::withSourceName(loc(), name.str() + "_on_rank0");
    Value slot = b.create<memref::AllocaOp>(
        slotLoc, MemRefType::get({1}, arg.getType()));
    Operation *put = b.create<memref::StoreOp>(loc(), arg, slot, zero);
    auto ifStale = b.create<scf::IfOp>(loc(), stale, /*withElseRegion=*/false);
    {
      OpBuilder::InsertionGuard guard(b);
      b.setInsertionPoint(ifStale.thenBlock()->getTerminator());
      b.create<dist::BroadcastOp>(loc(), slot, "{ S[0] }", ValueRange{},
                                  ValueRange{}, root);
    }
    Value value = b.create<memref::LoadOp>(
        name.empty() ? loc() : weft::withSourceName(loc(), name), slot, zero);
    arg.replaceAllUsesExcept(value, put);
  }
}

LogicalResult Materializer::run(const RegionExchanges &region,
                                ArrayRef<PrivateFootprint> privateArrays) {
  if (failed(computeRanges()))
    return failure();
  // Before anything else touches the private arrays: their storage.
  SmallVector<LocalStorage> storage;
  b.setInsertionPoint(firstTopLevelUnit());
  for (const PrivateFootprint &f : privateArrays) {
    FailureOr<llvm::StringMap<Value>> ids =
        paramValues(f.params, /*target=*/-1, me, me);
    if (failed(ids))
      return failure();
    SmallVector<unsigned, 2> dims;
    SmallVector<Value, 2> starts, ends;
    for (const PrivateFootprint::Range &r : f.ranges) {
      FailureOr<Value> start = emitAstExpr(b, loc(), r.lo, *ids);
      FailureOr<Value> end = emitAstExpr(b, loc(), r.hi, *ids);
      if (failed(start) || failed(end))
        return func.emitError("cannot allocate rank-local storage"), failure();
      dims.push_back(r.dim);
      starts.push_back(*start);
      ends.push_back(*end);
    }
    storage.push_back(
        allocateLocalStorage(b, loc(), f.memref, dims, starts, ends));
  }
  for (const Exchange &e : region.exchanges)
    if (failed(emitExchange(e)))
      return func.emitError("cannot generate the messages of this region"),
             failure();
  // After the exchanges: the resets must follow what is fetched from rank 0.
  for (const UnitCombine &c : region.combines)
    if (failed(emitCombine(c)))
      return func.emitError("cannot generate the reductions of this region"),
             failure();
  // Only rank 0 now holds every live-out value.
  if (region.liveOutToRoot) {
    b.setInsertionPoint(func.getBody().front().getTerminator());
    b.create<dist::SetReplicasStaleOp>(loc());
  }
  restrictLoops();
  for (const LocalStorage &s : storage)
    redirectToLocalStorage(s);
  broadcastScalarArguments();
  for (Operation *op : llvm::reverse(blockOps))
    if (op->use_empty())
      op->erase();
  return success();
}

/// The C expression of the argument `memref`, for remarks ("value" for
/// others).
static std::string argName(func::FuncOp func, Value memref) {
  if (auto arg = dyn_cast<BlockArgument>(memref))
    if (auto c = func.getArgAttrOfType<StringAttr>(
            arg.getArgNumber(), weft::WeftDialect::getCArgAttrName()))
      return c.getValue().str();
  return "value";
}

/// One remark per exchange, with the set of each array's elements.
static void remarkMessages(func::FuncOp func, ArrayRef<DistUnit> units,
                           const Exchange &e) {
  Operation *at = e.target >= 0 ? units[e.target].op : func.getOperation();
  InFlightDiagnostic d = at->emitRemark();
  if (e.target == Exchange::kBeforeRegion)
    d << "read from before the region (from rank 0 when other ranks' copies "
         "are outdated):";
  else
    d << "sent after this unit (what other ranks read later, or keep after "
         "the region):";
  for (const ArrayMessage &m : e.messages)
    d << " " << argName(func, m.memref) << ": " << m.set << ";";
}

/// One remark per unit whose reductions are combined across ranks.
static void remarkCombine(ArrayRef<DistUnit> units, const UnitCombine &c) {
  InFlightDiagnostic d = units[c.target].op->emitRemark();
  d << "partial results combined after this unit (all-reduce):";
  for (const ReductionCombine &r : c.arrays)
    d << " " << r.kind << " " << r.set
      << ", starting from the identity: " << r.resetSet << ";";
}

/// The constraints of the region's message and combine sets: a measure of
/// the runtime's tables for them.
static size_t setConstraints(const RegionExchanges &region) {
  size_t n = 0;
  for (const Exchange &e : region.exchanges)
    for (const ArrayMessage &m : e.messages)
      n += m.constraints;
  for (const UnitCombine &c : region.combines)
    for (const ReductionCombine &r : c.arrays)
      n += r.constraints;
  return n;
}

/// A diagnostic handler that keeps, instead of reporting, the first error
/// the analyses report on `func` (in `why`). It passes every other
/// diagnostic on: the handler is the context's, and the pass manager may run
/// other functions' passes on other threads meanwhile.
static std::function<LogicalResult(Diagnostic &)> errorsOn(func::FuncOp func,
                                                           std::string &why) {
  Location loc = func.getLoc();
  return [loc, &why](Diagnostic &d) -> LogicalResult {
    if (d.getSeverity() != DiagnosticSeverity::Error || d.getLocation() != loc)
      return failure();
    if (why.empty())
      why = d.str();
    return success();
  };
}

/// A 2-D grid's message sets have four block bounds per group of the
/// sender and the receiver, and can grow far beyond those of 1-D blocks
/// (a stencil's are about twice as large). Over this many ISL operations or
/// `max-grid-constraints` constraints of the sets' pieces (a measure of
/// their complexity, which the runtime's walk and the tables grow with; a
/// 2-D Jacobi's have 192), its nests take 1-D blocks instead.
static constexpr unsigned long kGridIslOperations = 6000000;

namespace {
struct DistMaterialize : weft::impl::DistMaterializeBase<DistMaterialize> {
  using Base::Base;
  void runOnOperation() override {
    func::FuncOp func = getOperation();
    SmallVector<DistUnit> units = recordedUnits(func);
    for (const DistUnit &u : units) {
      u.op->removeAttr(dist::DistDialect::getUnitAttrName());
      u.op->removeAttr(dist::DistDialect::getDistributeAttrName());
      for (const UnitReduction &r : u.reductions)
        r.store->removeAttr(dist::DistDialect::getReduceAttrName());
    }
    if (llvm::none_of(units, [](const DistUnit &u) { return u.distributed; }))
      return;
    // dist-partition keeps the region's analysis for this pass.
    PolyhedralRegion &analysis = getAnalysis<PolyhedralRegion>();
    RegionExchanges exchanges;
    std::vector<PrivateFootprint> footprints;
    if (failed(analyze(analysis, units, exchanges, footprints)))
      return; // The region runs on every rank (the analysis said why).
    if (report) {
      for (const Exchange &e : exchanges.exchanges)
        remarkMessages(func, units, e);
      for (const UnitCombine &c : exchanges.combines)
        remarkCombine(units, c);
    }
    std::vector<PrivateFootprint> privateArrays;
    for (PrivateFootprint &f : footprints) {
      SmallVector<unsigned, 2> dims;
      for (const PrivateFootprint::Range &r : f.ranges)
        dims.push_back(r.dim);
      if (canStoreLocally(f.memref, dims))
        privateArrays.push_back(std::move(f));
    }
    if (report)
      for (const PrivateFootprint &f : privateArrays) {
        InFlightDiagnostic d = func.emitRemark();
        d << "stored rank-locally: " << argName(func, f.memref)
          << ": each rank allocates the indices ";
        for (auto [k, r] : llvm::enumerate(f.ranges))
          d << (k ? " and " : "") << r.text << " of dimension " << r.dim;
      }
    SmallVector<std::string> comments =
        describeDistributedNests(func, units, exchanges);
    if (failed(Materializer(analysis, units, maxIslOperations)
                   .run(exchanges, privateArrays)))
      return signalPassFailure();
    insertNestComments(func, comments);
  }

  /// The exchanges and private footprints of `units`. Units over a 2-D grid
  /// whose sets exceed the grid's limits take 1-D blocks (in `units`); fails
  /// when the region is to run on every rank.
  LogicalResult analyze(PolyhedralRegion &analysis,
                        MutableArrayRef<DistUnit> units,
                        RegionExchanges &exchanges,
                        std::vector<PrivateFootprint> &footprints) {
    auto compute = [&](unsigned long quota) -> LogicalResult {
      FailureOr<RegionExchanges> e =
          computeExchanges(analysis, units, liveOutEverywhere, quota);
      if (failed(e))
        return failure();
      exchanges = std::move(*e);
      footprints.clear();
      if (!localStorage)
        return success();
      FailureOr<std::vector<PrivateFootprint>> f =
          computePrivateFootprints(analysis, units, quota);
      if (failed(f))
        return failure();
      footprints = std::move(*f);
      return success();
    };
    func::FuncOp func = getOperation();
    if (llvm::none_of(units, [](const DistUnit &u) {
          return u.distributed && u.gridDims == 2;
        }))
      return computeOrReplicate(compute);
    unsigned long quota =
        maxIslOperations && maxIslOperations < kGridIslOperations
            ? maxIslOperations
            : kGridIslOperations;
    std::string why;
    {
      ScopedDiagnosticHandler capture(&getContext(),
                                      errorsOn(getOperation(), why));
      if (succeeded(compute(quota))) {
        size_t size = setConstraints(exchanges);
        if (size <= maxGridConstraints)
          return success();
        why = "their message sets have " + std::to_string(size) +
              " constraints, over the limit of " +
              std::to_string(maxGridConstraints);
      }
    }
    bool pinned = false;
    for (DistUnit &u : units)
      if (u.gridDims == 2) {
        u.gridDims = 1;
        auto layout = u.op->getAttrOfType<dist::LayoutAttr>(
            dist::DistDialect::getLayoutAttrName());
        pinned |= layout && layout.getRank() >= 2 &&
                  layout.getDims()[1].isDistributed();
      }
    if (pinned || report) {
      InFlightDiagnostic d = pinned ? func.emitWarning() : func.emitRemark();
      d << "the nests split over a 2-D grid take 1-D blocks instead: " << why;
    }
    return computeOrReplicate(compute);
  }

  /// `compute` with the full quota. If ISL cannot compute the sets in it,
  /// the region is not distributed (nothing is rewritten), with a warning,
  /// so a blown quota costs speed, never a compile.
  LogicalResult
  computeOrReplicate(function_ref<LogicalResult(unsigned long)> compute) {
    std::string why;
    {
      ScopedDiagnosticHandler capture(&getContext(),
                                      errorsOn(getOperation(), why));
      if (succeeded(compute(maxIslOperations)))
        return success();
    }
    // Without messages nothing is distributed: dist-run-on-root then runs
    // the region on rank 0 alone, unless values live after it go to every
    // rank.
    getOperation().emitWarning()
        << (liveOutEverywhere ? "this region runs on every rank"
                              : "this region is not distributed")
        << ": its messages cannot be computed (" << why << ")";
    return failure();
  }
};
} // end anonymous namespace
