//===- ReduceBlocks.cpp - A block's partial results combined first --------===//
//
// Implements gpu-reduce-blocks: the threads of a block combine their partial
// results of a reduction in shared memory, and one thread updates the
// element atomically, instead of every thread of the grid updating it one
// after another (docs/cuda.md, "Reductions").
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
  /// every thread reaches it with the same element.
  void run(memref::AtomicRMWOp atomic);

private:
  bool variesInBlock(Value v);
  std::string bufferName(Value memref);

  gpu::GPUFuncOp kernel;
  gpu::LaunchFuncOp launch;
  std::array<int64_t, 3> block;
  DenseMap<Value, bool> memo;
  llvm::StringSet<> names;
};
} // end anonymous namespace

/// Thread indices, loads and values computed in loops or conditions may
/// differ between the threads of a block; the kernel's arguments, constants
/// and block indices may not.
bool BlockReducer::variesInBlock(Value v) {
  if (auto arg = dyn_cast<BlockArgument>(v))
    return arg.getOwner() != &kernel.front();
  auto known = memo.find(v);
  if (known != memo.end())
    return known->second;
  Operation *op = v.getDefiningOp();
  bool result;
  if (isa<gpu::ThreadIdOp, gpu::LaneIdOp>(op))
    result = true;
  else if (isa<gpu::BlockIdOp, gpu::BlockDimOp, gpu::GridDimOp>(op))
    result = false;
  else if (!isMemoryEffectFree(op) || op->getNumRegions() != 0)
    result = true;
  else
    result = llvm::any_of(op->getOperands(), [&](Value operand) {
      return variesInBlock(operand);
    });
  memo[v] = result;
  return result;
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
  if (threads < 2 || !llvm::isPowerOf2_64(threads) ||
      atomic->getBlock() != &kernel.front() ||
      variesInBlock(atomic.getMemref()) ||
      llvm::any_of(atomic.getIndices(),
                   [&](Value index) { return variesInBlock(index); }))
    return;
  using K = arith::AtomicRMWKind;
  if (!llvm::is_contained({K::addf, K::addi, K::mulf, K::muli, K::maxnumf,
                           K::minnumf, K::maxs, K::mins},
                          atomic.getKind()))
    return;
  Location loc = atomic.getLoc();
  OpBuilder b(atomic);
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
  Value thread;
  for (int d = 2; d >= 0; --d) {
    if (block[d] == 1)
      continue;
    Value id = b.create<gpu::ThreadIdOp>(loc, gpu::Dimension(d));
    thread = thread ? b.create<arith::AddIOp>(
                          loc,
                          b.create<arith::MulIOp>(loc, thread,
                                                  constant(block[d])),
                          id)
                    : id;
  }
  b.create<memref::StoreOp>(loc, atomic.getValue(), partials, thread);
  b.create<gpu::BarrierOp>(loc);

  // Step k: the first threads / 2^(k+1) threads combine their element
  // with the one as far after it.
  auto steps = b.create<scf::ForOp>(loc, constant(0),
                                    constant(llvm::Log2_64(threads)),
                                    constant(1));
  {
    OpBuilder::InsertionGuard g(b);
    b.setInsertionPointToStart(steps.getBody());
    Value half = b.create<arith::ShRUIOp>(loc, constant(threads / 2),
                                          steps.getInductionVar());
    auto lower = b.create<scf::IfOp>(
        loc,
        b.create<arith::CmpIOp>(loc, arith::CmpIPredicate::ult, thread, half),
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

  // Thread 0 adds the block's result.
  auto first = b.create<scf::IfOp>(
      loc,
      b.create<arith::CmpIOp>(loc, arith::CmpIPredicate::eq, thread,
                              constant(0)),
      /*withElseRegion=*/false);
  b.setInsertionPoint(first.thenBlock()->getTerminator());
  Value result = b.create<memref::LoadOp>(loc, partials, constant(0));
  auto update = b.create<memref::AtomicRMWOp>(loc, atomic.getKind(), result,
                                              atomic.getMemref(),
                                              atomic.getIndices());
  update->setAttrs(atomic->getAttrs());
  atomic.erase();
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
