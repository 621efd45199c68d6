//===- ReduceBlocks.cpp - A block's partial results combined first --------===//
//
// Implements gpu-reduce-blocks: the threads of a block (or of each row or
// column of it, for a row or column reduction) combine their partial
// results of a reduction, through warp shuffles (and shared memory between
// warps) or, for a column and for types a shuffle cannot move, a tree in
// shared memory; one thread then updates the element atomically, instead of
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
  /// every thread of the block, or of each of its rows along x or columns
  /// along y, reaches it with the same element.
  void run(memref::AtomicRMWOp atomic);

private:
  int64_t threads() const { return block[0] * block[1] * block[2]; }
  Value combineInWarps(OpBuilder &b, memref::AtomicRMWOp atomic, Value thread,
                       int64_t group, function_ref<Value(int64_t)> sharedArray);
  Value combineInSharedMemory(OpBuilder &b, memref::AtomicRMWOp atomic,
                              Value thread, Value lane, int64_t group,
                              int64_t pitch, Value partials);
  /// The thread dimensions of the block along which `v` may differ (bit d:
  /// dimension d).
  unsigned variesAlong(Value v);
  std::string arrayName(Value memref);
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

/// Threads of a warp, on every CUDA GPU so far.
static constexpr int64_t kWarpSize = 32;

static Value indexConstant(OpBuilder &b, Location loc, int64_t c) {
  return b.create<arith::ConstantIndexOp>(loc, c);
}

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

/// The name of the array the launch passes as `memref`, or "".
std::string BlockReducer::arrayName(Value memref) {
  if (auto arg = dyn_cast<BlockArgument>(memref)) {
    std::string array = kernelArgumentName(launch, arg);
    if (isCIdentifier(array))
      return array;
  }
  return "";
}

/// `<array>_partials`, after the array the launch passes, unique in the
/// kernel.
std::string BlockReducer::bufferName(Value memref) {
  std::string array = arrayName(memref);
  std::string base = array.empty() ? "partials" : array + "_partials";
  std::string name = base;
  for (unsigned k = 1; !names.insert(name).second; ++k)
    name = base + "_" + std::to_string(k);
  return name;
}

void BlockReducer::run(memref::AtomicRMWOp atomic) {
  int64_t threads = this->threads();
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
  // the update with one element; or each row along x (each column along
  // y), where the update sits in a condition (gpu-map-loops': the element
  // exists) and neither the condition nor the element differs along x
  // (along y): a row (column) reduction.
  enum { Block, Rows, Columns } groups;
  scf::IfOp exists = dyn_cast<scf::IfOp>(atomic->getParentOp());
  auto groupedAlong = [&](unsigned d) {
    return exists && exists->getBlock() == &kernel.front() &&
           exists.getElseRegion().empty() && block[d] > 1 &&
           llvm::isPowerOf2_64(block[d]) && !(element & (1u << d)) &&
           !(variesAlong(exists.getCondition()) & (1u << d)) &&
           // The partial result is computed before the condition.
           !exists->isAncestor(
               atomic.getValue().getParentBlock()->getParentOp());
  };
  if (atomic->getBlock() == &kernel.front() && element == 0)
    groups = Block;
  else if (groupedAlong(0))
    groups = Rows;
  else if (groupedAlong(1))
    groups = Columns;
  else
    return;
  Operation *at = groups == Block ? atomic.getOperation() : exists;
  Location loc = atomic.getLoc();
  OpBuilder b(at);
  auto constant = [&](int64_t c) { return indexConstant(b, loc, c); };

  // Thread (x, y, z) of the block is thread x + X * (y + Y * z) in order:
  // the hardware's, which makes warps of 32 consecutive threads.
  Value thread, x, y;
  for (int d = 2; d >= 0; --d) {
    if (block[d] == 1)
      continue;
    Value id = b.create<gpu::ThreadIdOp>(loc, gpu::Dimension(d));
    if (d == 0)
      x = id;
    else if (d == 1)
      y = id;
    if (!thread) {
      thread = id;
      continue;
    }
    Value scaled = b.create<arith::MulIOp>(loc, thread, constant(block[d]));
    thread = b.create<arith::AddIOp>(withSourceName(loc, "thread"), scaled, id);
  }
  // The threads that combine, this thread's place among them, and how far
  // apart they are in the block's order.
  int64_t group = groups == Rows      ? block[0]
                  : groups == Columns ? block[1]
                                      : threads;
  Value lane = groups == Rows ? x : groups == Columns ? y : thread;
  int64_t pitch = groups == Columns ? block[0] : 1;
  auto workgroup =
      gpu::AddressSpaceAttr::get(b.getContext(), gpu::AddressSpace::Workgroup);
  auto sharedArray = [&](int64_t size) {
    return kernel.addWorkgroupAttribution(
        MemRefType::get({size}, atomic.getValue().getType(),
                        MemRefLayoutAttrInterface{}, workgroup),
        withSourceName(loc, bufferName(atomic.getMemref())));
  };
  Value result;
  if (combinesInWarps(atomic.getValue().getType(), threads, groups == Columns))
    result = combineInWarps(b, atomic, thread, group, sharedArray);
  else
    result = combineInSharedMemory(b, atomic, thread, lane, group, pitch,
                                   sharedArray(threads));

  // The first thread of the group adds the group's result.
  Value first =
      b.create<arith::CmpIOp>(loc, arith::CmpIPredicate::eq, lane, constant(0));
  if (groups != Block) {
    exists.getConditionMutable().assign(
        b.create<arith::AndIOp>(loc, exists.getCondition(), first));
  } else {
    exists = b.create<scf::IfOp>(loc, first, /*withElseRegion=*/false);
    atomic->moveBefore(exists.thenBlock()->getTerminator());
  }
  atomic.getValueMutable().assign(result);
}

/// Combines with `op` along the lanes of each warp: after the steps, each
/// lane whose index is a multiple of `lanes` holds the result of it and the
/// `lanes - 1` after it (a lane reads from `offset` lanes on, in steps of
/// halving offsets). The values are named `<array>_partial`, what a lane
/// reads `<array>_shuffled`.
static Value combineLanes(OpBuilder &b, Location loc, arith::AtomicRMWKind op,
                          Value v, int64_t lanes, StringRef array) {
  Location partial = loc, shuffled = loc;
  if (!array.empty()) {
    partial = withSourceName(loc, (array + "_partial").str());
    shuffled = withSourceName(loc, (array + "_shuffled").str());
  }
  for (int64_t offset = lanes / 2; offset >= 1; offset /= 2) {
    auto other = b.create<gpu::ShuffleOp>(shuffled, v, offset, kWarpSize,
                                          gpu::ShuffleMode::DOWN);
    v = arith::getReductionOp(op, b, partial, v, other.getShuffleResult());
  }
  return v;
}

/// The result for each group of `group` threads (a power of two, aligned to
/// warps or within one), in the group's first thread, through warp shuffles:
/// the lanes of each warp combine in registers; where a group spans several
/// warps, each warp's first lane leaves its result in shared memory and, after
/// one barrier, the lanes of every warp combine the results of its group's
/// warps. No barrier where a group is at most a warp (a row of 32 threads).
Value BlockReducer::combineInWarps(OpBuilder &b, memref::AtomicRMWOp atomic,
                                   Value thread, int64_t group,
                                   function_ref<Value(int64_t)> sharedArray) {
  Location loc = atomic.getLoc();
  auto constant = [&](int64_t c) { return indexConstant(b, loc, c); };
  std::string array = arrayName(atomic.getMemref());
  Value v = combineLanes(b, loc, atomic.getKind(), atomic.getValue(),
                         std::min<int64_t>(group, kWarpSize), array);
  if (group <= kWarpSize)
    return v;
  int64_t warps = threads() / kWarpSize, warpsOfGroup = group / kWarpSize;
  Value warpResults = sharedArray(warps);
  // Thread indices are never negative: signed division prints plainly.
  Value warp = b.create<arith::DivSIOp>(withSourceName(loc, "warp"), thread,
                                        constant(kWarpSize));
  Value laneOfWarp = b.create<arith::RemSIOp>(withSourceName(loc, "lane"),
                                              thread, constant(kWarpSize));
  Value leads = b.create<arith::CmpIOp>(loc, arith::CmpIPredicate::eq,
                                        laneOfWarp, constant(0));
  auto store = b.create<scf::IfOp>(loc, leads, /*withElseRegion=*/false);
  {
    OpBuilder::InsertionGuard g(b);
    b.setInsertionPoint(store.thenBlock()->getTerminator());
    b.create<memref::StoreOp>(loc, v, warpResults, warp);
  }
  b.create<gpu::BarrierOp>(loc);
  // Lane l reads the result of its group's warp l (mod the group's warps:
  // only the first lanes' values reach the group's first lane).
  Value at =
      b.create<arith::AndIOp>(loc, laneOfWarp, constant(warpsOfGroup - 1));
  if (warpsOfGroup < warps) {
    Value groupIndex =
        b.create<arith::DivSIOp>(loc, warp, constant(warpsOfGroup));
    Value firstWarp =
        b.create<arith::MulIOp>(loc, groupIndex, constant(warpsOfGroup));
    at = b.create<arith::AddIOp>(loc, firstWarp, at);
  }
  Value fromWarps = b.create<memref::LoadOp>(
      array.empty() ? loc : withSourceName(loc, array + "_partial"),
      warpResults, at);
  return combineLanes(b, loc, atomic.getKind(), fromWarps, warpsOfGroup, array);
}

/// The result for each group of `group` threads, `pitch` apart in the
/// block's order, in the group's first thread, through a tree in shared
/// memory: each thread stores its partial result; then, for each half
/// from group / 2 down to 1, the first `half` threads of the group combine
/// their element with the one `half` threads after it, a barrier between
/// steps. The steps are unrolled (their count is the block's), and the last
/// needs no barrier: the first thread reads what it wrote itself.
Value BlockReducer::combineInSharedMemory(OpBuilder &b,
                                          memref::AtomicRMWOp atomic,
                                          Value thread, Value lane,
                                          int64_t group, int64_t pitch,
                                          Value partials) {
  Location loc = atomic.getLoc();
  auto constant = [&](int64_t c) { return indexConstant(b, loc, c); };
  std::string array = arrayName(atomic.getMemref());
  Location partial =
      array.empty() ? loc : withSourceName(loc, array + "_partial");
  b.create<memref::StoreOp>(loc, atomic.getValue(), partials, thread);
  for (int64_t half = group / 2; half >= 1; half /= 2) {
    b.create<gpu::BarrierOp>(loc);
    Value low = b.create<arith::CmpIOp>(loc, arith::CmpIPredicate::slt, lane,
                                        constant(half));
    auto lower = b.create<scf::IfOp>(loc, low, /*withElseRegion=*/false);
    OpBuilder::InsertionGuard g(b);
    b.setInsertionPoint(lower.thenBlock()->getTerminator());
    Value mine = b.create<memref::LoadOp>(loc, partials, thread);
    Value far = b.create<arith::AddIOp>(loc, thread, constant(half * pitch));
    Value other = b.create<memref::LoadOp>(loc, partials, far);
    b.create<memref::StoreOp>(
        loc, arith::getReductionOp(atomic.getKind(), b, loc, mine, other),
        partials, thread);
  }
  // The group's first element, after the steps (the load is the thread's
  // own; only the group's first thread uses it).
  return b.create<memref::LoadOp>(partial, partials, thread);
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
