//===- KernelShape.cpp - Block shape and tiles of a device nest -----------===//
//
// Part of gpu-select-nests: for a 2-D device nest whose threads each run a
// sequential loop, the cost model's choice of block shape and shared-memory
// tile width (LoopNestCost.h), recorded on the nest for gpu-map-loops and
// gpu-stage-tiles.
//
//===----------------------------------------------------------------------===//
#include "DeviceNests.h"

#include "weft/GPU/Passes.h"

#include "weft/CostModel/LoopNestCost.h"

#include "mlir/Analysis/FlatLinearValueConstraints.h"
#include "mlir/Dialect/Affine/Analysis/LoopAnalysis.h"
#include "mlir/Interfaces/CallInterfaces.h"
#include "llvm/Support/FormatVariadic.h"

#include <functional>

using namespace mlir;
using namespace weft;

/// The value of a bound of `loop` at the sizes `choice` plans for, `iv` at
/// `ivValue` (the maximum of a lower bound's results, the minimum of an
/// upper bound's), a size without a value at the nominal size, as the
/// cost estimates take it.
static std::optional<int64_t> boundAt(affine::AffineForOp loop, bool lower,
                                      const DeviceChoice &choice, Value iv = {},
                                      int64_t ivValue = 0) {
  AffineMap map = lower ? loop.getLowerBoundMap() : loop.getUpperBoundMap();
  SmallVector<Attribute> values;
  Builder b(loop.getContext());
  for (Value operand :
       lower ? loop.getLowerBoundOperands() : loop.getUpperBoundOperands()) {
    int64_t v = operand == iv ? ivValue
                : choice.plannedSizes.count(operand)
                    ? choice.plannedSizes.lookup(operand)
                    : nominalValue(operand, choice.sizes)
                          .value_or(choice.sizes.fallback);
    values.push_back(b.getIndexAttr(v));
  }
  SmallVector<Attribute> folded;
  if (failed(map.constantFold(values, folded)) || folded.empty())
    return std::nullopt;
  SmallVector<int64_t> results;
  for (Attribute a : folded)
    results.push_back(cast<IntegerAttr>(a).getInt());
  return lower ? *llvm::max_element(results) : *llvm::min_element(results);
}

/// Iterations of `loop`: constant, or at the sizes `choice` plans for (a
/// rank's block, the values `--size` gives), or the nominal size. A
/// triangle's inner loop (bounds that use one enclosing loop's iterator)
/// counts its box: the range from its bounds at the outer loop's first and
/// last iterations.
static double nominalTrips(affine::AffineForOp loop,
                           const DeviceChoice &choice) {
  const cost::NominalSizes &sizes = choice.sizes;
  if (std::optional<uint64_t> trips = affine::getConstantTripCount(loop))
    return double(*trips);
  Value iv;
  for (Value operand : loop->getOperands())
    if (affine::getForInductionVarOwner(operand)) {
      if (iv && operand != iv)
        return double(sizes.fallback);
      iv = operand;
    }
  std::optional<int64_t> lb, ub;
  if (!iv) {
    lb = boundAt(loop, true, choice);
    ub = boundAt(loop, false, choice);
  } else {
    affine::AffineForOp outer = affine::getForInductionVarOwner(iv);
    std::optional<int64_t> first = boundAt(outer, true, choice);
    std::optional<int64_t> end = boundAt(outer, false, choice);
    if (first && end && *end > *first) {
      for (int64_t at : {*first, *end - 1}) {
        std::optional<int64_t> l = boundAt(loop, true, choice, iv, at);
        std::optional<int64_t> u = boundAt(loop, false, choice, iv, at);
        if (!l || !u)
          return double(sizes.fallback);
        lb = lb ? std::min(*lb, *l) : *l;
        ub = ub ? std::max(*ub, *u) : *u;
      }
    }
  }
  if (!lb || !ub)
    return double(sizes.fallback);
  return double(
      llvm::divideCeil(std::max<int64_t>(*ub - *lb, 0), loop.getStepAsInt()));
}

/// Whether the subscripts of `load` use `v`.
static bool subscriptsUse(affine::AffineLoadOp load, Value v) {
  AffineMap map = load.getAffineMap();
  for (auto [pos, operand] : llvm::enumerate(load.getMapOperands()))
    if (operand == v &&
        llvm::any_of(map.getResults(), [&, pos = pos](AffineExpr e) {
          return pos < map.getNumDims()
                     ? e.isFunctionOfDim(pos)
                     : e.isFunctionOfSymbol(pos - map.getNumDims());
        }))
      return true;
  return false;
}

namespace {
/// An affine bound as a sum of its operands' multiples and a constant.
struct LinearForm {
  llvm::SmallDenseMap<Value, int64_t, 4> coefficients;
  int64_t constant = 0;

  void add(const LinearForm &other, int64_t factor) {
    for (auto [v, c] : other.coefficients)
      coefficients[v] += c * factor;
    constant += other.constant * factor;
  }
  int64_t coefficient(Value v) const { return coefficients.lookup(v); }
  /// The form with `other` in place of `v`.
  LinearForm substitute(Value v, const LinearForm &other) const {
    LinearForm result = *this;
    int64_t c = result.coefficients.lookup(v);
    result.coefficients.erase(v);
    result.add(other, c);
    return result;
  }
  /// The constant this form is, when every operand's coefficient is 0.
  std::optional<int64_t> asConstant() const {
    for (auto [v, c] : coefficients)
      if (c != 0)
        return std::nullopt;
    return constant;
  }
};
} // namespace

/// `expr` over `operands` (dimensions, then symbols) as a linear form;
/// none where it has a product of operands, a division or a modulo.
static std::optional<LinearForm> linearForm(AffineExpr expr, unsigned numDims,
                                            ValueRange operands) {
  // [dimensions, symbols, divisions and modulos, constant]: the last
  // group is empty for a linear expression.
  SmallVector<int64_t> flat;
  if (failed(getFlattenedAffineExpr(expr, numDims, operands.size() - numDims,
                                    &flat)) ||
      flat.size() != operands.size() + 1)
    return std::nullopt;
  LinearForm form;
  for (auto [operand, c] : llvm::zip(operands, flat))
    if (c != 0)
      form.coefficients[operand] += c;
  form.constant = flat.back();
  return form;
}

static std::optional<LinearForm> boundForm(AffineMap map, ValueRange operands) {
  if (map.getNumResults() != 1)
    return std::nullopt;
  return linearForm(map.getResult(0), map.getNumDims(), operands);
}

/// Why the triangle `inner` of `outer` may not be staged in shared-memory
/// tiles; empty where every row and every column of the grid's box holds
/// an iteration, so that a tile's row (column) inside the box is one some
/// thread inside the triangle reads, and the triangle is half its box.
/// True where the inner loop's bounds are `outer`'s iterator plus or minus
/// an invariant, or invariant, and its narrowest range, at `outer`'s first
/// or last iteration, is known to hold an iteration (every range then holds
/// one, and consecutive ranges touch or overlap: their union, the inner
/// loop's side of the box, has no hole). syrk's `j <= i` and covariance's
/// `j >= i` are such triangles.
static std::string triangleTileObstacle(affine::AffineForOp outer,
                                        affine::AffineForOp inner) {
  const char *notLinear = "the triangle's bounds are not its outer "
                          "iterator plus or minus an invariant";
  if (outer.getStepAsInt() != 1 || inner.getStepAsInt() != 1)
    return notLinear;
  std::optional<LinearForm> lo =
      boundForm(inner.getLowerBoundMap(), inner.getLowerBoundOperands());
  std::optional<LinearForm> hi =
      boundForm(inner.getUpperBoundMap(), inner.getUpperBoundOperands());
  if (!lo || !hi)
    return notLinear;
  Value iv = outer.getInductionVar();
  int64_t slope = hi->coefficient(iv) - lo->coefficient(iv);
  if (std::abs(lo->coefficient(iv)) > 1 || std::abs(hi->coefficient(iv)) > 1)
    return notLinear;
  // A band along the diagonal (`j` from `i` to `i + 3`) fills a vanishing
  // part of its box, whose every block would load tiles.
  if (slope == 0)
    return "the triangle is a band along the diagonal, a small part of the "
           "grid's box";
  // The range's width changes linearly along `outer`: it is narrowest at
  // the first iteration where it grows (syrk's `j < i + 1`), at the last
  // where it shrinks (covariance's `j` from `i` to `m`). The first iteration
  // is at least each result of the lower bound (a maximum: a rank's block
  // of rows under --target=mpi-cuda), the last below each result of the
  // upper bound (a minimum): one result where the range is known to hold an
  // iteration bounds them all.
  bool grows = slope > 0;
  AffineMap map = grows ? outer.getLowerBoundMap() : outer.getUpperBoundMap();
  ValueRange operands =
      grows ? outer.getLowerBoundOperands() : outer.getUpperBoundOperands();
  for (AffineExpr result : map.getResults()) {
    std::optional<LinearForm> at =
        linearForm(result, map.getNumDims(), operands);
    if (!at)
      continue;
    if (!grows)
      at->constant -= 1;
    LinearForm width = hi->substitute(iv, *at);
    width.add(lo->substitute(iv, *at), -1);
    std::optional<int64_t> narrowest = width.asConstant();
    if (narrowest && *narrowest >= 1)
      return "";
  }
  return std::string("its ") + (grows ? "first" : "last") +
         " row may hold no element, so that the tiles could read what the "
         "loop does not";
}

/// The nest as the tile choice sees it: the reads of `inner` that a row, a
/// column or the whole block of threads shares (of arrays the nest does
/// not write), its other accesses and its floating-point operations.
static cost::TiledNest describe(MutableArrayRef<affine::AffineForOp> band,
                                unsigned coalesced, affine::AffineForOp inner,
                                const DeviceChoice &choice) {
  cost::TiledNest nest;
  nest.trips[0] = nominalTrips(band[coalesced], choice);
  nest.trips[1] = nominalTrips(band[1 - coalesced], choice);
  nest.inner = nominalTrips(inner, choice);
  DenseSet<Value> written;
  band.front().walk([&](Operation *op) {
    if (auto store = dyn_cast<affine::AffineStoreOp>(op))
      written.insert(store.getMemRef());
    else if (auto store = dyn_cast<memref::StoreOp>(op))
      written.insert(store.getMemRef());
  });
  // Along which grid dimensions (bit 0: x, bit 1: y) a value of the loop
  // differs: an operation the same for a row of threads is computed once
  // per row of a thread's register tile.
  Value ivs[2] = {band[coalesced].getInductionVar(),
                  band[1 - coalesced].getInductionVar()};
  DenseMap<Value, unsigned> memo;
  std::function<unsigned(Value)> along = [&](Value v) -> unsigned {
    for (unsigned d = 0; d < 2; ++d)
      if (v == ivs[d])
        return 1u << d;
    Operation *def = v.getDefiningOp();
    if (!def || !band.front()->isAncestor(def))
      return 0;
    if (auto known = memo.find(v); known != memo.end())
      return known->second;
    unsigned bits = 0;
    if (auto load = dyn_cast<affine::AffineLoadOp>(def)) {
      for (unsigned d = 0; d < 2; ++d)
        bits |= subscriptsUse(load, ivs[d]) ? 1u << d : 0;
    } else {
      for (Value operand : def->getOperands())
        bits |= along(operand);
    }
    return memo[v] = bits;
  };
  bool sawElement = false, straightLine = true, floatStores = true,
       stores = false;
  for (Operation &op : inner.getBody()->without_terminator()) {
    straightLine &= op.getNumRegions() == 0 && !isa<CallOpInterface>(op);
    if (auto store = dyn_cast<affine::AffineStoreOp>(op)) {
      stores = true;
      floatStores &= isa<FloatType>(store.getValueToStore().getType());
    }
    if (isa<arith::ArithDialect>(op.getDialect()) && op.getNumResults() == 1 &&
        isa<FloatType>(op.getResult(0).getType()) &&
        !isa<arith::ConstantOp>(op)) {
      nest.flopsPerIteration += 1;
      switch (along(op.getResult(0))) {
      case 0:
        nest.flopsUniform += 1;
        break;
      case 1:
        nest.flopsAlongX += 1;
        break;
      case 2:
        nest.flopsAlongY += 1;
        break;
      default:
        break;
      }
    }
    if (isa<memref::StoreOp, memref::LoadOp>(op))
      ++nest.otherAccesses;
    if (auto store = dyn_cast<affine::AffineStoreOp>(op))
      ++(llvm::is_contained(store.getMapOperands(), inner.getInductionVar())
             ? nest.otherAccesses
             : nest.invariantAccesses);
    auto load = dyn_cast<affine::AffineLoadOp>(op);
    if (!load)
      continue;
    Type element = load.getMemRefType().getElementType();
    if (!sawElement && element.isIntOrFloat()) {
      nest.elementBytes = std::max(1u, element.getIntOrFloatBitWidth() / 8);
      nest.doublePrecision = !element.isF32();
      sawElement = true;
    }
    unsigned dims = along(load.getResult());
    bool x = dims & 1, y = dims & 2;
    if (!subscriptsUse(load, inner.getInductionVar()))
      ++nest.invariantAccesses;
    else if ((x && y) || written.contains(load.getMemRef()))
      ++nest.otherAccesses;
    else if (x)
      ++nest.readsAlongX;
    else if (y)
      ++nest.readsAlongY;
    else
      ++nest.readsUniform;
  }
  nest.registerTiles =
      stores && straightLine && floatStores && nest.otherAccesses == 0;
  return nest;
}

std::string weft::chooseKernelShape(MutableArrayRef<affine::AffineForOp> band,
                                    unsigned coalesced,
                                    const DeviceChoice &choice) {
  if (band.size() != 2)
    return "";
  Block *body = band.back().getBody();
  auto loops = body->getOps<affine::AffineForOp>();
  if (!llvm::hasSingleElement(loops))
    return "";
  affine::AffineForOp inner = *loops.begin();
  // A loop whose bounds differ between threads cannot be tiled.
  if (boundsUse(inner, band))
    return "";
  // A triangle's guard mixes the grid's dimensions: gpu-stage-tiles loads
  // the tiles' rows and columns within the grid's box, which must be rows
  // and columns of the triangle.
  bool triangle = boundsUse(band[1], band.front());
  if (triangle)
    if (std::string why = triangleTileObstacle(band[0], band[1]); !why.empty())
      return "the loop at " + lineOf(inner) +
             " without shared-memory tiles: " + why;
  cost::TiledNest nest = describe(band, coalesced, inner, choice);
  nest.triangle = triangle;
  cost::KernelShape shape =
      cost::chooseTiledNestShape(nest, choice.gpu, choice.registerTile);
  if (shape.tile == 0)
    return "";
  Builder b(inner.getContext());
  band.front()->setAttr(
      WeftDialect::getGpuBlockAttrName(),
      b.getDenseI64ArrayAttr({shape.block[0], shape.block[1]}));
  inner->setAttr(WeftDialect::getGpuTileAttrName(),
                 b.getI64IntegerAttr(shape.tile));
  std::string elements;
  if (shape.coarsen[0] * shape.coarsen[1] > 1) {
    inner->setAttr(WeftDialect::getGpuCoarsenAttrName(),
                   b.getDenseI64ArrayAttr(
                       {shape.coarsen[0], shape.coarsen[1]}));
    elements = llvm::formatv(", each computing {0} x {1} elements",
                             shape.coarsen[0], shape.coarsen[1]);
  }
  cost::KernelShape untiled =
      cost::predictTiledNest(nest, choice.gpu, 32, 8, 0);
  return llvm::formatv("blocks of {0} x {1} threads{6}, the loop at {2} in "
                       "shared-memory tiles of {3} where gpu-stage-tiles "
                       "can stage its reads: predicted {4} a launch with "
                       "tiles, {5} with 32 x 8 blocks and none",
                       shape.block[0], shape.block[1], lineOf(inner), shape.tile,
                       formatTime(shape.us), formatTime(untiled.us), elements)
      .str();
}
