//===- StageTiles.cpp - Shared-memory tiles of a kernel's sequential loop -===//
//
// Implements gpu-stage-tiles: in an outlined kernel whose threads each run a
// sequential loop, the reads of that loop that a whole row or column of the
// block's threads share go through tiles in shared memory, loaded by all the
// threads of the block together (docs/cuda.md, "Shared-memory tiles").
//
//===----------------------------------------------------------------------===//
#include "weft/GPU/Passes.h"
#include "weft/Support/SourceNames.h"

#include "KernelLaunches.h"

#include "mlir/IR/IRMapping.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSet.h"

namespace weft {
#define GEN_PASS_DEF_GPUSTAGETILES
#include "weft/GPU/Passes.h.inc"
} // namespace weft

using namespace mlir;
using namespace weft;

namespace {

/// What a value of the kernel varies with, as a bit set; kOther: memory,
/// other loops, the z dimension, which the pass does not describe.
constexpr unsigned kThreadX = 1, kThreadY = 2, kBlockX = 4, kBlockY = 8,
                   kLoop = 16, kOther = 32;
constexpr unsigned kAlong[2] = {kThreadX | kBlockX, kThreadY | kBlockY};

/// CUDA's limit on the static `__shared__` memory of one block.
constexpr int64_t kStaticSharedBytes = 48 * 1024;

/// A read the tiles replace: its grid dimension (0: x, 1: y, -1: neither,
/// one row of the tile) and whether the tile's consecutive elements go
/// along the loop (the array's contiguous subscript follows the loop).
struct StagedRead {
  memref::LoadOp load;
  int dim;
  bool alongLoop;
  std::string name;
};

/// One kernel, its launch's block shape and the loop marked for tiles.
class KernelTiler {
public:
  KernelTiler(gpu::GPUFuncOp kernel, gpu::LaunchFuncOp launch, scf::ForOp loop,
              int64_t tile)
      : kernel(kernel), launch(launch), loop(loop), tile(tile) {}

  /// Tiles the loop, or says why not (the kernel is then unchanged).
  FailureOr<std::string> run(std::string &why);

private:
  unsigned varies(Value v);
  bool isAffine(Value v);
  std::string arrayName(Value memref);
  Value cloneFor(OpBuilder &b, Value v, IRMapping &map, int dim, Value row);
  LogicalResult findStructure(std::string &why);
  void findReads(std::string &why);
  std::string rewrite();

  gpu::GPUFuncOp kernel;
  gpu::LaunchFuncOp launch;
  scf::ForOp loop;
  int64_t tile;
  int64_t block[2] = {1, 1};
  scf::IfOp guard;
  SmallVector<Value> rowConditions[2], uniformConditions;
  SmallVector<Operation *> before, after, hoisted;
  SmallVector<StagedRead> reads;
  DenseMap<Value, unsigned> memo;
};

unsigned KernelTiler::varies(Value v) {
  if (v == loop.getInductionVar())
    return kLoop;
  auto known = memo.find(v);
  if (known != memo.end())
    return known->second;
  unsigned result = 0;
  if (auto arg = dyn_cast<BlockArgument>(v)) {
    result = arg.getOwner() == &kernel.front() ? 0 : kOther;
  } else {
    Operation *op = v.getDefiningOp();
    auto along = [](gpu::Dimension d, unsigned x, unsigned y) -> unsigned {
      return d == gpu::Dimension::x ? x : d == gpu::Dimension::y ? y : kOther;
    };
    if (auto id = dyn_cast<gpu::ThreadIdOp>(op))
      result = along(id.getDimension(), kThreadX, kThreadY);
    else if (auto id = dyn_cast<gpu::BlockIdOp>(op))
      result = along(id.getDimension(), kBlockX, kBlockY);
    else if (isa<gpu::BlockDimOp, gpu::GridDimOp>(op))
      result = 0;
    else if (!isMemoryEffectFree(op) || op->getNumRegions() != 0)
      result = kOther;
    else
      for (Value operand : op->getOperands())
        result |= varies(operand);
  }
  memo[v] = result;
  return result;
}

/// Sums and products by invariants of the loop's iterator and the thread
/// and block indices.
bool KernelTiler::isAffine(Value v) {
  unsigned what = varies(v);
  if (what == 0 || v == loop.getInductionVar())
    return true;
  Operation *op = v.getDefiningOp();
  if ((what & kOther) || !op)
    return false;
  if (isa<gpu::ThreadIdOp, gpu::BlockIdOp>(op))
    return true;
  if (isa<arith::AddIOp, arith::SubIOp>(op))
    return isAffine(op->getOperand(0)) && isAffine(op->getOperand(1));
  if (isa<arith::MulIOp>(op))
    return (varies(op->getOperand(0)) == 0 && isAffine(op->getOperand(1))) ||
           (varies(op->getOperand(1)) == 0 && isAffine(op->getOperand(0)));
  if (isa<arith::IndexCastOp, arith::IndexCastUIOp, arith::ExtSIOp>(op))
    return isAffine(op->getOperand(0));
  return false;
}

/// The source name of the host array behind a kernel argument: the region
/// function's argument its device buffer is copied from or to.
std::string KernelTiler::arrayName(Value memref) {
  return kernelArgumentName(launch, cast<BlockArgument>(memref));
}

/// `v` as computed by the thread whose index along `dim` is `row` (when
/// `dim` is 0 or 1), at the loop's iteration `map` maps its iterator to:
/// clones what depends on them or lies inside the guard.
Value KernelTiler::cloneFor(OpBuilder &b, Value v, IRMapping &map, int dim,
                            Value row) {
  if (Value mapped = map.lookupOrNull(v))
    return mapped;
  Operation *op = v.getDefiningOp();
  if (!op)
    return v;
  if (auto id = dyn_cast<gpu::ThreadIdOp>(op);
      id && dim >= 0 && id.getDimension() == gpu::Dimension(dim))
    return row;
  unsigned moved = kLoop | (dim >= 0 ? (dim == 0 ? kThreadX : kThreadY) : 0);
  if (!guard->isAncestor(op) && !(varies(v) & moved))
    return v;
  for (Value operand : op->getOperands())
    if (Value copy = cloneFor(b, operand, map, dim, row); copy != operand)
      map.map(operand, copy);
  Operation *copy = b.clone(*op, map);
  return copy->getResult(cast<OpResult>(v).getResultNumber());
}

/// The kernel as gpu-map-loops and the outlining leave it: the guard of the
/// threads inside the iteration space, around the statements of the nest,
/// one of which is the loop.
LogicalResult KernelTiler::findStructure(std::string &why) {
  auto blockSize = [&](Value v) {
    std::optional<int64_t> c = foldToConstant(v);
    return c ? *c : int64_t(0);
  };
  block[0] = blockSize(launch.getBlockSizeX());
  block[1] = blockSize(launch.getBlockSizeY());
  if (!block[0] || !block[1] || blockSize(launch.getBlockSizeZ()) != 1) {
    why = "its blocks are not 2-D blocks of a known shape";
    return failure();
  }
  guard = dyn_cast<scf::IfOp>(loop->getParentOp());
  if (!guard || guard->getParentOp() != kernel || guard.elseBlock() ||
      !isa_and_nonnull<gpu::ReturnOp>(guard->getNextNode())) {
    why = "it is not directly inside the guard of the kernel's threads";
    return failure();
  }
  if (loop.getNumResults() != 0 ||
      kernel.walk([](gpu::BarrierOp) { return WalkResult::interrupt(); })
          .wasInterrupted()) {
    why = "it carries values or the kernel synchronises already";
    return failure();
  }
  for (Value bound :
       {loop.getLowerBound(), loop.getUpperBound(), loop.getStep()})
    if (varies(bound) != 0) {
      why = "its bounds differ between threads";
      return failure();
    }
  // The guard's conditions along each dimension.
  SmallVector<Value> conditions{guard.getCondition()};
  while (!conditions.empty()) {
    Value c = conditions.pop_back_val();
    if (auto both = c.getDefiningOp<arith::AndIOp>()) {
      conditions.append({both.getLhs(), both.getRhs()});
      continue;
    }
    unsigned what = varies(c);
    if ((what & kOther) || ((what & kAlong[0]) && (what & kAlong[1]))) {
      why = "the guard of its threads mixes the grid's dimensions";
      return failure();
    }
    if (what & kAlong[0])
      rowConditions[0].push_back(c);
    else if (what & kAlong[1])
      rowConditions[1].push_back(c);
    else
      uniformConditions.push_back(c);
  }
  // The statements before and after the loop are split from it: what they
  // compute may not be used in it, except constants and scalars, which
  // move before the guard.
  Block *body = guard.thenBlock();
  for (Operation &op : body->without_terminator())
    if (&op != loop)
      (op.isBeforeInBlock(loop) ? before : after).push_back(&op);
  for (Operation *op : before) {
    bool escapes = llvm::any_of(op->getUsers(), [&](Operation *user) {
      return !llvm::is_contained(before, body->findAncestorOpInBlock(*user));
    });
    if (!escapes)
      continue;
    if (!isa<arith::ConstantOp, memref::AllocaOp>(op)) {
      why = "a value computed before it in each thread is used in it or after "
            "it";
      return failure();
    }
    hoisted.push_back(op);
  }
  return success();
}

/// The reads of the loop that a row or column of threads shares, in
/// program order, as many as fit in shared memory.
void KernelTiler::findReads(std::string &why) {
  SmallVector<std::string> reasons;
  int64_t bytes = 0;
  for (auto load : loop.getBody()->getOps<memref::LoadOp>()) {
    Value memref = load.getMemRef();
    auto arg = dyn_cast<BlockArgument>(memref);
    unsigned what = 0;
    for (Value index : load.getIndices())
      what |= varies(index);
    if (!arg || arg.getOwner() != &kernel.front() ||
        !load.getType().isIntOrFloat() ||
        ((what & kAlong[0]) && (what & kAlong[1])))
      continue; // not an array of C numbers, or no reuse between threads
    std::string name = arrayName(memref);
    if ((what & kOther) || !llvm::all_of(load.getIndices(), [&](Value i) {
          return isAffine(i);
        })) {
      reasons.push_back("the subscripts of a read of " + name +
                        " are not affine in the loop's and the thread's "
                        "indices");
      continue;
    }
    if (!(what & kLoop))
      continue; // the same element at every iteration
    if (llvm::any_of(memref.getUsers(),
                     [](Operation *u) { return !isa<memref::LoadOp>(u); })) {
      reasons.push_back(name + " is written in the kernel");
      continue;
    }
    int dim = what & kAlong[0] ? 0 : what & kAlong[1] ? 1 : -1;
    unsigned last = varies(load.getIndices().back());
    bool alongLoop = (last & kLoop) && !(last & (kAlong[0] | kAlong[1]));
    auto type = cast<MemRefType>(memref.getType());
    int64_t size = (dim >= 0 ? block[dim] : 1) * tile *
                   std::max<int64_t>(type.getElementTypeBitWidth() / 8, 1);
    if (bytes + size > kStaticSharedBytes) {
      reasons.push_back("the tile of " + name + " would exceed " +
                        std::to_string(kStaticSharedBytes) +
                        " bytes of shared memory");
      continue;
    }
    bytes += size;
    reads.push_back({load, dim, alongLoop, name});
  }
  if (reads.empty())
    why = reasons.empty() ? "no read in it is shared by a row or a column of "
                            "the block's threads"
                          : llvm::join(reasons, "; ");
  else if (!reasons.empty())
    why = "not staged: " + llvm::join(reasons, "; ");
}

std::string KernelTiler::rewrite() {
  Location loc = loop.getLoc();
  OpBuilder b(guard);
  for (Operation *op : hoisted)
    op->moveBefore(guard);
  auto constant = [&](int64_t v) -> Value {
    return b.create<arith::ConstantIndexOp>(loc, v);
  };
  IRMapping uniform;
  Value lb = cloneFor(b, loop.getLowerBound(), uniform, -1, {});
  Value ub = cloneFor(b, loop.getUpperBound(), uniform, -1, {});
  Value step = cloneFor(b, loop.getStep(), uniform, -1, {});
  Value inside = guard.getCondition();

  // The statements before the loop, in the guard of their own.
  if (before.size() > hoisted.size()) {
    auto first = b.create<scf::IfOp>(loc, inside, /*withElseRegion=*/false);
    for (Operation *op : before)
      if (!llvm::is_contained(hoisted, op))
        op->moveBefore(first.thenBlock()->getTerminator());
  }

  // One buffer per read: [T][rows] along x, [rows][T] otherwise.
  SmallVector<Value> buffers;
  auto workgroup =
      gpu::AddressSpaceAttr::get(b.getContext(), gpu::AddressSpace::Workgroup);
  SmallVector<std::string> staged;
  llvm::StringSet<> names;
  int64_t bytes = 0;
  for (StagedRead &read : reads) {
    int64_t rows = read.dim >= 0 ? block[read.dim] : 1;
    SmallVector<int64_t, 2> shape = read.dim == 0
                                        ? SmallVector<int64_t, 2>{tile, rows}
                                        : SmallVector<int64_t, 2>{rows, tile};
    Type element = read.load.getType();
    // The C name of the tile: the array's, where it has one.
    std::string name;
    if (isCIdentifier(read.name))
      name = read.name + "_tile";
    if (!name.empty() && !names.insert(name).second)
      name += "_" + std::to_string(buffers.size());
    buffers.push_back(kernel.addWorkgroupAttribution(
        MemRefType::get(shape, element, MemRefLayoutAttrInterface{}, workgroup),
        withSourceName(loc, name)));
    bytes += rows * tile *
             std::max<unsigned>(element.getIntOrFloatBitWidth() / 8, 1);
    staged.push_back(read.name + " (" + std::to_string(shape[0]) + " x " +
                     std::to_string(shape[1]) + ")");
  }
  auto tileIndex = [](const StagedRead &read, Value row, Value column) {
    return read.dim == 0 ? SmallVector<Value>{column, row}
                         : SmallVector<Value>{row, column};
  };

  Value threads = constant(block[0] * block[1]);
  Value linear = b.create<arith::AddIOp>(
      loc,
      b.create<arith::MulIOp>(loc,
                              b.create<gpu::ThreadIdOp>(loc, gpu::Dimension::y),
                              constant(block[0])),
      b.create<gpu::ThreadIdOp>(loc, gpu::Dimension::x));
  Value width = constant(tile);
  auto steps = b.create<scf::ForOp>(loc, lb, ub,
                                    b.create<arith::MulIOp>(loc, step, width));
  Value start = steps.getInductionVar();
  b.setInsertionPointToStart(steps.getBody());

  // Every thread of the block loads elements of each tile: those of the
  // rows inside the iteration space, at iterations before the loop's end.
  for (auto [read, buffer] : llvm::zip(reads, buffers)) {
    int64_t rows = read.dim >= 0 ? block[read.dim] : 1;
    auto fill =
        b.create<scf::ForOp>(loc, linear, constant(rows * tile), threads);
    OpBuilder::InsertionGuard g(b);
    b.setInsertionPointToStart(fill.getBody());
    Value e = fill.getInductionVar();
    Value fast = read.alongLoop ? width : constant(rows);
    Value slow = b.create<arith::DivUIOp>(loc, e, fast);
    Value rest = b.create<arith::RemUIOp>(loc, e, fast);
    Value row = read.alongLoop ? slow : rest;
    Value column = read.alongLoop ? rest : slow;
    Value k = b.create<arith::AddIOp>(
        loc, start, b.create<arith::MulIOp>(loc, column, step));
    IRMapping map;
    map.map(loop.getInductionVar(), k);
    Value valid =
        b.create<arith::CmpIOp>(loc, arith::CmpIPredicate::slt, k, ub);
    SmallVector<Value> conditions(uniformConditions);
    if (read.dim >= 0)
      llvm::append_range(conditions, rowConditions[read.dim]);
    for (Value c : conditions)
      valid = b.create<arith::AndIOp>(loc, valid,
                                      cloneFor(b, c, map, read.dim, row));
    auto load = b.create<scf::IfOp>(loc, valid, /*withElseRegion=*/false);
    b.setInsertionPoint(load.thenBlock()->getTerminator());
    SmallVector<Value> indices;
    for (Value index : read.load.getIndices())
      indices.push_back(cloneFor(b, index, map, read.dim, row));
    Value value = b.create<memref::LoadOp>(loc, read.load.getMemRef(), indices);
    b.create<memref::StoreOp>(loc, value, buffer, tileIndex(read, row, column));
  }
  b.create<gpu::BarrierOp>(loc);

  // The threads inside the iteration space run the tile's iterations.
  auto compute = b.create<scf::IfOp>(loc, inside, /*withElseRegion=*/false);
  b.create<gpu::BarrierOp>(loc);
  b.setInsertionPoint(compute.thenBlock()->getTerminator());
  Value left = b.create<arith::CeilDivSIOp>(
      loc, b.create<arith::SubIOp>(loc, ub, start), step);
  auto inner = b.create<scf::ForOp>(loc, constant(0),
                                    b.create<arith::MinSIOp>(loc, left, width),
                                    constant(1));
  b.setInsertionPointToStart(inner.getBody());
  Value column = inner.getInductionVar();
  Value k = b.create<arith::AddIOp>(loc, start,
                                    b.create<arith::MulIOp>(loc, column, step));
  Block *body = loop.getBody();
  inner.getBody()->getOperations().splice(std::prev(inner.getBody()->end()),
                                          body->getOperations(), body->begin(),
                                          std::prev(body->end()));
  loop.getInductionVar().replaceAllUsesWith(k);
  for (auto [read, buffer] : llvm::zip(reads, buffers)) {
    b.setInsertionPoint(read.load);
    Value row = read.dim >= 0
                    ? b.create<gpu::ThreadIdOp>(loc, gpu::Dimension(read.dim))
                          .getResult()
                    : constant(0);
    read.load.replaceAllUsesWith(
        b.create<memref::LoadOp>(loc, buffer, tileIndex(read, row, column))
            .getResult());
    read.load.erase();
  }

  // The statements after the loop.
  if (!after.empty()) {
    b.setInsertionPointAfter(steps);
    auto last = b.create<scf::IfOp>(loc, inside, /*withElseRegion=*/false);
    for (Operation *op : after)
      op->moveBefore(last.thenBlock()->getTerminator());
  }
  guard.erase();
  return "tiled by " + std::to_string(tile) + " in shared memory: the " +
         std::to_string(block[0]) + " x " + std::to_string(block[1]) +
         " threads of a block stage " + llvm::join(staged, " and ") +
         " at each step, " + std::to_string(bytes) + " bytes";
}

FailureOr<std::string> KernelTiler::run(std::string &why) {
  if (failed(findStructure(why)))
    return failure();
  findReads(why);
  if (reads.empty())
    return failure();
  return rewrite();
}

struct GpuStageTiles : weft::impl::GpuStageTilesBase<GpuStageTiles> {
  using Base::Base;
  void runOnOperation() override {
    ModuleOp module = getOperation();
    DenseMap<Operation *, SmallVector<gpu::LaunchFuncOp>> launches =
        launchesByKernel(module);
    SmallVector<scf::ForOp> loops;
    module.walk([&](scf::ForOp loop) {
      if (loop->hasAttr(WeftDialect::getGpuTileAttrName()))
        loops.push_back(loop);
    });
    for (scf::ForOp loop : loops) {
      auto tile =
          loop->getAttrOfType<IntegerAttr>(WeftDialect::getGpuTileAttrName());
      loop->removeAttr(WeftDialect::getGpuTileAttrName());
      auto kernel = loop->getParentOfType<gpu::GPUFuncOp>();
      if (!kernel || tile.getInt() < 1)
        continue;
      Location loc = loop.getLoc(); // the loop goes when it is tiled
      std::string why;
      FailureOr<std::string> done = failure();
      auto found = launches.find(kernel);
      if (found == launches.end() || found->second.size() != 1)
        why = "its kernel is not launched exactly once";
      else
        done = KernelTiler(kernel, found->second.front(), loop, tile.getInt())
                   .run(why);
      if (!report)
        continue;
      if (succeeded(done))
        emitRemark(loc) << "the loop is " << *done << (why.empty() ? "" : "; ")
                        << why;
      else
        emitRemark(loc) << "the loop is not tiled: " << why;
    }
  }
};
} // end anonymous namespace
