//===- HostAccesses.cpp - Host code between resident device buffers -------===//
//
// In a distributed region whose device nests keep their buffers resident
// (kGpuResidentAttr), the host's copy of an array may be outdated where a
// kernel wrote it, and the device's where host code did. The runtime tracks
// both for the nests' copies and the MPI runtime's messages; this file tells
// it about the rest of the host code: a call of weft_cuda_host_access before
// each host statement that touches such an array, and of
// weft_cuda_release_all before the region returns.
//
//===----------------------------------------------------------------------===//
#include "DeviceNests.h"

#include "weft/GPU/Passes.h"

#include "dialects/Dist/IR/DistDialect.h"

#include "mlir/Dialect/EmitC/IR/EmitC.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Interfaces/ViewLikeInterface.h"
#include "llvm/ADT/MapVector.h"

using namespace mlir;
using namespace weft;

/// The array `v` views (through subviews and casts).
static Value baseArray(Value v) {
  while (auto view = v.getDefiningOp<ViewLikeOpInterface>())
    v = view.getViewSource();
  return v;
}

/// The host side of a copy between a host array and its device buffer.
static std::pair<Value, bool> hostSide(gpu::MemcpyOp copy) {
  Value dst = baseArray(copy.getDst());
  bool toDevice = dst.getDefiningOp<gpu::AllocOp>() != nullptr;
  return {baseArray(toDevice ? copy.getSrc() : copy.getDst()), !toDevice};
}

void weft::markHostAccesses(func::FuncOp func) {
  DenseSet<Value> resident;
  func.walk([&](gpu::MemcpyOp copy) {
    if (copy->hasAttr(kGpuResidentAttr))
      resident.insert(hostSide(copy).first);
  });
  if (resident.empty())
    return;

  DenseMap<Operation *, bool> holdsDeviceNest;
  auto holdsNest = [&](Operation *op) {
    auto [it, inserted] = holdsDeviceNest.try_emplace(op, false);
    if (inserted)
      it->second = op->walk([](affine::AffineForOp loop) {
                       return loop->hasAttr(kGpuBandAttr)
                                  ? WalkResult::interrupt()
                                  : WalkResult::advance();
                     }).wasInterrupted();
    return it->second;
  };
  // The outermost statement around `op` with no device nest in it: the
  // runtime hears of the accesses before it starts.
  auto spanOf = [&](Operation *op) {
    while (op->getParentOp() != func && !holdsNest(op->getParentOp()))
      op = op->getParentOp();
    return op;
  };
  // Per span, the resident arrays it touches and whether it writes them.
  llvm::MapVector<Operation *, llvm::MapVector<Value, bool>> spans;
  auto note = [&](Operation *op, Value memref, bool write) {
    Value base = baseArray(memref);
    if (!resident.contains(base))
      return;
    bool &writes = spans[spanOf(op)][base];
    writes = writes || write;
  };
  func.walk<WalkOrder::PreOrder>([&](Operation *op) {
    if (auto loop = dyn_cast<affine::AffineForOp>(op))
      if (loop->hasAttr(kGpuBandAttr))
        return WalkResult::skip(); // device code
    if (isa<dist::DistDialect>(op->getDialect()))
      return WalkResult::advance(); // the MPI runtime tells the runtime
    if (auto copy = dyn_cast<gpu::MemcpyOp>(op)) {
      if (!copy->hasAttr(kGpuResidentAttr)) {
        auto [host, write] = hostSide(copy);
        note(op, host, write);
      }
      return WalkResult::advance();
    }
    if (isa<gpu::GPUDialect>(op->getDialect()) || op->getNumRegions() > 0 ||
        isMemoryEffectFree(op))
      return WalkResult::advance();
    for (Value v : op->getOperands()) {
      if (!isa<MemRefType>(v.getType()))
        continue;
      bool reads = isa<affine::AffineReadOpInterface, memref::LoadOp>(op);
      note(op, v, !reads);
    }
    return WalkResult::advance();
  });

  for (auto &[span, arrays] : spans) {
    OpBuilder b(span);
    for (auto &[array, write] : arrays) {
      auto type = cast<MemRefType>(array.getType());
      Value pointer =
          b.create<UnrealizedConversionCastOp>(
               span->getLoc(), emitc::PointerType::get(type.getElementType()),
               array)
              .getResult(0);
      b.create<emitc::CallOpaqueOp>(
          span->getLoc(), TypeRange{}, "weft_cuda_host_access",
          ValueRange{pointer},
          b.getArrayAttr({b.getIndexAttr(0), b.getI32IntegerAttr(write)}),
          ArrayAttr());
    }
  }
  func.walk([&](func::ReturnOp ret) {
    OpBuilder b(ret);
    b.create<emitc::CallOpaqueOp>(ret.getLoc(), TypeRange{},
                                  "weft_cuda_release_all", ValueRange{});
  });
}
