//===- LocalStorage.h - Rank-local storage of private arrays ----*- C++ -*-===//
//
// Private to WeftPartition. A private array (PrivateFootprint) gets, on
// each rank, storage for the ranges of the dimensions the rank touches
// only in part: accesses subtract each range's start from its subscript.
//
//===----------------------------------------------------------------------===//
#ifndef WEFT_LIB_PARTITION_LOCALSTORAGE_H
#define WEFT_LIB_PARTITION_LOCALSTORAGE_H

#include "weft/Analysis/Polyhedral/Communication.h"

#include "mlir/IR/Builders.h"

namespace weft {

struct LocalStorage {
  mlir::Value array; // the region function's argument
  mlir::Value local; // memref.alloc of the rank's part
  /// The narrowed dimensions and the first index of each it holds.
  llvm::SmallVector<unsigned, 2> dims;
  llvm::SmallVector<mlir::Value, 2> starts;
};

/// Whether `array`'s accesses can be redirected to storage for ranges of
/// dimensions `dims`: every use is a load or a store, and every other
/// dimension has a static extent.
bool canStoreLocally(mlir::Value array, llvm::ArrayRef<unsigned> dims);

/// Allocates storage for [starts[k], ends[k]) of each of `array`'s
/// dimensions `dims[k]` at `b`'s insertion point (an empty range holds
/// nothing).
LocalStorage allocateLocalStorage(mlir::OpBuilder &b, mlir::Location loc,
                                  mlir::Value array,
                                  llvm::ArrayRef<unsigned> dims,
                                  llvm::ArrayRef<mlir::Value> starts,
                                  llvm::ArrayRef<mlir::Value> ends);

/// Makes every access of `s.array` an access of `s.local`, and every message
/// of its elements one of `s.local`'s (with `origin`), and frees `s.local`
/// before the function returns.
void redirectToLocalStorage(const LocalStorage &s);

} // namespace weft

#endif // WEFT_LIB_PARTITION_LOCALSTORAGE_H
