//===- LoopBounds.h - Building affine loop bounds ---------------*- C++ -*-===//
//
// Private to WeftPartition: the loop transformations before dist-partition
// (dist-split-pivots, dist-wavefront) build new bounds from the results of
// existing bound maps, each with its own operands; the passes after it
// (dist-vector-runs, dist-name-bounds) compute a loop's bounds once, as
// named values.
//
//===----------------------------------------------------------------------===//
#ifndef WEFT_LIB_PARTITION_LOOPBOUNDS_H
#define WEFT_LIB_PARTITION_LOOPBOUNDS_H

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"

#include <functional>

namespace weft {

/// An affine map with its operands (dims first, then symbols).
struct BoundMap {
  mlir::AffineMap map;
  llvm::SmallVector<mlir::Value> operands;

  static BoundMap lower(mlir::affine::AffineForOp loop);
  static BoundMap upper(mlir::affine::AffineForOp loop);
  /// `v` itself, as a dim (a loop's iterator).
  static BoundMap of(mlir::Value v);
};

/// A bound from the results of `parts`: `combine` gets each part's results
/// over one operand list (every part's dims, then every part's symbols) and
/// returns the bound's results. The bound is their max if `lower`, else
/// their min; repeated results and all constants but the extreme one are
/// dropped.
BoundMap combineBounds(
    llvm::ArrayRef<BoundMap> parts, bool lower,
    const std::function<llvm::SmallVector<mlir::AffineExpr>(
        llvm::ArrayRef<llvm::SmallVector<mlir::AffineExpr>>)> &combine);

/// Sets `loop`'s lower (or upper) bound.
void setBound(mlir::affine::AffineForOp loop, bool lower,
              const BoundMap &bound);

/// Whether `func` is a distributed form: a function the partitioning passes
/// may rewrite (weft::isDistributable) that holds `dist.local_bounds`.
bool isDistributedForm(mlir::func::FuncOp func);

/// `loop`'s lower and upper bound computed just before `at` (affine.max
/// and affine.min of its bound maps), named for the C after its iterator:
/// `i_lo` and `i_hi`. The loop is unchanged.
std::pair<mlir::Value, mlir::Value>
hoistNamedBounds(mlir::affine::AffineForOp loop, mlir::Operation *at);

/// `loc` named for the C after `loop`'s iterator and `suffix` (`i_run`);
/// `loc` itself where the iterator has no source name.
mlir::Location namedAfter(mlir::affine::AffineForOp loop, mlir::Location loc,
                          llvm::StringRef suffix);

} // namespace weft

#endif // WEFT_LIB_PARTITION_LOOPBOUNDS_H
