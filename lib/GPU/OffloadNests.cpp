//===- OffloadNests.cpp - Device nests of distributed regions -------------===//
//
// Implements gpu-offload-nests: each loop nest that is a static control part
// on its own is outlined into a function, where gpu-select-nests and
// gpu-place-data run, and inlined back.
//
//===----------------------------------------------------------------------===//
#include "weft/GPU/Passes.h"

#include "DeviceNests.h"

#include "weft/Partition/Passes.h"
#include "weft/Support/SourceNames.h"

#include "dialects/Dist/IR/DistDialect.h"
#include "dialects/Dist/IR/DistOps.h"

#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/IR/IRMapping.h"
#include "llvm/ADT/SetVector.h"

namespace weft {
#define GEN_PASS_DEF_GPUOFFLOADNESTS
#include "weft/GPU/Passes.h.inc"
} // namespace weft

using namespace mlir;
using namespace weft;

/// The first operation in `loop` that the polyhedral model does not
/// describe (a message, a rank query, a call, a heap allocation), or null
/// when the loop holds only affine loops, conditions, loads and stores,
/// arithmetic and scalar allocations.
static Operation *unmodelledOp(affine::AffineForOp loop) {
  Operation *found = nullptr;
  loop.walk([&](Operation *op) {
    bool modelled =
        isa<affine::AffineForOp, affine::AffineIfOp, affine::AffineYieldOp,
            affine::AffineLoadOp, affine::AffineStoreOp, affine::AffineApplyOp,
            affine::AffineMinOp, affine::AffineMaxOp>(op) ||
        // C's `?:` (the model builder says where it cannot describe one).
        isa<scf::IfOp, scf::YieldOp>(op) ||
        isa<arith::ArithDialect, math::MathDialect>(op->getDialect()) ||
        (isa<memref::AllocaOp>(op) &&
         cast<memref::AllocaOp>(op).getType().getRank() == 0);
    if (modelled)
      return WalkResult::advance();
    found = op;
    return WalkResult::interrupt();
  });
  return found;
}

/// The bounds of the first rank's block at `ranks` ranks for the values of
/// `captured` that dist.local_bounds gives (block distributions), the
/// global range's bounds at `sizes` (an upper bound that uses a size no
/// entry names: the lower plus the nominal size): the sizes the cost model
/// predicts the outlined nest at.
static void planBlocks(ArrayRef<Value> captured, Block *entry, unsigned ranks,
                       const cost::NominalSizes &sizes,
                       DenseMap<Value, int64_t> &planned) {
  for (auto [k, v] : llvm::enumerate(captured)) {
    auto bounds = v.getDefiningOp<dist::LocalBoundsOp>();
    if (!bounds ||
        bounds.getDistribution().getKind() != dist::DistKind::Block ||
        cast<OpResult>(v).getResultNumber() > 1)
      continue;
    int64_t lb = nominalValue(bounds.getLowerBound(), sizes).value_or(0);
    int64_t ub = nominalValue(bounds.getUpperBound(), sizes)
                     .value_or(lb + sizes.fallback);
    int64_t size = llvm::divideCeil(std::max<int64_t>(ub - lb, 0), ranks);
    planned[entry->getArgument(k)] =
        cast<OpResult>(v).getResultNumber() == 0 ? lb : lb + size;
  }
}

/// Runs the device passes on `nest` alone, outlined into a function; puts
/// the result back in its place.
static LogicalResult offloadNest(affine::AffineForOp nest, func::FuncOp parent,
                                 bool report, unsigned long maxIslOperations,
                                 const DeviceChoice &choice, unsigned ranks) {
  // What the nest uses from outside becomes the outlined function's
  // arguments; a host array's extents come along, for its device buffer.
  llvm::SetVector<Value> captured;
  auto capture = [&](Value v) {
    if (!nest->isAncestor(v.getParentRegion()->getParentOp()))
      captured.insert(v);
  };
  nest.walk([&](Operation *op) {
    for (Value v : op->getOperands())
      capture(v);
  });
  for (Value v : captured.takeVector()) {
    captured.insert(v);
    auto arg = dyn_cast<BlockArgument>(v);
    if (!arg || arg.getOwner() != &parent.getBody().front())
      continue;
    if (auto dims = parent.getArgAttrOfType<DenseI64ArrayAttr>(
            arg.getArgNumber(), WeftDialect::getDimArgsAttrName()))
      for (int64_t d : dims.asArrayRef())
        if (d >= 0)
          captured.insert(parent.getArgument(d));
  }
  Location loc = nest.getLoc();
  OpBuilder b(nest.getContext());
  OwningOpRef<ModuleOp> scratch = ModuleOp::create(loc);
  b.setInsertionPointToEnd(scratch->getBody());
  SmallVector<Type> types;
  for (Value v : captured)
    types.push_back(v.getType());
  auto outlined = b.create<func::FuncOp>(loc, parent.getName(),
                                         b.getFunctionType(types, {}));
  Block *entry = outlined.addEntryBlock();
  IRMapping in;
  for (auto [k, v] : llvm::enumerate(captured)) {
    in.map(v, entry->getArgument(k));
    // A scalar's source name (`n`, through its casts), which the remarks
    // show and `--size` gives a value.
    if (StringRef name = scalarName(v); !name.empty())
      entry->getArgument(k).setLoc(withSourceName(v.getLoc(), name));
    // The source names (remarks) and extents (buffers) of host arrays.
    auto arg = dyn_cast<BlockArgument>(v);
    if (!arg || arg.getOwner() != &parent.getBody().front())
      continue;
    if (auto name = parent.getArgAttr(arg.getArgNumber(),
                                      WeftDialect::getCArgAttrName()))
      outlined.setArgAttr(k, WeftDialect::getCArgAttrName(), name);
    if (auto dims = parent.getArgAttrOfType<DenseI64ArrayAttr>(
            arg.getArgNumber(), WeftDialect::getDimArgsAttrName())) {
      SmallVector<int64_t> mapped;
      for (int64_t d : dims.asArrayRef()) {
        auto it = d < 0 ? captured.end()
                        : llvm::find(captured, Value(parent.getArgument(d)));
        mapped.push_back(it == captured.end() ? -1 : it - captured.begin());
      }
      outlined.setArgAttr(k, WeftDialect::getDimArgsAttrName(),
                          b.getDenseI64ArrayAttr(mapped));
    }
  }
  b.setInsertionPointToStart(entry);
  b.clone(*nest, in);
  b.create<func::ReturnOp>(loc);

  DeviceChoice blockChoice = choice;
  planBlocks(captured.getArrayRef(), entry, ranks, choice.sizes,
             blockChoice.plannedSizes);
  if (!blockChoice.plannedSizes.empty())
    blockChoice.plannedRanks = ranks;
  // The nest goes back transformed only when part of it runs on the device.
  exposeParallelBands(outlined, report, maxIslOperations,
                      choice.splitFpReductions);
  if (failed(
          selectDeviceNests(outlined, report, maxIslOperations, blockChoice)))
    return failure();
  placeDeviceData(outlined, report, maxIslOperations, /*resident=*/true);
  bool onDevice = outlined
                      .walk([](affine::AffineForOp loop) {
                        return loop->hasAttr(kGpuBandAttr)
                                   ? WalkResult::interrupt()
                                   : WalkResult::advance();
                      })
                      .wasInterrupted();
  if (!onDevice)
    return success();
  // gpu-place-data replaced the body (it works on a copy): its block now.
  Block &placed = outlined.getBody().front();
  IRMapping back;
  for (auto [k, v] : llvm::enumerate(captured))
    back.map(placed.getArgument(k), v);
  b.setInsertionPoint(nest);
  for (Operation &op : placed.without_terminator())
    b.clone(op, back);
  nest.erase();
  return success();
}

namespace {
struct GpuOffloadNests : weft::impl::GpuOffloadNestsBase<GpuOffloadNests> {
  using Base::Base;
  void runOnOperation() override {
    FailureOr<DeviceChoice> choice = DeviceChoice::get(
        getOperation(), gpu, cpu, gpuChoice, nominalSize, sizes, registerTile);
    if (failed(choice))
      return signalPassFailure();
    choice->splitFpReductions = splitFpReductions;
    for (func::FuncOp func : getOperation().getOps<func::FuncOp>()) {
      // The sequential form of a checked region runs where arguments
      // overlap (separate device buffers would break that) or on one rank.
      if (func.isExternal() || !isDistributable(func))
        continue;
      // A region the partitioner left whole is a static control part: its
      // data moves once, as with --target=cuda.
      bool distributed = func.walk([](Operation *op) {
                               return isa<dist::DistDialect>(op->getDialect())
                                          ? WalkResult::interrupt()
                                          : WalkResult::advance();
                             })
                             .wasInterrupted();
      if (!distributed) {
        exposeParallelBands(func, report, maxIslOperations,
                            choice->splitFpReductions);
        if (failed(selectDeviceNests(func, report, maxIslOperations, *choice)))
          return signalPassFailure();
        placeDeviceData(func, report, maxIslOperations);
        continue;
      }
      SmallVector<affine::AffineForOp> nests;
      if (failed(collect(func.getBody(), nests)))
        return signalPassFailure();
      for (affine::AffineForOp nest : nests)
        if (failed(offloadNest(nest, func, report, maxIslOperations, *choice,
                               ranks)))
          return signalPassFailure();
      markHostAccesses(func);
    }
  }
  /// The outermost loops in `region` that are static control parts; fails
  /// at a loop forced onto the device that is not.
  LogicalResult collect(Region &region,
                        SmallVectorImpl<affine::AffineForOp> &nests) {
    for (Block &block : region)
      for (Operation &op : block) {
        auto loop = dyn_cast<affine::AffineForOp>(op);
        if (loop) {
          Operation *unmodelled = unmodelledOp(loop);
          if (!unmodelled) {
            nests.push_back(loop);
            continue;
          }
          if (forcedPlacement(loop) == "device")
            return loop.emitError("'#pragma weft device': the loop cannot run "
                                  "on the device: it holds ")
                   << unmodelled->getName()
                   << ", which the polyhedral model does not describe";
          if (report)
            loop.emitRemark("stays on the host: it holds ")
                << unmodelled->getName()
                << ", which the polyhedral model does not describe; the loops "
                   "in it are candidates";
        }
        for (Region &inner : op.getRegions())
          if (failed(collect(inner, nests)))
            return failure();
      }
    return success();
  }
};
} // end anonymous namespace
