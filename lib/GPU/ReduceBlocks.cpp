//===- ReduceBlocks.cpp - A block's partial results combined first --------===//
//
// Implements gpu-reduce-blocks: the threads of a block (or of each row of
// it, for a row reduction) combine their partial results of a reduction in
// shared memory, and one thread updates the element atomically, instead of
// every thread of the grid updating it one after another (docs/cuda.md,
// "Reductions").
//
//===----------------------------------------------------------------------===//
#include "weft/GPU/Passes.h"
#include "weft/Support/SourceNames.h"

#include "KernelLaunches.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/MathExtras.h"

namespace weft {
#define GEN_PASS_DEF_GPUREDUCEBLOCKS
#include "weft/GPU/Passes.h.inc"
} // namespace weft

using namespace mlir;
using namespace weft;

namespace {
/// The reductions of one kernel whose updates a block may combine first.
class BlockReducer {
public:
  BlockReducer(gpu::GPUFuncOp kernel, gpu::LaunchFuncOp launch,
               std::array<int64_t, 3> block)
      : kernel(kernel), launch(launch), block(block) {}
  /// Combines the block's partial results of `atomic` before it, where
  /// every thread of the block, or of each of its rows along x, reaches it
  /// with the same element.
  void run(memref::AtomicRMWOp atomic);

private:
  /// The thread dimensions of the block along which `v` may differ (bit d:
  /// dimension d).
  unsigned variesAlong(Value v);
  std::string bufferName(Value memref);

  gpu::GPUFuncOp kernel;
  gpu::LaunchFuncOp launch;
  std::array<int64_t, 3> block;
  DenseMap<Value, unsigned> memo;
  llvm::StringSet<> names;
};
} // end anonymous namespace

/// Every thread dimension.
static constexpr unsigned kAnyDims = 7;

/// A thread index differs along its dimension where the block is wider
/// than one thread; loads and values computed in loops or conditions may
/// differ along any; the kernel's arguments, constants and block indices
/// along none.
unsigned BlockReducer::variesAlong(Value v) {
  if (auto arg = dyn_cast<BlockArgument>(v))
    return arg.getOwner() == &kernel.front() ? 0 : kAnyDims;
  auto known = memo.find(v);
  if (known != memo.end())
    return known->second;
  Operation *op = v.getDefiningOp();
  unsigned dims = 0;
  if (auto id = dyn_cast<gpu::ThreadIdOp>(op)) {
    unsigned d = unsigned(id.getDimension());
    dims = block[d] > 1 ? 1u << d : 0;
  } else if (isa<gpu::LaneIdOp>(op) || !isMemoryEffectFree(op) ||
             op->getNumRegions() != 0) {
    dims = kAnyDims;
  } else if (!isa<gpu::BlockIdOp, gpu::BlockDimOp, gpu::GridDimOp>(op)) {
    for (Value operand : op->getOperands())
      dims |= variesAlong(operand);
  }
  memo[v] = dims;
  return dims;
}

/// `<array>_partials`, after the array the launch passes, unique in the
/// kernel.
std::string BlockReducer::bufferName(Value memref) {
  std::string base = "partials";
  if (auto arg = dyn_cast<BlockArgument>(memref)) {
    std::string array = kernelArgumentName(launch, arg);
    if (isCIdentifier(array))
      base = array + "_partials";
  }
  std::string name = base;
  for (unsigned k = 1; !names.insert(name).second; ++k)
    name = base + "_" + std::to_string(k);
  return name;
}

void BlockReducer::run(memref::AtomicRMWOp atomic) {
  int64_t threads = block[0] * block[1] * block[2];
  if (threads < 2 || !llvm::isPowerOf2_64(threads))
    return;
  using K = arith::AtomicRMWKind;
  if (!llvm::is_contained({K::addf, K::addi, K::mulf, K::muli, K::maxnumf,
                           K::minnumf, K::maxs, K::mins},
                          atomic.getKind()))
    return;
  unsigned element = variesAlong(atomic.getMemref());
  for (Value index : atomic.getIndices())
    element |= variesAlong(index);
  // The threads that combine: the whole block, where every thread reaches
  // the update with one element; or each row along x, where the update sits
  // in a condition (gpu-map-loops': the row's element exists) and neither
  // the condition nor the element differs along x (a row reduction).
  scf::IfOp exists = dyn_cast<scf::IfOp>(atomic->getParentOp());
  Operation *at = atomic;
  bool rows;
  if (atomic->getBlock() == &kernel.front() && element == 0) {
    rows = false;
  } else if (exists && exists->getBlock() == &kernel.front() &&
             exists.getElseRegion().empty() && block[0] > 1 && !(element & 1) &&
             !(variesAlong(exists.getCondition()) & 1) &&
             // The partial result is computed before the condition.
             !exists->isAncestor(
                 atomic.getValue().getParentBlock()->getParentOp())) {
    rows = true;
    at = exists;
  } else {
    return;
  }
  Location loc = atomic.getLoc();
  OpBuilder b(at);
  auto constant = [&](int64_t c) -> Value {
    return b.create<arith::ConstantIndexOp>(loc, c);
  };

  // One element per thread: thread (x, y, z) of the block holds element
  // x + X * (y + Y * z).
  auto workgroup =
      gpu::AddressSpaceAttr::get(b.getContext(), gpu::AddressSpace::Workgroup);
  Value partials = kernel.addWorkgroupAttribution(
      MemRefType::get({threads}, atomic.getValue().getType(),
                      MemRefLayoutAttrInterface{}, workgroup),
      withSourceName(loc, bufferName(atomic.getMemref())));
  Value thread, x;
  for (int d = 2; d >= 0; --d) {
    if (block[d] == 1)
      continue;
    Value id = b.create<gpu::ThreadIdOp>(loc, gpu::Dimension(d));
    if (d == 0)
      x = id;
    thread = thread ? b.create<arith::AddIOp>(
                          loc,
                          b.create<arith::MulIOp>(loc, thread,
                                                  constant(block[d])),
                          id)
                    : id;
  }
  // The threads that combine, and this thread's place among them.
  int64_t group = rows ? block[0] : threads;
  Value lane = rows ? x : thread;
  b.create<memref::StoreOp>(loc, atomic.getValue(), partials, thread);
  b.create<gpu::BarrierOp>(loc);

  // Step k: the first group / 2^(k+1) threads of the group combine their
  // element with the one as far after it.
  Value zero = constant(0);
  Value stepCount = constant(llvm::Log2_64(group));
  Value one = constant(1);
  auto steps = b.create<scf::ForOp>(loc, zero, stepCount, one);
  {
    OpBuilder::InsertionGuard g(b);
    b.setInsertionPointToStart(steps.getBody());
    Value half = b.create<arith::ShRUIOp>(loc, constant(group / 2),
                                          steps.getInductionVar());
    auto lower = b.create<scf::IfOp>(
        loc,
        b.create<arith::CmpIOp>(loc, arith::CmpIPredicate::ult, lane, half),
        /*withElseRegion=*/false);
    b.setInsertionPoint(lower.thenBlock()->getTerminator());
    Value mine = b.create<memref::LoadOp>(loc, partials, thread);
    Value other = b.create<memref::LoadOp>(
        loc, partials, ValueRange{b.create<arith::AddIOp>(loc, thread, half)});
    b.create<memref::StoreOp>(
        loc, arith::getReductionOp(atomic.getKind(), b, loc, mine, other),
        partials, thread);
    b.setInsertionPointAfter(lower);
    b.create<gpu::BarrierOp>(loc);
  }

  // The first thread of the group adds the group's result.
  Value first =
      b.create<arith::CmpIOp>(loc, arith::CmpIPredicate::eq, lane, constant(0));
  if (rows) {
    exists.getConditionMutable().assign(
        b.create<arith::AndIOp>(loc, exists.getCondition(), first));
  } else {
    exists = b.create<scf::IfOp>(loc, first, /*withElseRegion=*/false);
    atomic->moveBefore(exists.thenBlock()->getTerminator());
  }
  b.setInsertionPoint(atomic);
  atomic.getValueMutable().assign(
      b.create<memref::LoadOp>(loc, partials, rows ? thread : constant(0)));
}

namespace {
struct GpuReduceBlocks : weft::impl::GpuReduceBlocksBase<GpuReduceBlocks> {
  using Base::Base;
  void runOnOperation() override {
    DenseMap<Operation *, SmallVector<gpu::LaunchFuncOp>> launches =
        launchesByKernel(getOperation());
    getOperation().walk([&](gpu::GPUFuncOp kernel) {
      SmallVector<memref::AtomicRMWOp> atomics;
      kernel.walk([&](memref::AtomicRMWOp atomic) {
        if (atomic->hasAttr(WeftDialect::getGpuReduceAttrName()))
          atomics.push_back(atomic);
      });
      auto found = launches.find(kernel);
      if (atomics.empty() || found == launches.end())
        return;
      std::optional<std::array<int64_t, 3>> block =
          constantBlockShape(found->second);
      if (!block)
        return;
      BlockReducer reducer(kernel, found->second.front(), *block);
      for (memref::AtomicRMWOp atomic : atomics)
        reducer.run(atomic);
    });
  }
};
} // end anonymous namespace
