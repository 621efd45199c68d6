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

/// The most elements one thread computes with register tiles: each is a
/// variable and a copy of the loop's body.
constexpr int64_t kMaxElementsPerThread = 64;

/// A read the tiles replace: its grid dimension (0: x, 1: y, -1: neither,
/// one row of the tile) and whether the tile's consecutive elements go
/// along the loop (the array's contiguous subscript follows the loop).
struct StagedRead {
  memref::LoadOp load;
  int dim;
  bool alongLoop;
  std::string name;
};

/// The thread and block indices a copy of the kernel's code sees instead
/// of its own (null: its own), along x and y.
struct Substitution {
  Value thread[2] = {}, block[2] = {};
};

/// An element the loop accumulates into: loaded and stored at the same
/// subscripts, which do not change along the loop.
struct Accumulator {
  Value memref;
  SmallVector<Value> indices;
};

/// One of the elements a thread with register tiles computes: the code of
/// the thread at its place in block (blockIdx * coarsen + at) of the grid
/// before, that thread's condition of being inside the iteration space,
/// its variables (one per accumulator) and their subscripts.
struct ElementCopy {
  Substitution s;
  int64_t at[2] = {0, 0};
  IRMapping map;
  Value inside;
  SmallVector<Value> variables;
  SmallVector<SmallVector<Value>> elements;
};

/// One kernel, its launch's block shape and the loop marked for tiles.
class KernelTiler {
public:
  KernelTiler(gpu::GPUFuncOp kernel, gpu::LaunchFuncOp launch, scf::ForOp loop,
              int64_t tile, ArrayRef<int64_t> coarsen)
      : kernel(kernel), launch(launch), loop(loop), tile(tile) {
    for (auto [c, requested] : llvm::zip(this->coarsen, coarsen))
      c = requested;
  }

  /// Tiles the loop, or says why not (the kernel is then unchanged).
  FailureOr<std::string> run(std::string &why);

private:
  unsigned varies(Value v);
  bool isAffine(Value v);
  std::string arrayName(Value memref);
  Value cloneFor(OpBuilder &b, Value v, IRMapping &map, const Substitution &s);
  LogicalResult findStructure(std::string &why);
  void findReads(std::string &why);
  LogicalResult findAccumulators(std::string &why);
  unsigned copyDims(Value v);
  StagedRead *readOf(Operation *op);
  void cloneStatements(OpBuilder &b, ArrayRef<Operation *> ops,
                       IRMapping map, const Substitution &s);
  DenseSet<Operation *> liveOperations();
  void makeCopies(OpBuilder &b);
  void makeElementVariables(OpBuilder &b);
  void fillTiles(OpBuilder &b, Value start, Value linear);
  void runOneElement(OpBuilder &b, scf::ForOp inner, Value k);
  void runJammed(OpBuilder &b, OpBuilder &invariant, scf::ForOp inner,
                 Value k);
  void storeElements(OpBuilder &b);
  std::string rewrite();
  void coarsenGrid();

  /// Rows of the tile of `read`: the block's threads along its dimension,
  /// times the elements each computes; one for a read of the whole block.
  int64_t rowsOf(const StagedRead &read) const {
    return read.dim >= 0 ? block[read.dim] * coarsen[read.dim] : 1;
  }
  /// Bytes of the tile of `read`.
  int64_t tileBytes(const StagedRead &read) const {
    return rowsOf(read) * tile *
           std::max<int64_t>(
               read.load->getResult(0).getType().getIntOrFloatBitWidth() / 8,
               1);
  }
  /// The element of a tile at `row` of the block and `column` of the step.
  static SmallVector<Value> tileIndex(const StagedRead &read, Value row,
                                      Value column) {
    return read.dim == 0 ? SmallVector<Value>{column, row}
                         : SmallVector<Value>{row, column};
  }

  bool coarsened() const { return coarsen[0] * coarsen[1] > 1; }

  gpu::GPUFuncOp kernel;
  gpu::LaunchFuncOp launch;
  scf::ForOp loop;
  int64_t tile;
  int64_t block[2] = {1, 1};
  /// Elements per thread along x and y (register tiles).
  int64_t coarsen[2] = {1, 1};
  scf::IfOp guard;
  SmallVector<Value> rowConditions[2], uniformConditions;
  /// Whether the guard has a condition mixing the grid's dimensions (a
  /// triangle): some blocks may then have no thread inside.
  bool triangle = false;
  SmallVector<Operation *> before, after, hoisted;
  SmallVector<StagedRead> reads;
  SmallVector<Accumulator> accumulators;
  DenseMap<Value, unsigned> memo, copyMemo;

  // What rewrite() builds: the loop's bounds before the guard, the indices,
  // the tiles, and with register tiles the copies of the thread's code.
  Value lb, ub, step, threadId[2], blockId[2];
  SmallVector<Value> buffers;
  SmallVector<ElementCopy, 0> copies;
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

/// `v` as computed by the thread and block of substitution `s`, at the
/// loop's iteration `map` maps its iterator to: clones what depends on them
/// or lies inside the guard.
Value KernelTiler::cloneFor(OpBuilder &b, Value v, IRMapping &map,
                            const Substitution &s) {
  if (Value mapped = map.lookupOrNull(v))
    return mapped;
  Operation *op = v.getDefiningOp();
  if (!op)
    return v;
  auto substitute = [](gpu::Dimension d, const Value(&by)[2]) -> Value {
    return d == gpu::Dimension::z ? Value() : by[unsigned(d)];
  };
  if (auto id = dyn_cast<gpu::ThreadIdOp>(op))
    if (Value row = substitute(id.getDimension(), s.thread))
      return row;
  if (auto id = dyn_cast<gpu::BlockIdOp>(op))
    if (Value index = substitute(id.getDimension(), s.block))
      return index;
  unsigned moved = kLoop;
  for (unsigned d = 0; d < 2; ++d)
    moved |= (s.thread[d] ? (d ? kThreadY : kThreadX) : 0) |
             (s.block[d] ? (d ? kBlockY : kBlockX) : 0);
  if (!guard->isAncestor(op) && !(varies(v) & moved))
    return v;
  for (Value operand : op->getOperands())
    if (Value copy = cloneFor(b, operand, map, s); copy != operand)
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
    if (what & kOther) {
      why = "the guard of its threads depends on more than their position";
      return failure();
    }
    // A triangle's condition (syrk's `j < i + 1`) keeps the computation
    // inside; the tiles' loads stay within the grid's box, whose every row
    // and column gpu-select-nests made sure holds an iteration.
    if ((what & kAlong[0]) && (what & kAlong[1])) {
      triangle = true;
      continue;
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
  // What every thread computes alike from the kernel's arguments (a bound
  // `nk - 1`) moves too; integer divisions stay, as they may trap.
  auto uniform = [&](Operation *op) {
    return isMemoryEffectFree(op) && op->getNumRegions() == 0 &&
           !isa<arith::DivSIOp, arith::DivUIOp, arith::CeilDivSIOp,
                arith::CeilDivUIOp, arith::FloorDivSIOp, arith::RemSIOp,
                arith::RemUIOp>(op) &&
           llvm::all_of(op->getResults(),
                        [&](Value r) { return varies(r) == 0; });
  };
  for (Operation *op : before) {
    if (uniform(op)) {
      hoisted.push_back(op);
      continue;
    }
    bool escapes = llvm::any_of(op->getUsers(), [&](Operation *user) {
      return !llvm::is_contained(before, body->findAncestorOpInBlock(*user));
    });
    if (!escapes)
      continue;
    // Constants are uniform, moved above; a scalar's variable moves too.
    if (!isa<memref::AllocaOp>(op)) {
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

/// Whether each thread may compute several elements: the loop only
/// accumulates into elements of floating-point type, at subscripts that do
/// not change along it, from the tiles and values computed before it, with
/// no division that could trap; the threads past the iteration space's
/// edges then compute with what the tiles hold and only their stores are
/// guarded.
LogicalResult KernelTiler::findAccumulators(std::string &why) {
  if (kernel
          .walk([](gpu::GridDimOp size) {
            return size->use_empty() ? WalkResult::advance()
                                     : WalkResult::interrupt();
          })
          .wasInterrupted()) {
    why = "the kernel reads the grid's size";
    return failure();
  }
  DenseSet<Value> written;
  for (auto store : loop.getBody()->getOps<memref::StoreOp>())
    written.insert(store.getMemRef());
  for (Operation &op : loop.getBody()->without_terminator()) {
    if (readOf(&op))
      continue;
    if (isa<memref::LoadOp, memref::StoreOp>(op)) {
      auto load = dyn_cast<memref::LoadOp>(op);
      auto store = dyn_cast<memref::StoreOp>(op);
      Value memref = load ? load.getMemRef() : store.getMemRef();
      ValueRange indices = load ? load.getIndices() : store.getIndices();
      auto argument = dyn_cast<BlockArgument>(memref);
      bool global = argument && argument.getOwner() == &kernel.front();
      std::string name = global ? arrayName(memref) : "a local array";
      if (!written.contains(memref)) {
        why = "the read of " + name + " is not staged";
        return failure();
      }
      if (!global ||
          !isa<FloatType>(cast<MemRefType>(memref.getType()).getElementType()) ||
          llvm::any_of(indices,
                       [&](Value i) { return varies(i) & (kLoop | kOther); })) {
        why = "the loop's update of " + name +
              " is not an accumulation into one element of floating-point "
              "type";
        return failure();
      }
      auto same = llvm::find_if(accumulators, [&](const Accumulator &a) {
        return a.memref == memref;
      });
      if (same == accumulators.end())
        accumulators.push_back({memref, llvm::to_vector(indices)});
      else if (!llvm::equal(same->indices, indices)) {
        why = "the loop updates two elements of " + name;
        return failure();
      }
      continue;
    }
    if (op.getNumRegions() != 0 || !isMemoryEffectFree(&op) ||
        isa<arith::DivSIOp, arith::DivUIOp, arith::RemSIOp, arith::RemUIOp,
            arith::CeilDivSIOp, arith::CeilDivUIOp, arith::FloorDivSIOp>(op)) {
      why = "the loop's body has control flow, effects or an integer "
            "division";
      return failure();
    }
  }
  if (accumulators.empty()) {
    why = "the loop accumulates into no element";
    return failure();
  }
  return success();
}

/// The staged read `op` is, if it is one.
StagedRead *KernelTiler::readOf(Operation *op) {
  for (StagedRead &read : reads)
    if (read.load.getOperation() == op)
      return &read;
  return nullptr;
}

/// Along which dimensions (bit 0: x, bit 1: y) the value `v` of the loop's
/// body differs between the elements one thread computes.
unsigned KernelTiler::copyDims(Value v) {
  if (v == loop.getInductionVar())
    return 0;
  Operation *op = v.getDefiningOp();
  if (!op || !loop->isAncestor(op)) {
    unsigned what = varies(v);
    return (what & kBlockX ? 1 : 0) | (what & kBlockY ? 2 : 0);
  }
  auto known = copyMemo.find(v);
  if (known != copyMemo.end())
    return known->second;
  unsigned result = 0;
  if (StagedRead *read = readOf(op))
    result = read->dim >= 0 ? 1u << read->dim : 0;
  else if (isa<memref::LoadOp>(op))
    result = 3; // an accumulated element
  else
    for (Value operand : op->getOperands())
      result |= copyDims(operand);
  copyMemo[v] = result;
  return result;
}

/// Clones the statements `ops` of the guard at `b` for the thread and block
/// of `s`, the values they use from outside recomputed for them.
void KernelTiler::cloneStatements(OpBuilder &b, ArrayRef<Operation *> ops,
                                  IRMapping map, const Substitution &s) {
  for (Operation *op : ops) {
    op->walk([&](Operation *nested) {
      for (Value operand : nested->getOperands()) {
        Operation *owner = operand.getParentRegion()->getParentOp();
        if (isa<OpResult>(operand) ? op->isAncestor(operand.getDefiningOp())
                                   : op->isAncestor(owner))
          continue;
        if (Value copy = cloneFor(b, operand, map, s); copy != operand)
          map.map(operand, copy);
      }
    });
    b.clone(*op, map);
  }
}

/// The operations of the loop that the accumulated values need (not the
/// staged reads' subscripts into device memory).
DenseSet<Operation *> KernelTiler::liveOperations() {
  DenseSet<Operation *> live;
  SmallVector<Operation *> work;
  for (auto store : loop.getBody()->getOps<memref::StoreOp>())
    work.push_back(store);
  while (!work.empty()) {
    Operation *op = work.pop_back_val();
    if (!live.insert(op).second || readOf(op))
      continue;
    for (Value operand : op->getOperands())
      if (Operation *def = operand.getDefiningOp();
          def && def->getBlock() == loop.getBody())
        work.push_back(def);
  }
  return live;
}

/// With register tiles, a block stands for coarsen[0] x coarsen[1] blocks
/// of the grid before: each thread computes the elements of the threads at
/// its place in each of them (its copies, y outer).
void KernelTiler::makeCopies(OpBuilder &b) {
  Location loc = loop.getLoc();
  blockId[0] = b.create<gpu::BlockIdOp>(loc, gpu::Dimension::x);
  blockId[1] = b.create<gpu::BlockIdOp>(loc, gpu::Dimension::y);
  for (int64_t ry = 0; ry < coarsen[1]; ++ry)
    for (int64_t rx = 0; rx < coarsen[0]; ++rx) {
      ElementCopy &copy = copies.emplace_back();
      copy.at[0] = rx;
      copy.at[1] = ry;
      for (unsigned d = 0; d < 2; ++d)
        if (coarsen[d] > 1) {
          Value factor = b.create<arith::ConstantIndexOp>(loc, coarsen[d]);
          Value first = b.create<arith::MulIOp>(loc, blockId[d], factor);
          Value offset = b.create<arith::ConstantIndexOp>(loc, copy.at[d]);
          copy.s.block[d] = b.create<arith::AddIOp>(loc, first, offset);
        }
      copy.inside = cloneFor(b, guard.getCondition(), copy.map, copy.s);
    }
}

/// Each element a thread accumulates into lives in a variable of its own
/// (a register once nvcc has unrolled the copies), from device memory
/// inside the iteration space, zero outside it.
void KernelTiler::makeElementVariables(OpBuilder &b) {
  Location loc = loop.getLoc();
  for (ElementCopy &copy : copies)
    for (Accumulator &a : accumulators) {
      SmallVector<Value> &indices = copy.elements.emplace_back();
      for (Value index : a.indices)
        indices.push_back(cloneFor(b, index, copy.map, copy.s));
      Type type = cast<MemRefType>(a.memref.getType()).getElementType();
      std::string name = arrayName(a.memref);
      Value variable = b.create<memref::AllocaOp>(
          withSourceName(loc, isCIdentifier(name) ? name + "_acc" : ""),
          MemRefType::get({}, type));
      copy.variables.push_back(variable);
      b.create<memref::StoreOp>(
          loc, b.create<arith::ConstantOp>(loc, b.getZeroAttr(type)),
          variable);
      auto start =
          b.create<scf::IfOp>(loc, copy.inside, /*withElseRegion=*/false);
      OpBuilder::InsertionGuard g(b);
      b.setInsertionPoint(start.thenBlock()->getTerminator());
      b.create<memref::StoreOp>(
          loc, b.create<memref::LoadOp>(loc, a.memref, indices), variable);
    }
}

/// Every thread of the block loads elements of each tile: those of the
/// rows inside the iteration space, at iterations before the loop's end.
void KernelTiler::fillTiles(OpBuilder &b, Value start, Value linear) {
  Location loc = loop.getLoc();
  auto constant = [&](int64_t v) -> Value {
    return b.create<arith::ConstantIndexOp>(loc, v);
  };
  Value threads = constant(block[0] * block[1]);
  Value width = constant(tile);
  for (auto [read, buffer] : llvm::zip(reads, buffers)) {
    int64_t rows = rowsOf(read);
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
    // The thread (and, with register tiles, the block before them) whose
    // row of the tile this is.
    Substitution owner;
    if (read.dim >= 0 && coarsen[read.dim] == 1) {
      owner.thread[read.dim] = row;
    } else if (read.dim >= 0) {
      Value rowsOfBlock = constant(block[read.dim]);
      owner.thread[read.dim] = b.create<arith::RemUIOp>(loc, row, rowsOfBlock);
      Value firstBlock = b.create<arith::MulIOp>(loc, blockId[read.dim],
                                                 constant(coarsen[read.dim]));
      Value blockOfRow = b.create<arith::DivUIOp>(loc, row, rowsOfBlock);
      owner.block[read.dim] =
          b.create<arith::AddIOp>(loc, firstBlock, blockOfRow);
    }
    Value valid =
        b.create<arith::CmpIOp>(loc, arith::CmpIPredicate::slt, k, ub);
    SmallVector<Value> conditions(uniformConditions);
    if (read.dim >= 0)
      llvm::append_range(conditions, rowConditions[read.dim]);
    for (Value c : conditions)
      valid = b.create<arith::AndIOp>(loc, valid, cloneFor(b, c, map, owner));
    auto load = b.create<scf::IfOp>(loc, valid, /*withElseRegion=*/false);
    b.setInsertionPoint(load.thenBlock()->getTerminator());
    SmallVector<Value> indices;
    for (Value index : read.load.getIndices())
      indices.push_back(cloneFor(b, index, map, owner));
    Value value = b.create<memref::LoadOp>(loc, read.load.getMemRef(), indices);
    b.create<memref::StoreOp>(loc, value, buffer, tileIndex(read, row, column));
  }
}

/// The threads inside the iteration space run the tile's iterations: the
/// loop's body moves into `inner`, reading the tiles.
void KernelTiler::runOneElement(OpBuilder &b, scf::ForOp inner, Value k) {
  Location loc = loop.getLoc();
  Block *body = loop.getBody();
  inner.getBody()->getOperations().splice(std::prev(inner.getBody()->end()),
                                          body->getOperations(), body->begin(),
                                          std::prev(body->end()));
  loop.getInductionVar().replaceAllUsesWith(k);
  Value column = inner.getInductionVar();
  for (auto [read, buffer] : llvm::zip(reads, buffers)) {
    b.setInsertionPoint(read.load);
    Value row = read.dim >= 0
                    ? b.create<gpu::ThreadIdOp>(loc, gpu::Dimension(read.dim))
                          .getResult()
                    : b.create<arith::ConstantIndexOp>(loc, 0).getResult();
    read.load.replaceAllUsesWith(
        b.create<memref::LoadOp>(loc, buffer, tileIndex(read, row, column))
            .getResult());
    read.load.erase();
  }
}

/// Every thread runs the tile's iterations for each of its elements,
/// jammed into `inner`: each operation of the loop once per element that it
/// differs for (gemm: one read of A's tile per row, one of B's per column,
/// a multiply-add per element). What the copies compute from outside the
/// loop goes before the tiles' loop (`invariant`).
void KernelTiler::runJammed(OpBuilder &b, OpBuilder &invariant,
                            scf::ForOp inner, Value k) {
  Location loc = loop.getLoc();
  Value column = inner.getInductionVar();
  SmallVector<IRMapping> bodyMaps(copies.size());
  for (IRMapping &map : bodyMaps)
    map.map(loop.getInductionVar(), k);
  auto variable = [&](size_t c, Value memref) {
    auto a = llvm::find_if(accumulators, [&](const Accumulator &a) {
      return a.memref == memref;
    });
    return copies[c].variables[a - accumulators.begin()];
  };
  auto copyIndex = [&](int64_t rx, int64_t ry) {
    return size_t(ry * coarsen[0] + rx);
  };
  DenseSet<Operation *> live = liveOperations();
  for (Operation &op : loop.getBody()->without_terminator()) {
    if (!live.contains(&op))
      continue;
    for (auto [c, map] : llvm::enumerate(bodyMaps)) {
      if (auto store = dyn_cast<memref::StoreOp>(op)) {
        b.create<memref::StoreOp>(loc, map.lookup(store.getValueToStore()),
                                  variable(c, store.getMemRef()));
        continue;
      }
      StagedRead *read = readOf(&op);
      if (!read)
        if (auto load = dyn_cast<memref::LoadOp>(op)) {
          map.map(load.getResult(),
                  b.create<memref::LoadOp>(loc, variable(c, load.getMemRef())));
          continue;
        }
      // Shared with the first copy that computes the same value.
      unsigned dims = copyDims(op.getResult(0));
      size_t source = copyIndex(dims & 1 ? copies[c].at[0] : 0,
                                dims & 2 ? copies[c].at[1] : 0);
      if (source != c) {
        for (Value result : op.getResults())
          map.map(result, bodyMaps[source].lookup(result));
        continue;
      }
      if (read) {
        // The copy's row of the tile: r blocks' rows below the thread's.
        Value row;
        if (read->dim < 0)
          row = invariant.create<arith::ConstantIndexOp>(loc, 0);
        else if (int64_t r = copies[c].at[read->dim])
          row = invariant.create<arith::AddIOp>(
              loc, threadId[read->dim],
              invariant.create<arith::ConstantIndexOp>(loc,
                                                       r * block[read->dim]));
        else
          row = threadId[read->dim];
        Value buffer = buffers[read - reads.data()];
        map.map(read->load.getResult(),
                b.create<memref::LoadOp>(loc, buffer,
                                         tileIndex(*read, row, column))
                    .getResult());
        continue;
      }
      for (Value operand : op.getOperands())
        if (!map.contains(operand))
          map.map(operand, cloneFor(invariant, operand, copies[c].map,
                                    copies[c].s));
      b.clone(op, map);
    }
  }
}

/// After the loop, inside the iteration space: each copy's elements go
/// back to device memory, then its statements after the loop run.
void KernelTiler::storeElements(OpBuilder &b) {
  Location loc = loop.getLoc();
  for (ElementCopy &copy : copies) {
    auto last = b.create<scf::IfOp>(loc, copy.inside, /*withElseRegion=*/false);
    OpBuilder::InsertionGuard g(b);
    b.setInsertionPoint(last.thenBlock()->getTerminator());
    for (auto [a, accumulator] : llvm::enumerate(accumulators))
      b.create<memref::StoreOp>(
          loc, b.create<memref::LoadOp>(loc, copy.variables[a]),
          accumulator.memref, copy.elements[a]);
    cloneStatements(b, after, copy.map, copy.s);
  }
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
  lb = cloneFor(b, loop.getLowerBound(), uniform, {});
  ub = cloneFor(b, loop.getUpperBound(), uniform, {});
  step = cloneFor(b, loop.getStep(), uniform, {});
  Value inside = guard.getCondition();
  if (coarsened())
    makeCopies(b);

  // The statements before the loop, in the guard of their own (one per
  // copy).
  if (before.size() > hoisted.size()) {
    SmallVector<Operation *> statements;
    for (Operation *op : before)
      if (!llvm::is_contained(hoisted, op))
        statements.push_back(op);
    if (!coarsened()) {
      auto first = b.create<scf::IfOp>(loc, inside, /*withElseRegion=*/false);
      for (Operation *op : statements)
        op->moveBefore(first.thenBlock()->getTerminator());
    } else {
      for (ElementCopy &copy : copies) {
        auto first =
            b.create<scf::IfOp>(loc, copy.inside, /*withElseRegion=*/false);
        OpBuilder::InsertionGuard g(b);
        b.setInsertionPoint(first.thenBlock()->getTerminator());
        cloneStatements(b, statements, copy.map, copy.s);
      }
    }
  }

  // One buffer per read: [T][rows] along x, [rows][T] otherwise.
  auto workgroup =
      gpu::AddressSpaceAttr::get(b.getContext(), gpu::AddressSpace::Workgroup);
  SmallVector<std::string> staged;
  llvm::StringSet<> names;
  int64_t bytes = 0;
  for (StagedRead &read : reads) {
    int64_t rows = rowsOf(read);
    SmallVector<int64_t, 2> shape = read.dim == 0
                                        ? SmallVector<int64_t, 2>{tile, rows}
                                        : SmallVector<int64_t, 2>{rows, tile};
    // The C name of the tile: the array's, where it has one.
    std::string name;
    if (isCIdentifier(read.name))
      name = read.name + "_tile";
    if (!name.empty() && !names.insert(name).second)
      name += "_" + std::to_string(buffers.size());
    buffers.push_back(kernel.addWorkgroupAttribution(
        MemRefType::get(shape, read.load.getType(), MemRefLayoutAttrInterface{},
                        workgroup),
        withSourceName(loc, name)));
    bytes += tileBytes(read);
    staged.push_back(read.name + " (" + std::to_string(shape[0]) + " x " +
                     std::to_string(shape[1]) + ")");
  }
  if (coarsened())
    makeElementVariables(b);

  threadId[0] = b.create<gpu::ThreadIdOp>(loc, gpu::Dimension::x);
  threadId[1] = b.create<gpu::ThreadIdOp>(loc, gpu::Dimension::y);
  Value linear = b.create<arith::AddIOp>(
      loc, b.create<arith::MulIOp>(loc, threadId[1], constant(block[0])),
      threadId[0]);
  Value width = constant(tile);
  // A triangle's blocks wholly outside it (above syrk's diagonal) skip the
  // tiles: the block votes (__syncthreads_or) whether any of its threads
  // is inside, the same answer for all, so the barriers stay uniform.
  scf::IfOp anyInside;
  if (triangle) {
    Value any = inside;
    if (coarsened()) {
      any = copies.front().inside;
      for (ElementCopy &copy : llvm::drop_begin(copies))
        any = b.create<arith::OrIOp>(loc, any, copy.inside);
    }
    Value vote = b.create<gpu::AllReduceOp>(
        withSourceName(loc, "any_inside"), any,
        gpu::AllReduceOperationAttr::get(b.getContext(),
                                         gpu::AllReduceOperation::OR),
        /*uniform=*/true);
    anyInside = b.create<scf::IfOp>(loc, vote, /*withElseRegion=*/false);
    b.setInsertionPoint(anyInside.thenBlock()->getTerminator());
  }
  auto steps = b.create<scf::ForOp>(loc, lb, ub,
                                    b.create<arith::MulIOp>(loc, step, width));
  OpBuilder invariant(steps);
  Value start = steps.getInductionVar();
  b.setInsertionPointToStart(steps.getBody());
  fillTiles(b, start, linear);
  b.create<gpu::BarrierOp>(loc);

  // The tile's iterations: T, or fewer at the loop's last step. A full
  // tile runs a loop of T iterations, a constant, which the printer asks
  // nvcc to unroll completely: the tiles' reads become constant offsets and
  // no loop control is left between the multiply-adds. Only where the
  // loop's trip count is not a known multiple of T does a second loop run
  // the last, partial tile (`if (nk - it >= 32) { ... } else { ... }`).
  // Known trip counts need only one of the two loops: 64 iterations by
  // tiles of 32 no partial tile, 3 no full one.
  bool fullTiles = true, partialTile = true;
  {
    std::optional<int64_t> first = getConstantIntValue(lb),
                           last = getConstantIntValue(ub),
                           by = getConstantIntValue(step);
    if (first && last && by && *by > 0 && *last > *first) {
      int64_t trips = llvm::divideCeil(*last - *first, *by);
      fullTiles = trips >= tile;
      partialTile = trips % tile != 0;
    }
  }
  scf::IfOp lastTile;
  auto innerLoop = [&] {
    OpBuilder::InsertionGuard g(b);
    Value zero = constant(0);
    Value one = constant(1);
    if (!partialTile)
      return b.create<scf::ForOp>(loc, zero, width, one);
    // Folded where the step is 1: `nk - it` in the output.
    Value left = b.createOrFold<arith::CeilDivSIOp>(
        loc, b.create<arith::SubIOp>(loc, ub, start), step);
    if (fullTiles) {
      Value full =
          b.create<arith::CmpIOp>(loc, arith::CmpIPredicate::sge, left, width);
      lastTile = b.create<scf::IfOp>(loc, full, /*withElseRegion=*/true);
      b.setInsertionPoint(lastTile.elseBlock()->getTerminator());
    }
    return b.create<scf::ForOp>(loc, zero, left, one);
  };
  // The full tile's loop: `inner` itself, or a copy of it in `lastTile`'s
  // other branch running T iterations.
  auto unrollFullTiles = [&](scf::ForOp inner) {
    if (!fullTiles)
      return;
    scf::ForOp full = inner;
    if (lastTile) {
      OpBuilder then = OpBuilder::atBlockTerminator(lastTile.thenBlock());
      full = cast<scf::ForOp>(then.clone(*inner));
      full.getUpperBoundMutable().assign(width);
    }
    full->setAttr(WeftDialect::getUnrollAttrName(), b.getUnitAttr());
  };
  // Into `inner`'s body: the original loop's iterator at its iteration.
  auto iterator = [&](scf::ForOp inner) -> Value {
    b.setInsertionPointToStart(inner.getBody());
    return b.create<arith::AddIOp>(
        loc, start,
        b.createOrFold<arith::MulIOp>(loc, inner.getInductionVar(), step));
  };
  // One element a thread inside the iteration space, or all of a thread's
  // elements.
  scf::ForOp inner;
  if (!coarsened()) {
    auto compute = b.create<scf::IfOp>(loc, inside, /*withElseRegion=*/false);
    b.create<gpu::BarrierOp>(loc);
    b.setInsertionPoint(compute.thenBlock()->getTerminator());
    inner = innerLoop();
    runOneElement(b, inner, iterator(inner));
  } else {
    inner = innerLoop();
    b.create<gpu::BarrierOp>(loc);
    runJammed(b, invariant, inner, iterator(inner));
  }
  unrollFullTiles(inner);

  // The statements after the loop.
  if (anyInside)
    b.setInsertionPointAfter(anyInside);
  else
    b.setInsertionPointAfter(steps);
  if (coarsened()) {
    storeElements(b);
    coarsenGrid();
  } else if (!after.empty()) {
    auto last = b.create<scf::IfOp>(loc, inside, /*withElseRegion=*/false);
    for (Operation *op : after)
      op->moveBefore(last.thenBlock()->getTerminator());
  }
  guard.erase();
  std::string elements;
  if (coarsened())
    elements = ", each thread computing " + std::to_string(coarsen[0]) +
               " x " + std::to_string(coarsen[1]) + " elements in registers";
  return "tiled by " + std::to_string(tile) + " in shared memory" + elements +
         ": the " + std::to_string(block[0]) + " x " +
         std::to_string(block[1]) + " threads of a block stage " +
         llvm::join(staged, " and ") + " at each step, " +
         std::to_string(bytes) + " bytes";
}

/// The grid of a kernel with register tiles: one block for coarsen[0] x
/// coarsen[1] blocks before.
void KernelTiler::coarsenGrid() {
  OpBuilder b(launch);
  Location loc = launch.getLoc();
  for (unsigned d = 0; d < 2; ++d) {
    if (coarsen[d] == 1)
      continue;
    OpOperand &size =
        d == 0 ? launch.getGridSizeXMutable() : launch.getGridSizeYMutable();
    size.set(b.create<arith::CeilDivSIOp>(
        loc, size.get(), b.create<arith::ConstantIndexOp>(loc, coarsen[d])));
  }
}

FailureOr<std::string> KernelTiler::run(std::string &why) {
  if (failed(findStructure(why)))
    return failure();
  findReads(why);
  if (reads.empty())
    return failure();
  if (!coarsened())
    return rewrite();
  // The tiles with the rows of every element (findReads counted one).
  int64_t bytes = 0;
  for (StagedRead &read : reads)
    bytes += tileBytes(read);
  std::string noRegisterTiles;
  if (coarsen[0] * coarsen[1] > kMaxElementsPerThread)
    noRegisterTiles = "more than " + std::to_string(kMaxElementsPerThread) +
                      " elements a thread";
  else if (bytes > kStaticSharedBytes)
    noRegisterTiles = "the tiles would exceed " +
                      std::to_string(kStaticSharedBytes) +
                      " bytes of shared memory";
  if (!noRegisterTiles.empty() || failed(findAccumulators(noRegisterTiles))) {
    coarsen[0] = coarsen[1] = 1;
    accumulators.clear();
    why += (why.empty() ? "" : "; ") + ("no register tiles: " + noRegisterTiles);
  }
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
      auto coarsen = loop->getAttrOfType<DenseI64ArrayAttr>(
          WeftDialect::getGpuCoarsenAttrName());
      loop->removeAttr(WeftDialect::getGpuTileAttrName());
      loop->removeAttr(WeftDialect::getGpuCoarsenAttrName());
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
        done = KernelTiler(kernel, found->second.front(), loop, tile.getInt(),
                           coarsen ? coarsen.asArrayRef()
                                   : ArrayRef<int64_t>{1, 1})
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
