//===- LinearizeMemRefAccesses.cpp - Row-major heap accesses ---*- C++ -*-===//
//
// This file implements the linearize-memref-accesses pass: loads and stores
// on heap memrefs of rank >= 2 become accesses of a collapsed 1-D view at a
// row-major linear index, which is what a C pointer can express. Arguments
// and local arrays keep their subscripts (C subscripts them whole: see
// LoopsToEmitC.cpp), except arguments under flat-arguments (C++).
//
//===----------------------------------------------------------------------===//
#include "weft/Conversion/MemRefExtents.h"
#include "weft/Conversion/Passes.h"

#include "mlir/IR/Builders.h"
#include "llvm/ADT/DenseMap.h"

namespace weft {
#define GEN_PASS_DEF_LINEARIZEMEMREFACCESSES
#include "weft/Conversion/Passes.h.inc"
} // namespace weft

using namespace mlir;

namespace {
struct LinearizeMemRefAccesses
    : weft::impl::LinearizeMemRefAccessesBase<LinearizeMemRefAccesses> {
  using Base::Base;
  void runOnOperation() override;

private:
  /// Extents of dimensions 1..rank-1 of `memref`, an allocation or an
  /// argument, or failure.
  LogicalResult getExtents(Operation *user, Value memref,
                           SmallVectorImpl<Value> &extents);
  /// The 1-D view of `memref`, created once next to its definition.
  Value getFlatView(Value memref);

  DenseMap<Value, Value> flatViews;
  DenseMap<Value, SmallVector<Value>> extentCache;
};
} // end anonymous namespace

LogicalResult
LinearizeMemRefAccesses::getExtents(Operation *user, Value memref,
                                    SmallVectorImpl<Value> &extents) {
  auto it = extentCache.find(memref);
  if (it != extentCache.end()) {
    extents.assign(it->second.begin(), it->second.end());
    return success();
  }
  FailureOr<SmallVector<OpFoldResult>> trailing =
      weft::getTrailingExtents(user, memref);
  if (failed(trailing))
    return failure();
  // Static extents become constants next to the array's definition.
  func::FuncOp func = getOperation();
  OpBuilder b(func.getBody());
  if (auto alloc = memref.getDefiningOp<memref::AllocOp>())
    b.setInsertionPointAfter(alloc);
  for (OpFoldResult extent : *trailing) {
    if (auto value = dyn_cast<Value>(extent)) {
      extents.push_back(value);
      continue;
    }
    extents.push_back(b.create<arith::ConstantIndexOp>(
        memref.getLoc(), cast<IntegerAttr>(extent.get<Attribute>()).getInt()));
  }
  extentCache[memref].assign(extents.begin(), extents.end());
  return success();
}

Value LinearizeMemRefAccesses::getFlatView(Value memref) {
  Value &view = flatViews[memref];
  if (view)
    return view;
  OpBuilder b(&getContext());
  if (auto arg = dyn_cast<BlockArgument>(memref))
    b.setInsertionPointToStart(arg.getOwner());
  else
    b.setInsertionPointAfter(memref.getDefiningOp());
  auto type = cast<MemRefType>(memref.getType());
  ReassociationIndices all;
  for (int64_t d = 0; d < type.getRank(); ++d)
    all.push_back(d);
  view = b.create<memref::CollapseShapeOp>(
      memref.getLoc(), memref, ArrayRef<ReassociationIndices>{all});
  return view;
}

void LinearizeMemRefAccesses::runOnOperation() {
  flatViews.clear();
  extentCache.clear();
  SmallVector<Operation *> accesses;
  func::FuncOp func = getOperation();
  auto linearised = [&](Value memref) {
    if (cast<MemRefType>(memref.getType()).getRank() < 2)
      return false;
    if (memref.getDefiningOp<memref::AllocOp>())
      return true;
    auto arg = dyn_cast<BlockArgument>(memref);
    return flatArguments && arg && arg.getOwner() == &func.getBody().front();
  };
  // The memref and the indices of each access.
  auto accessed = [](Operation *op) -> std::pair<Value, ValueRange> {
    if (auto load = dyn_cast<memref::LoadOp>(op))
      return {load.getMemRef(), load.getIndices()};
    if (auto store = dyn_cast<memref::StoreOp>(op))
      return {store.getMemRef(), store.getIndices()};
    if (auto atomic = dyn_cast<memref::AtomicRMWOp>(op))
      return {atomic.getMemref(), atomic.getIndices()};
    return {};
  };
  getOperation().walk([&](Operation *op) {
    if (Value memref = accessed(op).first; memref && linearised(memref))
      accesses.push_back(op);
  });
  for (Operation *op : accesses) {
    auto [memref, indices] = accessed(op);
    SmallVector<Value> extents;
    if (failed(getExtents(op, memref, extents)))
      return signalPassFailure();
    OpBuilder b(op);
    Location loc = op->getLoc();
    Value linear = indices[0];
    for (size_t d = 1; d < indices.size(); ++d)
      linear = b.create<arith::AddIOp>(
          loc, b.create<arith::MulIOp>(loc, linear, extents[d - 1]),
          indices[d]);
    Value flat = getFlatView(memref);
    if (auto load = dyn_cast<memref::LoadOp>(op)) {
      Value v = b.create<memref::LoadOp>(loc, flat, ValueRange{linear});
      load.replaceAllUsesWith(v);
    } else if (auto atomic = dyn_cast<memref::AtomicRMWOp>(op)) {
      auto flatAtomic = b.create<memref::AtomicRMWOp>(
          loc, atomic.getKind(), atomic.getValue(), flat, ValueRange{linear});
      flatAtomic->setAttrs(atomic->getAttrs());
      atomic.replaceAllUsesWith(flatAtomic.getResult());
    } else {
      auto store = cast<memref::StoreOp>(op);
      b.create<memref::StoreOp>(loc, store.getValueToStore(), flat,
                                ValueRange{linear});
    }
    op->erase();
  }
}
