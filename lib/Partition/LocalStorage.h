//===- LocalStorage.h - Rank-local storage of private arrays ----*- C++ -*-===//
//
// Private to WeftPartition. A private array (PrivateFootprint) gets, on
// each rank, storage for the range of one dimension the rank touches:
// accesses subtract the range's start from that subscript.
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
  mlir::Value start; // first index of dimension `dim` it holds
  unsigned dim;
};

/// Whether `array`'s accesses can be redirected to storage for a range of
/// dimension `dim`: every use is a load or a store, and every other
/// dimension has a static extent.
bool canStoreLocally(mlir::Value array, unsigned dim);

/// Allocates storage for [start, end) of `array`'s dimension `dim` at `b`'s
/// insertion point (nothing when end <= start).
LocalStorage allocateLocalStorage(mlir::OpBuilder &b, mlir::Location loc,
                                  mlir::Value array, unsigned dim,
                                  mlir::Value start, mlir::Value end);

/// Makes every access of `s.array` an access of `s.local`, and frees
/// `s.local` before the function returns.
void redirectToLocalStorage(const LocalStorage &s);

} // namespace weft

#endif // WEFT_LIB_PARTITION_LOCALSTORAGE_H
