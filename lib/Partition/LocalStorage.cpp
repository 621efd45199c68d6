//===- LocalStorage.cpp - Rank-local storage of private arrays --*- C++ -*-===//
//
// Redirects a private array's loads and stores (the region's own accesses,
// affine, and the message and reduction code, memref) to storage that holds
// only the rank's ranges of some dimensions.
//
//===----------------------------------------------------------------------===//
#include "LocalStorage.h"
#include "weft/Support/SourceNames.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"

using namespace mlir;

bool weft::canStoreLocally(Value array, ArrayRef<unsigned> dims) {
  auto type = cast<MemRefType>(array.getType());
  for (int64_t d = 0; d < type.getRank(); ++d)
    if (!llvm::is_contained(dims, d) && type.isDynamicDim(d))
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
                                              Value array,
                                              ArrayRef<unsigned> dims,
                                              ArrayRef<Value> starts,
                                              ArrayRef<Value> ends) {
  auto type = cast<MemRefType>(array.getType());
  SmallVector<int64_t> shape(type.getShape());
  Value zero = b.create<arith::ConstantIndexOp>(loc, 0);
  // memref.alloc takes the dynamic extents in dimension order.
  SmallVector<Value> extents;
  for (unsigned d = 0; d < type.getRank(); ++d) {
    auto k = llvm::find(dims, d) - dims.begin();
    if (k == (ptrdiff_t)dims.size())
      continue;
    shape[d] = ShapedType::kDynamic;
    extents.push_back(b.create<arith::MaxSIOp>(
        loc, b.create<arith::SubIOp>(loc, ends[k], starts[k]), zero));
  }
  // Named after the array: `A_local` (weft/Support/SourceNames.h).
  StringRef name = sourceName(array);
  Value local = b.create<memref::AllocOp>(
      withSourceName(loc, name.empty() ? "" : (name + "_local").str()),
      MemRefType::get(shape, type.getElementType()), extents);
  return {array, local, SmallVector<unsigned, 2>(dims),
          SmallVector<Value, 2>(starts)};
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
      unsigned symbols = map.getNumSymbols();
      for (auto [dim, start] : llvm::zip(s.dims, s.starts)) {
        results[dim] =
            results[dim] - getAffineSymbolExpr(symbols++, user->getContext());
        operands.push_back(start);
      }
      map = AffineMap::get(map.getNumDims(), symbols, results,
                           user->getContext());
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
    for (auto [dim, start] : llvm::zip(s.dims, s.starts))
      indices[dim] =
          b.create<arith::SubIOp>(user->getLoc(), indices[dim], start);
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
