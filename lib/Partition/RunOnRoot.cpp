//===- RunOnRoot.cpp - Regions nothing distributed, on rank 0 alone -------===//
//
// Implements dist-run-on-root: a region the partitioner distributed nothing
// of would run whole on every rank, each rank computing the same values,
// and ranks that share a node compete for its memory doing so. Rank 0 runs
// it alone; the other ranks' copies are marked stale, and a later region
// that reads them fetches them from rank 0 (dist-materialize's broadcast),
// as after a region whose live-out values went to rank 0 only.
//
//===----------------------------------------------------------------------===//
#include "weft/Partition/Passes.h"

#include "Dispatcher.h"

#include "dialects/Dist/IR/DistOps.h"
#include "dialects/Weft/IR/WeftDialect.h"

#include "weft/Partition/NestComments.h"
#include "weft/Support/SourceNames.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/SymbolTable.h"

namespace weft {
#define GEN_PASS_DEF_DISTRUNONROOT
#include "weft/Partition/Passes.h.inc"
} // namespace weft

using namespace mlir;
using namespace weft;

namespace {
struct DistRunOnRoot : weft::impl::DistRunOnRootBase<DistRunOnRoot> {
  using Base::Base;
  void runOnOperation() override;
};
} // end anonymous namespace

/// Whether `func` or a function it calls asks which rank it is, exchanges
/// data or checks the replicas (any dist op but the overlap test).
static bool isRankAware(func::FuncOp func, SymbolTable &symbols,
                        llvm::SmallPtrSetImpl<Operation *> &seen) {
  if (!seen.insert(func).second)
    return false;
  return func
      .walk([&](Operation *op) {
        if (isa<dist::DistDialect>(op->getDialect()) &&
            !isa<dist::RangesOverlapOp>(op))
          return WalkResult::interrupt();
        if (auto call = dyn_cast<func::CallOp>(op))
          if (auto callee = symbols.lookup<func::FuncOp>(call.getCallee()))
            if (isRankAware(callee, symbols, seen))
              return WalkResult::interrupt();
        return WalkResult::advance();
      })
      .wasInterrupted();
}

/// The scalars of the caller `func` gets by address (it may set them) that
/// code after it may read: rank 0 sends them to the other ranks after
/// running it, since a program often decides its control flow on such a
/// value (a residual, a count), the same on every rank.
static SmallVector<BlockArgument> scalarsReadAfter(func::FuncOp func) {
  SmallVector<BlockArgument> scalars;
  for (BlockArgument arg : func.getArguments()) {
    auto type = dyn_cast<MemRefType>(arg.getType());
    if (type && type.getRank() == 0 &&
        !func.getArgAttr(arg.getArgNumber(),
                         WeftDialect::getRegionOnlyAttrName()))
      scalars.push_back(arg);
  }
  return scalars;
}

/// Whether MPI can send a `type` value (dist.broadcast's element types).
static bool isTransferable(Type type) {
  if (auto i = dyn_cast<IntegerType>(type))
    return llvm::is_contained({1u, 8u, 16u, 32u, 64u}, i.getWidth());
  return isa<IndexType, Float32Type, Float64Type>(type);
}

/// Makes `region` `<name>_rank0` and `<name>` a dispatcher that calls it on
/// rank 0 alone, marks the other ranks' copies stale and sends them
/// `scalars` (the dispatcher's arguments at those positions) from rank 0.
static func::FuncOp runOnRank0(func::FuncOp region, SymbolTable &symbols,
                               ArrayRef<BlockArgument> scalars) {
  std::string name = region.getName().str();
  if (failed(symbols.rename(region, name + kRank0Suffix.str())))
    return {};
  func::FuncOp dispatcher = createDispatcher(region, name);
  symbols.insert(dispatcher);
  OpBuilder b = OpBuilder::atBlockBegin(&dispatcher.getBody().front());
  Location loc = region.getLoc();
  Value rank = b.create<dist::RankOp>(loc);
  Value zero = b.create<arith::ConstantIndexOp>(loc, 0), root = zero;
  Value isRoot =
      b.create<arith::CmpIOp>(loc, arith::CmpIPredicate::eq, rank, zero);
  // Each scalar goes through a one-element array, which rank 0 fills after
  // the region (with what the program reads after it) and broadcasts
  // (named for the C: last_on_rank0).
  SmallVector<std::pair<Value, Value>> slots;
  for (BlockArgument scalar : scalars) {
    Value arg = dispatcher.getArgument(scalar.getArgNumber());
    Type type = cast<MemRefType>(arg.getType()).getElementType();
    std::string slotName = argumentSourceName(region, scalar) + "_on_rank0";
    Value slot = b.create<memref::AllocaOp>(
        isCIdentifier(slotName) ? withSourceName(loc, slotName) : loc,
        MemRefType::get({1}, type));
    slots.push_back({arg, slot});
  }
  auto onRoot = b.create<scf::IfOp>(loc, isRoot, /*withElseRegion=*/false);
  OpBuilder atRoot = OpBuilder::atBlockBegin(onRoot.thenBlock());
  atRoot.create<func::CallOp>(loc, region, dispatcher.getArguments());
  for (auto [arg, slot] : slots)
    atRoot.create<memref::StoreOp>(loc, atRoot.create<memref::LoadOp>(loc, arg),
                                   slot, zero);
  b.create<dist::SetReplicasStaleOp>(loc);
  for (auto [arg, slot] : slots) {
    b.create<dist::BroadcastOp>(loc, slot, "{ S[0] }", ValueRange{},
                                ValueRange{}, root);
    b.create<memref::StoreOp>(loc, b.create<memref::LoadOp>(loc, slot, zero),
                              arg);
  }
  b.create<func::ReturnOp>(loc);
  return dispatcher;
}

void DistRunOnRoot::runOnOperation() {
  ModuleOp module = getOperation();
  SymbolTable symbols(module);
  // The regions are the functions no function calls (the others are the
  // forms a dispatcher chooses between).
  llvm::SmallPtrSet<Operation *, 8> called;
  module.walk([&](func::CallOp call) {
    if (auto callee = symbols.lookup<func::FuncOp>(call.getCallee()))
      called.insert(callee);
  });
  SmallVector<func::FuncOp> regions;
  for (func::FuncOp func : module.getOps<func::FuncOp>()) {
    llvm::SmallPtrSet<Operation *, 8> seen;
    // `#pragma weft nodist` asks for every rank to run it.
    if (!func.isExternal() && !called.contains(func) &&
        !func->hasAttr(WeftDialect::getNoDistAttrName()) &&
        !isRankAware(func, symbols, seen))
      regions.push_back(func);
  }
  for (func::FuncOp region : regions) {
    SmallVector<BlockArgument> scalars = scalarsReadAfter(region);
    if (llvm::any_of(scalars, [](BlockArgument s) {
          return !isTransferable(
              cast<MemRefType>(s.getType()).getElementType());
        }))
      continue; // Every rank computes them, as before.
    func::FuncOp dispatcher = runOnRank0(region, symbols, scalars);
    if (!dispatcher)
      return signalPassFailure();
    if (!report)
      continue;
    InFlightDiagnostic d = dispatcher.emitRemark(
        "runs on rank 0 alone, nothing in it being distributed: ");
    if (!scalars.empty()) {
      d << "then rank 0 sends ";
      llvm::interleaveComma(scalars, d, [&](BlockArgument s) {
        d << argumentSourceName(region, s);
      });
      d << " to the other ranks; ";
    }
    d << "the other ranks' copies of the arrays it writes are marked stale, "
         "and a later region that reads them fetches them from rank 0 "
         "(--live-out=all runs it on every rank)";
  }
}
