//===- Dispatcher.h - The function a region's call site calls ---*- C++ -*-===//
//
// Private to WeftPartition: dist-alias-check and dist-run-on-root both give
// a region's call site a dispatcher, which chooses among the region's forms
// (the function as written, its distributed form, rank 0 alone).
//
//===----------------------------------------------------------------------===//
#ifndef WEFT_LIB_PARTITION_DISPATCHER_H
#define WEFT_LIB_PARTITION_DISPATCHER_H

#include "mlir/Dialect/Func/IR/FuncOps.h"

namespace weft {

/// A function `name` of `form`'s type and argument attributes, right after
/// `form`, marked `dist.alias_check` (the other dist passes leave it
/// alone), its arguments named as `form`'s (their source names); its entry
/// block is empty.
mlir::func::FuncOp createDispatcher(mlir::func::FuncOp form,
                                    llvm::StringRef name);

} // namespace weft

#endif // WEFT_LIB_PARTITION_DISPATCHER_H
