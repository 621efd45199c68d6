//===- MemRefExtents.h - Row-major extents of region memrefs ----*- C++ -*-===//
//
// A memref of a region function is a C pointer: its row-major strides come
// from the extents of its dimensions after the first, which are static, the
// sizes of the memref.alloc that made it, or `index` arguments named by the
// C importer's `weft.dim_args`.
//
//===----------------------------------------------------------------------===//
#ifndef WEFT_CONVERSION_MEMREFEXTENTS_H
#define WEFT_CONVERSION_MEMREFEXTENTS_H

#include "mlir/IR/OpDefinition.h"
#include "llvm/ADT/SmallVector.h"

namespace weft {

/// The extents of dimensions 1 to rank - 1 of `memref`: a static extent as an
/// index attribute, a dynamic one as the value holding it. Fails with an
/// error at `user` when a dynamic extent has no such value.
mlir::FailureOr<llvm::SmallVector<mlir::OpFoldResult>>
getTrailingExtents(mlir::Operation *user, mlir::Value memref);

} // namespace weft

#endif // WEFT_CONVERSION_MEMREFEXTENTS_H
