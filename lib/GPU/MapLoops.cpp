//===- MapLoops.cpp - Device nests as mapped scf.parallel loops -----------===//
//
// Implements gpu-map-loops: each nest gpu-select-nests chose becomes a loop
// over thread blocks around a loop over the threads of a block, both
// scf.parallel with the `mapping` attribute that the upstream
// convert-parallel-loops-to-gpu turns into one gpu.launch.
//
//===----------------------------------------------------------------------===//
#include "weft/GPU/Passes.h"
#include "weft/Partition/NestComments.h"
#include "weft/Support/SourceNames.h"

#include "DeviceNests.h"

#include "mlir/Conversion/AffineToStandard/AffineToStandard.h"
#include "mlir/Dialect/Affine/Utils.h"
#include "mlir/Dialect/GPU/Transforms/ParallelLoopMapper.h"
#include "mlir/Transforms/DialectConversion.h"

namespace weft {
#define GEN_PASS_DEF_GPUMAPLOOPS
#include "weft/GPU/Passes.h.inc"
} // namespace weft

using namespace mlir;
using namespace weft;

/// Threads per block along each grid dimension of a nest of `loops` loops,
/// x first: the cost model's choice on the nest (weft.gpu.block), else 256
/// threads, x as wide as a warp.
static SmallVector<int64_t, 3> blockShape(affine::AffineForOp outer,
                                          unsigned loops) {
  if (auto chosen = outer->getAttrOfType<DenseI64ArrayAttr>(
          WeftDialect::getGpuBlockAttrName());
      chosen && chosen.size() == loops)
    return SmallVector<int64_t, 3>(chosen.asArrayRef());
  switch (loops) {
  case 1:
    return {kBlock1D};
  case 2:
    return {kBlock2D[0], kBlock2D[1]};
  default:
    return {32, 4, 2};
  }
}

/// The grid dimension of each loop of a nest of `loops` loops (0: x) when
/// loop `coalesced` walks the contiguous dimension: it gets x, the others y
/// and z from the innermost out.
static SmallVector<unsigned, 3> gridDims(unsigned loops, unsigned coalesced) {
  SmallVector<unsigned, 3> dims(loops);
  dims[coalesced] = 0;
  unsigned next = 1;
  for (unsigned k = loops; k-- > 0;)
    if (k != coalesced)
      dims[k] = next++;
  return dims;
}

static gpu::Processor processor(unsigned dim, bool thread) {
  static const gpu::Processor blocks[] = {
      gpu::Processor::BlockX, gpu::Processor::BlockY, gpu::Processor::BlockZ};
  static const gpu::Processor threads[] = {gpu::Processor::ThreadX,
                                           gpu::Processor::ThreadY,
                                           gpu::Processor::ThreadZ};
  return thread ? threads[dim] : blocks[dim];
}

namespace {
/// An element that a nest's threads reduce into, and each thread's own
/// accumulator for it.
struct Accumulator {
  Value memref;
  AffineMap map;
  SmallVector<Value> operands;
  StringRef kind;
  memref::AllocaOp own;

  bool isAccessedBy(Value m, AffineMap at, ValueRange with) const {
    return m == memref && at == map && llvm::equal(with, operands);
  }
};
} // end anonymous namespace

/// The elements the reduction updates of `outer` marked by gpu-select-nests
/// (weft.gpu.reduce) reduce into: every access of one of them in the nest
/// goes to the thread's own accumulator instead (a scalar allocated before
/// `outer`, for the caller to move into the thread's body).
static SmallVector<Accumulator> ownAccumulators(affine::AffineForOp outer) {
  SmallVector<Accumulator> accumulators;
  OpBuilder b(outer);
  // `y_partial`: the thread's part of y's element (gpu-reduce-blocks'
  // shared array of them is `y_partials`).
  auto partialName = [&](Value memref) -> std::string {
    std::string name =
        sourceArrayName(outer->getParentOfType<func::FuncOp>(), memref);
    StringRef array = hostArrayName(name);
    return isCIdentifier(array) ? (array + "_partial").str() : "";
  };
  outer.walk([&](affine::AffineStoreOp store) {
    auto kind = store->getAttrOfType<StringAttr>(
        WeftDialect::getGpuReduceAttrName());
    if (!kind)
      return;
    store->removeAttr(WeftDialect::getGpuReduceAttrName());
    if (llvm::any_of(accumulators, [&](const Accumulator &a) {
          return a.isAccessedBy(store.getMemRef(), store.getAffineMap(),
                                store.getMapOperands());
        }))
      return;
    Type element = store.getMemRefType().getElementType();
    accumulators.push_back(
        {store.getMemRef(), store.getAffineMap(),
         llvm::to_vector(store.getMapOperands()), kind.getValue(),
         b.create<memref::AllocaOp>(
             withSourceName(store.getLoc(), partialName(store.getMemRef())),
             MemRefType::get({}, element))});
  });
  auto ownOf = [&](Value m, AffineMap map, ValueRange operands) -> Value {
    for (Accumulator &a : accumulators)
      if (a.isAccessedBy(m, map, operands))
        return a.own;
    return {};
  };
  outer.walk([&](Operation *op) {
    OpBuilder at(op);
    if (auto load = dyn_cast<affine::AffineLoadOp>(op)) {
      if (Value own = ownOf(load.getMemRef(), load.getAffineMap(),
                            load.getMapOperands())) {
        load.replaceAllUsesWith(
            at.create<affine::AffineLoadOp>(load.getLoc(), own).getResult());
        load.erase();
      }
    } else if (auto store = dyn_cast<affine::AffineStoreOp>(op)) {
      if (Value own = ownOf(store.getMemRef(), store.getAffineMap(),
                            store.getMapOperands())) {
        at.create<affine::AffineStoreOp>(store.getLoc(),
                                         store.getValueToStore(), own,
                                         ValueRange{});
        store.erase();
      }
    }
  });
  return accumulators;
}

/// `(x + d - 1) / d`: x / d rounded up where x >= 0, and at most 0 where
/// x <= 0 (a loop without iterations: no thread runs one, the launch macro
/// launches no empty grid). Reads plainer than arith.ceildivsi's expansion
/// in the host code; folded for d = 1 and for a constant `x`.
static Value roundUpDivide(OpBuilder &b, Location loc, Value x, int64_t d) {
  if (d == 1)
    return x;
  Value up = b.createOrFold<arith::AddIOp>(
      loc, x, b.create<arith::ConstantIndexOp>(loc, d - 1));
  return b.createOrFold<arith::DivSIOp>(
      loc, up, b.create<arith::ConstantIndexOp>(loc, d));
}

/// The value that leaves any other unchanged under `kind`.
static Value identity(OpBuilder &b, Location loc, StringRef kind, Type type) {
  if (auto f = dyn_cast<FloatType>(type)) {
    const llvm::fltSemantics &sem = f.getFloatSemantics();
    APFloat value = kind == "add"   ? APFloat::getZero(sem)
                    : kind == "mul" ? APFloat(sem, 1)
                                    : APFloat::getInf(sem, kind == "max");
    return b.create<arith::ConstantOp>(loc, FloatAttr::get(f, value));
  }
  unsigned width = type.getIntOrFloatBitWidth();
  APInt value = kind == "add"   ? APInt::getZero(width)
                : kind == "mul" ? APInt(width, 1)
                : kind == "max" ? APInt::getSignedMinValue(width)
                                : APInt::getSignedMaxValue(width);
  return b.create<arith::ConstantOp>(loc, IntegerAttr::get(type, value));
}

/// The atomic update that combines a value into an element under `kind`
/// (the C source's max and min ignore NaN operands, as maxnum and minnum).
static arith::AtomicRMWKind atomicKind(StringRef kind, Type type) {
  bool f = isa<FloatType>(type);
  if (kind == "add")
    return f ? arith::AtomicRMWKind::addf : arith::AtomicRMWKind::addi;
  if (kind == "mul")
    return f ? arith::AtomicRMWKind::mulf : arith::AtomicRMWKind::muli;
  if (kind == "max")
    return f ? arith::AtomicRMWKind::maxnumf : arith::AtomicRMWKind::maxs;
  return f ? arith::AtomicRMWKind::minnumf : arith::AtomicRMWKind::mins;
}

static LogicalResult mapNest(affine::AffineForOp outer) {
  unsigned loops = outer->getAttrOfType<IntegerAttr>(kGpuBandAttr).getInt();
  unsigned coalesced =
      outer->getAttrOfType<IntegerAttr>(kGpuCoalescedAttr).getInt();
  SmallVector<affine::AffineForOp, 3> band{outer};
  while (band.size() < loops) {
    Block *body = band.back().getBody();
    auto inner = llvm::hasSingleElement(body->without_terminator())
                     ? dyn_cast<affine::AffineForOp>(body->front())
                     : affine::AffineForOp();
    if (!inner)
      return outer.emitOpError("is marked as a nest of ")
             << loops << " loops but holds fewer";
    band.push_back(inner);
  }
  if (coalesced >= loops)
    return outer.emitOpError("marks a coalesced loop outside its nest");
  Block *body = band.back().getBody();
  SmallVector<Accumulator> accumulators = ownAccumulators(outer);

  // The tile width and register tiles gpu-select-nests chose for a loop of
  // the body, which gpu-stage-tiles reads on its scf.for: the loops keep
  // their order.
  constexpr StringLiteral kShapeAttrs[] = {WeftDialect::getGpuTileAttrName(),
                                           WeftDialect::getGpuCoarsenAttrName()};
  SmallVector<SmallVector<NamedAttribute>> tiles;
  if (body->getOps<scf::ForOp>().empty())
    for (auto loop : body->getOps<affine::AffineForOp>()) {
      SmallVector<NamedAttribute> &shape = tiles.emplace_back();
      for (StringLiteral name : kShapeAttrs)
        if (Attribute value = loop->getAttr(name))
          shape.push_back(NamedAttribute(
              StringAttr::get(loop.getContext(), name), value));
    }

  // The body in scf/arith/memref: it is about to leave the affine loops
  // whose iterators its affine maps use.
  {
    RewritePatternSet patterns(outer.getContext());
    populateAffineToStdConversionPatterns(patterns);
    ConversionTarget target(*outer.getContext());
    target.addLegalDialect<arith::ArithDialect, memref::MemRefDialect,
                           scf::SCFDialect>();
    target.addIllegalDialect<affine::AffineDialect>();
    target.markUnknownOpDynamicallyLegal([](Operation *) { return true; });
    SmallVector<Operation *> ops;
    for (Operation &op : body->without_terminator())
      ops.push_back(&op);
    if (failed(applyPartialConversion(ops, target, std::move(patterns))))
      return outer.emitOpError("has a body that cannot leave affine form");
  }
  for (auto [loop, shape] : llvm::zip(body->getOps<scf::ForOp>(), tiles))
    for (NamedAttribute attr : shape)
      loop->setAttr(attr.getName(), attr.getValue());

  Location loc = outer.getLoc();
  OpBuilder b(outer);
  SmallVector<int64_t, 3> shape = blockShape(outer, loops);
  SmallVector<unsigned, 3> dims = gridDims(loops, coalesced);
  Value zero = b.create<arith::ConstantIndexOp>(loc, 0);
  Value one = b.create<arith::ConstantIndexOp>(loc, 1);
  SmallVector<Value> lbs, steps, trips, blocks, threads, zeros, ones;
  // A loop whose bounds use the iterator of an outer loop of the band (a
  // triangle, gpu-select-nests' triangularBandLoop) spans the extremes of
  // its bounds, reached at that loop's first or last iteration.
  SmallVector<Value> firsts, lasts;
  auto bandIndex = [&](Value v) -> int {
    for (auto [m, loop] : llvm::enumerate(band))
      if (loop.getInductionVar() == v)
        return m;
    return -1;
  };
  auto boundAt = [&](OpBuilder &at, AffineMap map, ValueRange operands,
                     ArrayRef<Value> ivs) {
    SmallVector<Value> mapped;
    for (Value v : operands) {
      int m = bandIndex(v);
      mapped.push_back(m < 0 ? v : ivs[m]);
    }
    return affine::expandAffineMap(at, loc, map, mapped)->front();
  };
  SmallVector<bool> triangle;
  for (auto [k, loop] : llvm::enumerate(band)) {
    Value lb, ub;
    triangle.push_back(boundsUse(loop, band));
    if (triangle.back()) {
      Value lo[2], hi[2];
      for (int e = 0; e < 2; ++e) {
        ArrayRef<Value> at = e ? ArrayRef<Value>(lasts) : firsts;
        lo[e] = boundAt(b, loop.getLowerBoundMap(),
                        loop.getLowerBoundOperands(), at);
        hi[e] = boundAt(b, loop.getUpperBoundMap(),
                        loop.getUpperBoundOperands(), at);
      }
      lb = b.createOrFold<arith::MinSIOp>(loc, lo[0], lo[1]);
      ub = b.createOrFold<arith::MaxSIOp>(loc, hi[0], hi[1]);
    } else {
      lb = lowerAffineLowerBound(loop, b);
      ub = lowerAffineUpperBound(loop, b);
    }
    Value step = b.create<arith::ConstantIndexOp>(loc, loop.getStepAsInt());
    // Folded for a loop from 0 by 1: the host computes `n`, not `(n - 0) /
    // 1` with its rounding up.
    Value trip =
        roundUpDivide(b, loc, b.createOrFold<arith::SubIOp>(loc, ub, lb),
                      loop.getStepAsInt());
    Value width = b.create<arith::ConstantIndexOp>(loc, shape[dims[k]]);
    lbs.push_back(lb);
    steps.push_back(step);
    trips.push_back(trip);
    firsts.push_back(lb);
    bool usedByTriangle = llvm::any_of(band, [&](affine::AffineForOp other) {
      return llvm::is_contained(other->getOperands(), loop.getInductionVar());
    });
    lasts.push_back(
        usedByTriangle
            ? b.createOrFold<arith::AddIOp>(
                  loc, lb,
                  b.createOrFold<arith::MulIOp>(
                      loc, b.createOrFold<arith::SubIOp>(loc, trip, one), step))
            : Value());
    blocks.push_back(roundUpDivide(b, loc, trip, shape[dims[k]]));
    threads.push_back(width);
    zeros.push_back(zero);
    ones.push_back(one);
  }

  // Scalars declared in the region that only this nest uses: one per thread.
  SmallVector<memref::AllocaOp> scalars;
  outer->getParentOfType<func::FuncOp>().walk([&](memref::AllocaOp alloca) {
    if (alloca.getType().getRank() == 0 && !outer->isAncestor(alloca) &&
        llvm::none_of(accumulators,
                      [&](Accumulator &a) { return a.own == alloca; }) &&
        llvm::all_of(alloca->getUsers(),
                     [&](Operation *u) { return outer->isAncestor(u); }))
      scalars.push_back(alloca);
  });

  // A nest that combines reductions into few elements launches at most
  // gridBlocks blocks (gpu-select-nests' choice): beyond them, each thread
  // runs every (blocks along d * D)-th iteration along a dimension d, a
  // grid-stride loop, so that fewer blocks add their results atomically.
  // Along x where it may, else along y or z (a column reduction's rows):
  // not along a loop whose iterator the bounds of a loop of the band or an
  // element's subscripts use, nor where gpu-stage-tiles will stage the loop
  // the threads run.
  auto countsFromZero = [&](unsigned k) {
    return getConstantIntValue(lbs[k]) == 0 &&
           getConstantIntValue(steps[k]) == 1;
  };
  auto mayStride = [&](unsigned k) {
    Value iterator = band[k].getInductionVar();
    return llvm::none_of(band,
                         [&](affine::AffineForOp loop) {
                           return llvm::is_contained(loop->getOperands(),
                                                     iterator);
                         }) &&
           llvm::none_of(accumulators, [&](const Accumulator &a) {
             return llvm::is_contained(a.operands, iterator);
           });
  };
  auto most = outer->getAttrOfType<IntegerAttr>(
      WeftDialect::getGpuGridBlocksAttrName());
  int stride = -1;
  if (most && most.getInt() > 0 && !accumulators.empty() &&
      llvm::all_of(tiles, [](auto &shape) { return shape.empty(); }))
    for (unsigned d = 0; d < loops && stride < 0; ++d) {
      unsigned k = llvm::find(dims, d) - dims.begin();
      if (mayStride(k))
        stride = k;
    }
  if (stride >= 0) {
    // The blocks along it: as many as the others leave of `most`, at least
    // one (`max(1, most / max(1, others))`, folded for a 1-D grid).
    Value others = one;
    for (unsigned k = 0; k < loops; ++k)
      if (int(k) != stride)
        others = others == one
                     ? blocks[k]
                     : b.createOrFold<arith::MulIOp>(loc, others, blocks[k]);
    Value mostBlocks = b.create<arith::ConstantIndexOp>(loc, most.getInt());
    Value share = b.createOrFold<arith::DivSIOp>(
        loc, mostBlocks, b.createOrFold<arith::MaxSIOp>(loc, one, others));
    Value cap = b.createOrFold<arith::MaxSIOp>(loc, one, share);
    blocks[stride] = b.createOrFold<arith::MinSIOp>(loc, blocks[stride], cap);
  }
  // `j_blocks` in the host code, where the source names the iterator: the
  // count the launch and a grid-stride loop (`j += j_blocks * 32`) read,
  // capped where the loop strides; a constant where the sizes are.
  for (unsigned k = 0; k < loops; ++k) {
    StringRef iterator = sourceName(band[k].getInductionVar());
    Operation *count = blocks[k].getDefiningOp();
    if (count && blocks[k] != trips[k] &&
        isa<arith::DivSIOp, arith::MinSIOp>(count) && isCIdentifier(iterator))
      count->setLoc(withSourceName(loc, (iterator + "_blocks").str()));
  }

  Block *target = nullptr;
  SmallVector<Value> ivs(loops);
  auto gridLoop = b.create<scf::ParallelOp>(
      loc, zeros, blocks, ones,
      [&](OpBuilder &gb, Location, ValueRange blockIds) {
        auto blockLoop = gb.create<scf::ParallelOp>(
            loc, zeros, threads, ones,
            [&](OpBuilder &tb, Location, ValueRange threadIds) {
              // Whether the thread has an iteration of each loop (the
              // conditions to combine), and of all of them.
              SmallVector<SmallVector<Value, 2>, 3> inRange(loops);
              Value inside;
              auto also = [&](OpBuilder &at, Value condition) {
                inside = inside
                             ? at.create<arith::AndIOp>(loc, inside, condition)
                             : condition;
              };
              // Iteration `index` of loop k; whether there is one, unless a
              // loop runs the thread's iterations.
              auto iterationOf = [&](OpBuilder &at, unsigned k, Value index,
                                     bool inLoop) {
                Location iterator = band[k].getInductionVar().getLoc();
                ivs[k] = at.create<arith::AddIOp>(
                    iterator, lbs[k],
                    at.create<arith::MulIOp>(loc, index, steps[k]));
                if (!inLoop) {
                  Value below = at.create<arith::CmpIOp>(
                      loc, arith::CmpIPredicate::slt, index, trips[k]);
                  also(at, below);
                  inRange[k].push_back(below);
                }
                if (!triangle[k])
                  return;
                // Inside the triangle: the loop's own bounds at this
                // thread's iteration of the outer loops.
                Value lo = boundAt(at, band[k].getLowerBoundMap(),
                                   band[k].getLowerBoundOperands(), ivs);
                Value hi = boundAt(at, band[k].getUpperBoundMap(),
                                   band[k].getUpperBoundOperands(), ivs);
                // One statement per op: the order of arguments' evaluation
                // would otherwise decide the order of the ops.
                Value above = at.create<arith::CmpIOp>(
                    loc, arith::CmpIPredicate::sge, ivs[k], lo);
                Value below = at.create<arith::CmpIOp>(
                    loc, arith::CmpIPredicate::slt, ivs[k], hi);
                Value within = at.create<arith::AndIOp>(loc, above, below);
                also(at, within);
                inRange[k].push_back(within);
              };
              // The thread's first iteration (b * T + t) of loop k. The
              // iterator's value is named as the source's; so is the index
              // where it is the iterator (a loop from 0 by 1).
              auto firstIndex = [&](unsigned k) -> Value {
                return tb.create<arith::AddIOp>(
                    countsFromZero(k) ? band[k].getInductionVar().getLoc()
                                      : loc,
                    tb.create<arith::MulIOp>(loc, blockIds[k], threads[k]),
                    threadIds[k]);
              };
              for (unsigned k = 0; k < loops; ++k)
                if (int(k) != stride)
                  iterationOf(tb, k, firstIndex(k), /*inLoop=*/false);
              // Each thread's accumulators start at the identity; after the
              // thread's iterations it adds each to its element atomically
              // (every thread of the block: gpu-reduce-blocks combines them).
              for (Accumulator &a : accumulators) {
                a.own->moveBefore(tb.getInsertionBlock(),
                                  tb.getInsertionPoint());
                tb.create<memref::StoreOp>(
                    loc,
                    identity(tb, loc, a.kind, a.own.getType().getElementType()),
                    a.own, ValueRange{});
              }
              {
                OpBuilder::InsertionGuard g(tb);
                if (stride >= 0) {
                  // The other loops' conditions hold for every iteration
                  // of the thread's loop: tested once, around it.
                  if (inside) {
                    tb.setInsertionPoint(
                        tb.create<scf::IfOp>(loc, inside, /*withElse=*/false)
                            .thenBlock()
                            ->getTerminator());
                    inside = Value();
                  }
                  // One statement each: the order of the ops is the
                  // output's, whatever the C++ compiler's order of
                  // arguments.
                  Value gridWidth = tb.createOrFold<arith::MulIOp>(
                      loc, blocks[stride], threads[stride]);
                  Value first = firstIndex(stride);
                  // A loop by 1 that does not start at 0 runs over its
                  // iterator itself, from lb + b * T + t to the source's
                  // bound (`i < n - 1`, computed in the kernel).
                  affine::AffineForOp source = band[stride];
                  bool overIterator =
                      !countsFromZero(stride) &&
                      getConstantIntValue(steps[stride]) == 1 &&
                      !triangle[stride] &&
                      source.getUpperBoundMap().getNumResults() == 1;
                  Value start = first, end = trips[stride];
                  if (overIterator) {
                    start = tb.create<arith::AddIOp>(loc, lbs[stride], first);
                    end = boundAt(tb, source.getUpperBoundMap(),
                                  source.getUpperBoundOperands(), ivs);
                  }
                  auto each = tb.create<scf::ForOp>(loc, start, end, gridWidth);
                  if (countsFromZero(stride) || overIterator)
                    each.getInductionVar().setLoc(
                        band[stride].getInductionVar().getLoc());
                  tb.setInsertionPointToStart(each.getBody());
                  if (overIterator)
                    ivs[stride] = each.getInductionVar();
                  else
                    iterationOf(tb, stride, each.getInductionVar(),
                                /*inLoop=*/true);
                  target = each.getBody();
                }
                if (inside)
                  target = tb.create<scf::IfOp>(loc, inside, /*withElse=*/false)
                               .thenBlock();
              }
              for (Accumulator &a : accumulators) {
                Value partial =
                    tb.create<memref::LoadOp>(loc, a.own, ValueRange{});
                // An element that differs between threads (a row
                // reduction's) exists where the thread has an iteration of
                // the loops it uses.
                OpBuilder::InsertionGuard g(tb);
                Value exists;
                for (unsigned k = 0; k < loops; ++k) {
                  if (!llvm::is_contained(a.operands,
                                          band[k].getInductionVar()))
                    continue;
                  for (Value c : inRange[k])
                    exists =
                        exists ? tb.create<arith::AndIOp>(loc, exists, c) : c;
                }
                if (exists)
                  tb.setInsertionPoint(
                      tb.create<scf::IfOp>(loc, exists, /*withElse=*/false)
                          .thenBlock()
                          ->getTerminator());
                auto indices =
                    affine::expandAffineMap(tb, loc, a.map, a.operands);
                auto atomic = tb.create<memref::AtomicRMWOp>(
                    loc, atomicKind(a.kind, partial.getType()), partial,
                    a.memref, *indices);
                atomic->setAttr(WeftDialect::getGpuReduceAttrName(),
                                tb.getStringAttr(a.kind));
              }
              tb.create<scf::ReduceOp>(loc);
            });
        SmallVector<gpu::ParallelLoopDimMappingAttr> mapping;
        for (unsigned k = 0; k < loops; ++k)
          mapping.push_back(gpu::ParallelLoopDimMappingAttr::get(
              gb.getContext(), processor(dims[k], /*thread=*/true),
              gb.getDimIdentityMap(), gb.getDimIdentityMap()));
        (void)gpu::setMappingAttr(blockLoop, mapping);
        gb.create<scf::ReduceOp>(loc);
      });
  SmallVector<gpu::ParallelLoopDimMappingAttr> mapping;
  for (unsigned k = 0; k < loops; ++k)
    mapping.push_back(gpu::ParallelLoopDimMappingAttr::get(
        b.getContext(), processor(dims[k], /*thread=*/false),
        b.getDimIdentityMap(), b.getDimIdentityMap()));
  (void)gpu::setMappingAttr(gridLoop, mapping);

  target->getOperations().splice(target->getTerminator()->getIterator(),
                                 body->getOperations(), body->begin(),
                                 std::prev(body->end()));
  for (auto [loop, iv] : llvm::zip(band, ivs))
    loop.getInductionVar().replaceAllUsesWith(iv);
  for (memref::AllocaOp alloca : scalars)
    alloca->moveBefore(target, target->begin());
  outer.erase();
  return success();
}

namespace {
struct GpuMapLoops : weft::impl::GpuMapLoopsBase<GpuMapLoops> {
  using Base::Base;
  void runOnOperation() override {
    SmallVector<affine::AffineForOp> nests;
    getOperation().walk([&](affine::AffineForOp loop) {
      if (loop->hasAttr(kGpuBandAttr))
        nests.push_back(loop);
    });
    for (affine::AffineForOp nest : nests)
      if (failed(mapNest(nest)))
        return signalPassFailure();
  }
};
} // end anonymous namespace
