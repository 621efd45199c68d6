//===- CoreTraffic.cpp - What one CPU core does for a loop nest -----------===//
//
// This file is compiled with exceptions.
//
//===----------------------------------------------------------------------===//
#include "CoreTraffic.h"

#include "IslBoxes.h"

#include "dialects/Dist/IR/DistDialect.h"
#include "dialects/Weft/IR/WeftDialect.h"

#include "mlir/Dialect/Affine/Analysis/AffineAnalysis.h"
#include "mlir/Dialect/Affine/IR/AffineValueMap.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"

#include "llvm/ADT/MapVector.h"

#include <isl/set.h>

#include <array>
#include <cmath>
#include <functional>
#include <limits>

using namespace mlir;
using weft::detail::ModelBuilder;

namespace {
/// The operations on data in an op: the arithmetic and math ops (constants
/// and index arithmetic aside) on floats and on integers (a comparison
/// counts as its operands' type), and the loads and stores.
struct DataOps {
  unsigned flops = 0, integerOps = 0, accesses = 0;
  bool doubles = false;

  explicit DataOps(Operation *root) {
    root->walk([&](Operation *op) {
      if (isa<affine::AffineLoadOp, affine::AffineStoreOp>(op)) {
        ++accesses;
        return;
      }
      if (!isa<arith::ArithDialect, math::MathDialect>(op->getDialect()) ||
          op->getNumResults() != 1 || isa<arith::ConstantOp>(op) ||
          op->getNumOperands() == 0)
        return;
      Type type = isa<arith::CmpFOp, arith::CmpIOp>(op)
                      ? op->getOperand(0).getType()
                      : op->getResult(0).getType();
      if (isa<FloatType>(type)) {
        ++flops;
        doubles |= type.isF64();
      } else if (isa<IntegerType>(type)) {
        ++integerOps;
      }
    });
  }
};
} // namespace

std::pair<double, bool> weft::detail::flopsPerAccess(Operation *op) {
  DataOps ops(op);
  return {ops.accesses ? double(ops.flops) / ops.accesses : 0.0, ops.doubles};
}

/// Bytes of a cache line on the CPUs weft targets (x86-64, Arm Neoverse).
static constexpr double kLineBytes = 64;

namespace {
/// What a load may read of a store's elements across the iterations of a
/// loop.
enum class Overlap {
  None,    // nothing an earlier iteration stored (or another array)
  Carried, // what an earlier iteration stored: a chain of iterations
  Unknown, // subscripts whose difference is not a constant
};
} // namespace

/// The differences between the subscripts of `load` and of `store` (of one
/// array), one per dimension; none where one is not a constant. Sets
/// `storeMap` to the store's access map.
static std::optional<SmallVector<int64_t, 4>>
subscriptOffsets(affine::AffineLoadOp load, affine::AffineStoreOp store,
                 affine::AffineValueMap &storeMap) {
  affine::AffineValueMap loadMap, diff;
  affine::MemRefAccess(load).getAccessMap(&loadMap);
  affine::MemRefAccess(store).getAccessMap(&storeMap);
  affine::AffineValueMap::difference(loadMap, storeMap, &diff);
  SmallVector<int64_t, 4> offsets;
  for (unsigned r = 0, n = diff.getNumResults(); r < n; ++r) {
    auto offset = dyn_cast<AffineConstantExpr>(simplifyAffineExpr(
        diff.getResult(r), diff.getNumDims(), diff.getNumSymbols()));
    if (!offset)
      return std::nullopt;
    offsets.push_back(offset.getValue());
  }
  return offsets;
}

/// Whether `load` reads, in an iteration of the loop of `iv`, what `store`
/// wrote in an earlier one: carried where the subscripts are the same and
/// do not change along the loop (an accumulator) or are the store's at an
/// earlier iteration (a recurrence, `A[i][j-1]` against `A[i][j]`).
static Overlap overlapOf(affine::AffineLoadOp load, affine::AffineStoreOp store,
                         Value iv) {
  if (load.getMemRef() != store.getMemRef())
    return Overlap::None;
  affine::AffineValueMap storeMap;
  std::optional<SmallVector<int64_t, 4>> offsets =
      subscriptOffsets(load, store, storeMap);
  if (!offsets)
    return Overlap::Unknown;
  // The iterations between them: load(iv) = store(iv - distance).
  std::optional<int64_t> distance;
  bool varies = false;
  for (auto [r, offset] : llvm::enumerate(*offsets)) {
    // The store subscript's step along the loop, its other operands at 0.
    AffineExpr e = storeMap.getResult(r);
    SmallVector<AffineExpr> dims, syms;
    MLIRContext *ctx = e.getContext();
    for (unsigned k = 0; k < storeMap.getNumDims(); ++k)
      dims.push_back(getAffineConstantExpr(0, ctx));
    for (unsigned k = 0; k < storeMap.getNumSymbols(); ++k)
      syms.push_back(getAffineConstantExpr(0, ctx));
    auto valueAt = [&](int64_t v) -> std::optional<int64_t> {
      for (auto [k, operand] : llvm::enumerate(storeMap.getOperands()))
        if (operand == iv)
          (k < dims.size() ? dims[k] : syms[k - dims.size()]) =
              getAffineConstantExpr(v, ctx);
      auto c = dyn_cast<AffineConstantExpr>(
          simplifyAffineExpr(e.replaceDimsAndSymbols(dims, syms), 0, 0));
      return c ? std::optional<int64_t>(c.getValue()) : std::nullopt;
    };
    std::optional<int64_t> at0 = valueAt(0), at1 = valueAt(1);
    if (!at0 || !at1)
      return Overlap::Unknown;
    int64_t step = *at1 - *at0;
    if (step == 0) {
      if (offset != 0)
        return Overlap::None; // another element, all along the loop
      continue;
    }
    varies = true;
    if (offset % step != 0)
      return Overlap::None;
    int64_t k = -offset / step;
    if (k <= 0 || (distance && *distance != k))
      return Overlap::None; // a later iteration's element, or none
    distance = k;
  }
  return !varies || distance ? Overlap::Carried : Overlap::None;
}

/// The last of `stores` (in program order) that writes, in the same block
/// and before it, the element `load` reads; none if another store to the
/// array comes between or the subscripts differ.
static affine::AffineStoreOp
storedBefore(affine::AffineLoadOp load,
             ArrayRef<affine::AffineStoreOp> stores) {
  affine::AffineStoreOp last;
  for (affine::AffineStoreOp store : stores) {
    if (store->getBlock() != load->getBlock() ||
        !store->isBeforeInBlock(load) || store.getMemRef() != load.getMemRef())
      continue;
    affine::AffineValueMap storeMap;
    std::optional<SmallVector<int64_t, 4>> offsets =
        subscriptOffsets(load, store, storeMap);
    bool same = offsets && llvm::all_of(*offsets, [](int64_t d) { return !d; });
    last = same ? store : affine::AffineStoreOp();
  }
  return last;
}

/// Nanoseconds `op` adds to a chain of dependent operations on `cpu`.
static double latencyNs(Operation *op, const weft::cost::DeviceSpec &cpu) {
  if (isa<arith::DivFOp, arith::RemFOp, math::SqrtOp>(op))
    return cpu.fpDivideLatencyNs;
  // A call into libm (exp, log, pow, ...): a prior of a few divisions.
  if (isa<math::MathDialect>(op->getDialect()))
    return 4 * cpu.fpDivideLatencyNs;
  bool floats = llvm::any_of(op->getResultTypes(),
                             [](Type t) { return isa<FloatType>(t); });
  return floats || isa<arith::CmpFOp>(op) ? cpu.fpLatencyNs : 0;
}

/// What one iteration of an innermost loop costs beyond its bytes.
struct IterationCost {
  /// Nanoseconds it waits for an earlier iteration.
  double chainNs = 0;
  /// Its operations on data, where the compiler cannot vectorise the loop
  /// (0 where it can).
  double scalarOps = 0;
};

/// The cost of one iteration of the innermost loop of `iv`, whose
/// statements are those of `loop` (itself, or the loop it encloses that
/// gpu-expose-bands moved inside it), on `cpu`: the
/// longest chain of operations, in `cpu`'s latencies, from a load of a
/// carried value (overlapOf) to the store that wrote it: compilers may not
/// reorder floating-point operations, so such a loop runs one chain after
/// the other; and, where a value is carried or a load may read what a store
/// of the loop writes (floyd-warshall's `path[i][k]` in the loop over j
/// that writes `path[i][j]`), its operations on data at the scalar rate.
/// `mayOverlap(load, store)` says whether subscripts that differ by more
/// than a constant may meet in the loop.
static IterationCost innerIterationCost(
    affine::AffineForOp loop, Value iv, const weft::cost::DeviceSpec &cpu,
    llvm::function_ref<bool(Operation *, Operation *)> mayOverlap) {
  SmallVector<affine::AffineLoadOp> loads;
  SmallVector<affine::AffineStoreOp> stores;
  loop.getBody()->walk([&](Operation *op) {
    if (auto load = dyn_cast<affine::AffineLoadOp>(op))
      loads.push_back(load);
    else if (auto store = dyn_cast<affine::AffineStoreOp>(op))
      stores.push_back(store);
  });
  IterationCost cost;
  bool scalar = false;
  for (affine::AffineStoreOp store : stores)
    for (affine::AffineLoadOp load : loads) {
      Overlap overlap = overlapOf(load, store, iv);
      if (overlap == Overlap::Unknown && !mayOverlap(load, store))
        overlap = Overlap::None;
      scalar |= overlap != Overlap::None;
      if (overlap != Overlap::Carried)
        continue;
      // Longest path from the load to the stored value, by memoised search
      // over the operands (none: the value does not depend on the load). A
      // load of what a store of the same iteration wrote before it
      // (deriche's `ym1 = y1[i][j]` after `y1[i][j] = ...`) is that value:
      // the compiler keeps it in a register.
      llvm::DenseMap<Value, std::optional<double>> memo;
      std::function<std::optional<double>(Value)> path =
          [&](Value v) -> std::optional<double> {
        if (v == load.getResult())
          return 0.0;
        Operation *def = v.getDefiningOp();
        if (!def || !loop->isProperAncestor(def))
          return std::nullopt;
        if (auto reread = dyn_cast<affine::AffineLoadOp>(def)) {
          affine::AffineStoreOp writer = storedBefore(reread, stores);
          return writer ? path(writer.getValueToStore()) : std::nullopt;
        }
        if (auto it = memo.find(v); it != memo.end())
          return it->second;
        std::optional<double> best;
        for (Value operand : def->getOperands())
          if (std::optional<double> p = path(operand))
            best = std::max(best.value_or(0.0), *p);
        if (best)
          *best += latencyNs(def, cpu);
        return memo[v] = best;
      };
      if (std::optional<double> p = path(store.getValueToStore()))
        cost.chainNs = std::max(cost.chainNs, *p);
    }
  if (scalar) {
    DataOps ops(loop);
    cost.scalarOps = ops.flops + ops.integerOps;
  }
  return cost;
}

namespace {
constexpr unsigned kLevels = weft::cost::DeviceSpec::kCacheLevels;

/// What one execution of some statements fetches into each cache level,
/// the statement instances it runs and the bytes they load and store, the
/// nanoseconds its carried chains take and its scalar operations.
struct Traffic {
  std::array<double, kLevels> fills{};
  double instances = 0, accessBytes = 0, chainNs = 0, scalarOps = 0;

  void add(const Traffic &other) {
    for (unsigned c = 0; c < kLevels; ++c)
      fills[c] += other.fills[c];
    instances += other.instances;
    accessBytes += other.accessBytes;
    chainNs += other.chainNs;
    scalarOps += other.scalarOps;
  }
};

/// The bounding box of some elements of one array.
struct Box {
  std::string array;
  double elementBytes = 8;
  SmallVector<int64_t, 4> lo, hi;
  /// The array's extents (ShapedType::kDynamic where unknown).
  ArrayRef<int64_t> shape;

  /// Bytes of the cache lines it spans: each run of consecutive elements
  /// (its last dimension, and those before it the box spans whole, as a
  /// narrow array's rows) rounded up to whole lines.
  double bytes() const {
    double runs = 1, run = elementBytes;
    bool contiguous = true;
    for (size_t d = lo.size(); d-- > 0;) {
      double extent = double(hi[d] - lo[d] + 1);
      (contiguous ? run : runs) *= extent;
      contiguous &= d < shape.size() && shape[d] == extent;
    }
    return runs * std::ceil(run / kLineBytes) * kLineBytes;
  }

  Box hull(const Box &other) const {
    Box h = *this;
    for (size_t d = 0; d < lo.size(); ++d) {
      h.lo[d] = std::min(lo[d], other.lo[d]);
      h.hi[d] = std::max(hi[d], other.hi[d]);
    }
    return h;
  }
};

/// Adds `box` to `boxes`, merged with each box of its array whose hull with
/// it is no larger than the two apart.
void mergeInto(SmallVectorImpl<Box> &boxes, Box box) {
  for (bool merged = true; merged;) {
    merged = false;
    for (size_t k = 0; k < boxes.size(); ++k) {
      if (boxes[k].array != box.array || boxes[k].lo.size() != box.lo.size())
        continue;
      Box h = box.hull(boxes[k]);
      if (h.bytes() > box.bytes() + boxes[k].bytes())
        continue;
      box = std::move(h);
      boxes.erase(boxes.begin() + k);
      merged = true;
      break;
    }
  }
  boxes.push_back(std::move(box));
}

class TrafficWalk {
public:
  TrafficWalk(const ModelBuilder &model, isl::ctx ctx,
              const isl::union_map &accesses, ArrayRef<unsigned> statements,
              const weft::cost::NominalSizes &sizes,
              const llvm::DenseMap<Value, int64_t> &known,
              const weft::cost::DeviceSpec &cpu)
      : model(model), cpu(cpu) {
    for (unsigned s : statements) {
      const weft::detail::Statement &st = model.getStatements()[s];
      isl::set domain(ctx, model.params() + "{ " + st.domain + " }");
      isl::set fixed = weft::detail::fixSymbols(model, domain, sizes, &known);
      isl::union_map touched = accesses.intersect_domain(isl::union_set(fixed));
      // A loop gpu-expose-bands moved outside the loop that carried it
      // goes back inside it where the nest runs on the host, and a unit's
      // loop dist-interchange-local will swap with the loop in it moves
      // inside that loop: the walk sees the host's order.
      SmallVector<Operation *> order;
      for (affine::AffineForOp loop : st.loops)
        order.push_back(loop);
      for (size_t d = 0; d + 1 < order.size(); ++d) {
        if (!(order[d]->hasAttr(
                  weft::WeftDialect::getGpuInterchangedAttrName()) ||
              order[d]->hasAttr(
                  weft::dist::DistDialect::getInterchangeAttrName())) ||
            order[d + 1]->getParentOp() != order[d])
          continue;
        std::swap(order[d], order[d + 1]);
        std::string tuple = weft::detail::statementTuple(s, order.size());
        SmallVector<std::string> swapped;
        for (size_t k = 0; k < order.size(); ++k)
          swapped.push_back("i" + std::to_string(k == d       ? d + 1
                                                 : k == d + 1 ? d
                                                              : k));
        isl::map swap(ctx, model.params() + "{ " + tuple + " -> " +
                               tuple.substr(0, tuple.find('[')) + "[" +
                               llvm::join(swapped, ", ") + "] }");
        fixed = fixed.apply(swap);
        touched = touched.apply_domain(isl::union_map(swap));
        ++d;
      }
      domains[s] = fixed;
      touches[s] = touched;
      hostLoops[s] = std::move(order);
    }
    // Half of each cache: the other half holds what else the core runs and
    // the lines that conflict. A device without cache figures (a GPU) is
    // taken to reuse all it touches, as the kernel model does.
    for (unsigned c = 0; c < kLevels; ++c)
      capacity[c] = cpu.cacheKiB[c] > 0
                        ? cpu.cacheKiB[c] * 1024 / 2
                        : std::numeric_limits<double>::infinity();
  }

  /// The first `point.size()` dimensions of statement `s` fixed there.
  isl::set at(unsigned s, ArrayRef<int64_t> point) const {
    isl::set set = domains.lookup(s);
    for (auto [d, v] : llvm::enumerate(point))
      set = isl::manage(isl_set_fix_si(set.release(), isl_dim_set, d, v));
    return set;
  }

  /// The elements statement `s` touches with its first dimensions at
  /// `point`.
  isl::union_set elementsAt(unsigned s, ArrayRef<int64_t> point) const {
    return touches.lookup(s)
        .intersect_domain(isl::union_set(at(s, point)))
        .range();
  }

  /// Values dimension `point.size()` takes in the statements `group` with
  /// the dimensions before it at `point`, as a set of one dimension.
  isl::set values(ArrayRef<unsigned> group, ArrayRef<int64_t> point) const {
    unsigned d = point.size();
    isl::set all;
    for (unsigned s : group) {
      isl::set set = at(s, point);
      unsigned dims = isl_set_dim(set.get(), isl_dim_set);
      set = isl::manage(
          isl_set_project_out(set.release(), isl_dim_set, d + 1, dims - d - 1));
      set = isl::manage(isl_set_project_out(set.release(), isl_dim_set, 0, d));
      set = isl::manage(isl_set_reset_tuple_id(set.release()));
      all = all.is_null() ? set : all.unite(set);
    }
    return all;
  }

  /// The values of the one-dimensional `range`: exact (a strided loop, the
  /// union of several statements' ranges) up to kMaxCounted of them, else
  /// the extent of each disjoint piece.
  static double countValues(const isl::set &range) {
    constexpr int64_t kMaxCounted = 1 << 20;
    auto extent = weft::detail::dimExtent(range, 0);
    if (extent && extent->second - extent->first < kMaxCounted)
      if (isl_val *count = isl_set_count_val(range.get())) {
        double n = isl_val_get_d(count);
        isl_val_free(count);
        return n;
      }
    return weft::detail::countByBoxes(
        isl::manage(isl_set_make_disjoint(range.copy())));
  }

  /// A typical value of the one-dimensional `range`: the first from the
  /// middle of its extent on (a strided loop skips the middle itself).
  static std::optional<int64_t> typical(const isl::set &range) {
    auto extent = weft::detail::dimExtent(range, 0);
    if (!extent)
      return std::nullopt;
    int64_t middle = extent->first + (extent->second - extent->first) / 2;
    isl::set later = isl::manage(
        isl_set_lower_bound_si(range.copy(), isl_dim_set, 0, middle));
    auto first = weft::detail::dimExtent(later.lexmin(), 0);
    return first ? std::optional<int64_t>(first->first) : std::nullopt;
  }

  /// Bytes of the cache lines the statements `group` touch with their
  /// first dimensions at `point`: the bounding box of what each statement
  /// touches, its rows rounded up to lines, boxes of an array merged where
  /// their hull is no larger than both (a stencil's neighbouring rows, a
  /// read and a write of the same elements; not a row and a column).
  double footprint(ArrayRef<unsigned> group, ArrayRef<int64_t> point) const {
    SmallVector<Box> boxes;
    for (unsigned s : group) {
      isl::set_list sets = elementsAt(s, point).get_set_list();
      for (int k = 0, n = sets.size(); k < n; ++k) {
        isl::set set = sets.at(k);
        if (set.is_empty())
          continue;
        Box box;
        box.array = isl_set_get_tuple_name(set.get());
        box.elementBytes = weft::detail::elementBytes(model, box.array);
        if (Value array = model.arrayOf(box.array))
          box.shape = cast<MemRefType>(array.getType()).getShape();
        bool bounded = true;
        for (int d = 0, dims = isl_set_dim(set.get(), isl_dim_set); d < dims;
             ++d) {
          auto e = weft::detail::dimExtent(set, d);
          bounded &= e.has_value();
          box.lo.push_back(e ? e->first : 0);
          box.hi.push_back(e ? e->second : 0);
        }
        if (bounded)
          mergeInto(boxes, std::move(box));
      }
    }
    double bytes = 0;
    for (const Box &box : boxes)
      bytes += box.bytes();
    return bytes;
  }

  /// Traffic of one execution of the statements `group`, which share their
  /// first `point.size()` loops, those at `point`.
  Traffic body(ArrayRef<unsigned> group, SmallVector<int64_t> &point) const {
    unsigned d = point.size();
    SmallVector<unsigned> direct;
    llvm::MapVector<Operation *, SmallVector<unsigned>> loops;
    for (unsigned s : group) {
      ArrayRef<Operation *> order = hostLoops.find(s)->second;
      if (order.size() == d)
        direct.push_back(s);
      else
        loops[order[d]].push_back(s);
    }
    Traffic traffic;
    traffic.fills.fill(footprint(direct, point));
    traffic.instances = direct.size();
    for (unsigned s : direct)
      traffic.accessBytes += weft::detail::elementBytes(
          cast<MemRefType>(
              affine::MemRefAccess(model.getStatements()[s].access)
                  .memref.getType())
              .getElementType());
    for (auto &[loop, inside] : loops)
      traffic.add(execution(cast<affine::AffineForOp>(loop), inside, point));
    return traffic;
  }

  /// Traffic of one execution of `loop`, at dimension `point.size()` of
  /// the statements `group` (all inside it).
  Traffic execution(affine::AffineForOp loop, ArrayRef<unsigned> group,
                    SmallVector<int64_t> &point) const {
    isl::set range = values(group, point);
    if (range.is_null() || range.is_empty())
      return {};
    std::optional<int64_t> iteration = typical(range);
    if (!iteration)
      return {};
    double trips = countValues(range);
    double whole = footprint(group, point);
    point.push_back(*iteration);
    double once = footprint(group, point);
    Traffic inner = body(group, point);
    point.pop_back();
    Traffic traffic;
    traffic.instances = trips * inner.instances;
    traffic.accessBytes = trips * inner.accessBytes;
    for (unsigned c = 0; c < kLevels; ++c)
      traffic.fills[c] =
          once > capacity[c] ? std::max(whole, trips * inner.fills[c]) : whole;
    // Whether a load and a store of the loop touch a common element in this
    // execution of it.
    auto mayOverlap = [&](Operation *load, Operation *store) {
      isl::union_set loaded, stored;
      for (unsigned s : group) {
        Operation *access = model.getStatements()[s].access;
        if (access == load || access == store)
          (access == load ? loaded : stored) = elementsAt(s, point);
      }
      return loaded.is_null() || stored.is_null() ||
             !loaded.intersect(stored).is_empty();
    };
    // An innermost loop of the host's order: its statements' innermost
    // loop in the IR holds them.
    IterationCost own;
    unsigned depth = point.size() + 1;
    if (llvm::all_of(group, [&](unsigned s) {
          return hostLoops.find(s)->second.size() == depth;
        }))
      own =
          innerIterationCost(model.getStatements()[group.front()].loops.back(),
                             loop.getInductionVar(), cpu, mayOverlap);
    traffic.chainNs = trips * (inner.chainNs + own.chainNs);
    traffic.scalarOps = trips * (inner.scalarOps + own.scalarOps);
    return traffic;
  }

private:
  const ModelBuilder &model;
  const weft::cost::DeviceSpec &cpu;
  llvm::DenseMap<unsigned, isl::set> domains;
  llvm::DenseMap<unsigned, isl::union_map> touches;
  /// Each statement's loops, outermost first, in the order the host runs.
  llvm::DenseMap<unsigned, SmallVector<Operation *>> hostLoops;
  double capacity[kLevels];
};
} // namespace

weft::cost::CoreWork weft::detail::coreWork(
    const ModelBuilder &model, isl::ctx ctx, const isl::union_map &accesses,
    ArrayRef<unsigned> statements, Operation *root,
    const cost::NominalSizes &sizes,
    const llvm::DenseMap<Value, int64_t> &known, const cost::DeviceSpec &cpu) {
  cost::CoreWork work;
  auto [flopsPerAccess, doubles] = weft::detail::flopsPerAccess(root);
  work.doublePrecision = doubles;
  if (statements.empty())
    return work;
  TrafficWalk walk(model, ctx, accesses, statements, sizes, known, cpu);
  SmallVector<int64_t> point;
  Traffic traffic = walk.body(statements, point);
  work.flops = flopsPerAccess * traffic.instances;
  work.accessBytes = traffic.accessBytes;
  llvm::copy(traffic.fills, work.fills);
  work.chainNs = traffic.chainNs;
  work.scalarOps = traffic.scalarOps;
  return work;
}
