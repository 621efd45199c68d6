//===- ExpandScalars.h - Scalars kept per iteration of a loop ---*- C++ -*-===//
//
// Private to WeftPartition. deriche's column passes, `for j { ym1 = 0; ...;
// for i { y1[i][j] = ... ym1 ...; ym1 = y1[i][j]; } }`, carry a chain
// along i through scalars that each iteration of j sets first: the loop
// over i walks columns, and the scalars tie it to j. Kept in arrays indexed
// by j (`ym1[j]`), each iteration's chain is its own, and dist-interchange-
// inner may move the loop over i outside (dist-interchange-local swaps it).
// The same for ludcmp's `w`, set from A[i][j] in each iteration of its loop
// over j >= i inside the loop over i, its sum walking column j. Tentative:
// the expansion is undone where the interchange turns out illegal.
//
//===----------------------------------------------------------------------===//
#ifndef WEFT_LIB_PARTITION_EXPANDSCALARS_H
#define WEFT_LIB_PARTITION_EXPANDSCALARS_H

#include "mlir/Dialect/Affine/IR/AffineOps.h"

namespace weft {

/// Scalars put in arrays by expandScalars.
struct ExpandedScalars {
  /// The ops made around the loop: the arrays' size, the arrays, their
  /// frees.
  llvm::SmallVector<mlir::Operation *> made;
  /// Each access now to an array, with the scalar it accessed.
  llvm::SmallVector<std::pair<mlir::Operation *, mlir::Value>> accesses;
  /// The scalars, in the order of their arrays.
  llvm::SmallVector<mlir::Value> scalars;
};

/// Puts each scalar (rank-0 memref) stored into in `outer` (a loop of step
/// 1 with one lower and one upper bound; `inner` is the first loop in it
/// that may move) in an array of `outer`'s trip count indexed by its
/// iterator less its lower bound, made right before `outer` and freed right
/// after it, where each may be: a local of the region or an argument no
/// code after it reads (`weft.region_only`); in `outer` accessed by affine
/// loads and stores only, and stored by an op of `outer`'s body before
/// `inner` and before any read in each iteration; after `outer`, stored
/// again before any read (in its block, and where that is a loop's body in
/// the next iteration and after that loop, and so on out). Fails, changing
/// nothing, where one may not; nothing to expand is an empty success.
mlir::FailureOr<ExpandedScalars> expandScalars(mlir::affine::AffineForOp outer,
                                               mlir::affine::AffineForOp inner);

/// Undoes `expanded`: the scalars' accesses back, the arrays gone.
void restoreScalars(ExpandedScalars &expanded);

} // namespace weft

#endif // WEFT_LIB_PARTITION_EXPANDSCALARS_H
