//===- LocalStorage.cpp - Rank-local storage of private arrays --*- C++ -*-===//
//
// Redirects a private array's loads and stores (the region's own accesses,
// affine, and the message and reduction code, memref) to storage that holds
// only the rank's range of one dimension.
//
//===----------------------------------------------------------------------===//
#include "LocalStorage.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"

using namespace mlir;

bool weft::canStoreLocally(Value array, unsigned dim) {
  auto type = cast<MemRefType>(array.getType());
  for (int64_t d = 0; d < type.getRank(); ++d)
    if (d != dim && type.isDynamicDim(d))
      return false;
  return llvm::all_of(array.getUses(), [](OpOperand &use) {
    Operation *user = use.getOwner();
    if (auto store = dyn_cast<affine::AffineStoreOp>(user))
      return use.getOperandNumber() == store.getMemRefOperandIndex();
    if (auto store = dyn_cast<memref::StoreOp>(user))
      return use.get() == store.getMemRef();
    return isa<affine::AffineLoadOp, memref::LoadOp>(user);
  });
}

weft::LocalStorage weft::allocateLocalStorage(OpBuilder &b, Location loc,
                                              Value array, unsigned dim,
                                              Value start, Value end) {
  auto type = cast<MemRefType>(array.getType());
  SmallVector<int64_t> shape(type.getShape());
  shape[dim] = ShapedType::kDynamic;
  Value zero = b.create<arith::ConstantIndexOp>(loc, 0);
  Value extent = b.create<arith::MaxSIOp>(
      loc, b.create<arith::SubIOp>(loc, end, start), zero);
  Value local = b.create<memref::AllocOp>(
      loc, MemRefType::get(shape, type.getElementType()), ValueRange{extent});
  return {array, local, start, dim};
}

void weft::redirectToLocalStorage(const LocalStorage &s) {
  for (OpOperand &use : llvm::make_early_inc_range(s.array.getUses())) {
    Operation *user = use.getOwner();
    OpBuilder b(user);
    if (isa<affine::AffineLoadOp, affine::AffineStoreOp>(user)) {
      // Subscript `dim` becomes `subscript - start`, start a new symbol.
      auto load = dyn_cast<affine::AffineLoadOp>(user);
      auto store = dyn_cast<affine::AffineStoreOp>(user);
      AffineMap map = load ? load.getAffineMap() : store.getAffineMap();
      SmallVector<Value> operands(load ? load.getMapOperands()
                                       : store.getMapOperands());
      SmallVector<AffineExpr> results(map.getResults());
      results[s.dim] = results[s.dim] - getAffineSymbolExpr(map.getNumSymbols(),
                                                            user->getContext());
      map = AffineMap::get(map.getNumDims(), map.getNumSymbols() + 1, results,
                           user->getContext());
      operands.push_back(s.start);
      if (load) {
        Value v = b.create<affine::AffineLoadOp>(load.getLoc(), s.local, map,
                                                 operands);
        load.replaceAllUsesWith(v);
      } else {
        b.create<affine::AffineStoreOp>(store.getLoc(), store.getValueToStore(),
                                        s.local, map, operands);
      }
      user->erase();
      continue;
    }
    auto load = dyn_cast<memref::LoadOp>(user);
    auto store = dyn_cast<memref::StoreOp>(user);
    SmallVector<Value> indices(load ? load.getIndices() : store.getIndices());
    indices[s.dim] =
        b.create<arith::SubIOp>(user->getLoc(), indices[s.dim], s.start);
    if (load) {
      load.getMemrefMutable().assign(s.local);
      load.getIndicesMutable().assign(indices);
    } else {
      store.getMemrefMutable().assign(s.local);
      store.getIndicesMutable().assign(indices);
    }
  }
  auto func = s.local.getDefiningOp()->getParentOfType<func::FuncOp>();
  func.walk([&](func::ReturnOp ret) {
    OpBuilder(ret).create<memref::DeallocOp>(ret.getLoc(), s.local);
  });
}
