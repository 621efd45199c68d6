//===- MemRefExtents.cpp - Row-major extents of region memrefs --*- C++ -*-===//
#include "weft/Conversion/MemRefExtents.h"

#include "dialects/Weft/IR/WeftDialect.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/Builders.h"

using namespace mlir;

FailureOr<SmallVector<OpFoldResult>> weft::getTrailingExtents(Operation *user,
                                                              Value memref) {
  auto type = cast<MemRefType>(memref.getType());
  auto arg = dyn_cast<BlockArgument>(memref);
  auto alloc = memref.getDefiningOp<memref::AllocOp>();
  auto func = user->getParentOfType<func::FuncOp>();
  DenseI64ArrayAttr dimArgs;
  if (arg && func && arg.getOwner()->isEntryBlock())
    dimArgs = func.getArgAttrOfType<DenseI64ArrayAttr>(
        arg.getArgNumber(), WeftDialect::getDimArgsAttrName());
  Builder b(user->getContext());
  SmallVector<OpFoldResult> extents;
  for (int64_t d = 1; d < type.getRank(); ++d) {
    if (!type.isDynamicDim(d)) {
      extents.push_back(b.getIndexAttr(type.getDimSize(d)));
      continue;
    }
    if (alloc) {
      extents.push_back(alloc.getDynamicSizes()[type.getDynamicDimIndex(d)]);
      continue;
    }
    if (!dimArgs || dimArgs.size() != type.getRank() || dimArgs[d] < 0 ||
        dimArgs[d] >= (int64_t)func.getNumArguments())
      return user->emitOpError("dynamic extent of dimension ")
             << d << " is not available as a 'weft.dim_args' argument";
    extents.push_back(func.getArgument(dimArgs[d]));
  }
  return extents;
}
