//===- LoopNestCounts.h - What one loop nest does, counted -----*- C++ -*-===//
//
// The counts behind the CUDA targets' choice of where a loop nest runs
// (LoopNestCost.h), from the region's ISL model at sizes fixed at compile
// time: a size the region knows as a constant takes its value, any other
// the value NominalSizes gives it (`--size=NAME=VALUE`, else `--nominal-size`).
//
//===----------------------------------------------------------------------===//
#ifndef WEFT_ANALYSIS_POLYHEDRAL_LOOPNESTCOUNTS_H
#define WEFT_ANALYSIS_POLYHEDRAL_LOOPNESTCOUNTS_H

#include "weft/Analysis/Polyhedral/PolyhedralRegion.h"
#include "weft/CostModel/LoopNestCost.h"
#include "weft/CostModel/NominalSizes.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "llvm/ADT/DenseMap.h"

namespace weft {

/// The counts of the nest rooted at `loop`, over all its executions:
/// accesses (statement instances), floating-point operations (the accesses
/// times the nest's ratio of arithmetic ops to loads and stores), launches
/// (the iterations of the loops around it), the bytes one launch touches
/// (each array's distinct elements, the loops around it at the middle of
/// their ranges) times the launches, and the copies the data placement
/// makes for it: the bounding box of the elements it reads that the region
/// did not write before, in, and of the elements it writes that live after
/// the region, out; and what one core of `cpu` moves through its caches
/// running it. A symbol in `known` takes its value there. Fails with an
/// error when ISL fails or exceeds `maxOperations`.
mlir::FailureOr<cost::LoopNestCounts>
countLoopNest(PolyhedralRegion &region, mlir::affine::AffineForOp loop,
              const cost::NominalSizes &sizes,
              const llvm::DenseMap<mlir::Value, int64_t> &known,
              const cost::DeviceSpec &cpu, unsigned long maxOperations);

/// The copies (bytesIn, bytesOut, copies; the other counts zero) a
/// placement of adjacent loop nests makes, `onDevice[k]` saying where
/// `nests[k]` runs, as gpu-place-data moves data: an array that a host nest
/// of `nests` accesses too moves around each launch of each device nest
/// that accesses it (in, the box of what the launch accesses; out, of what
/// it writes; times the launches); any other array the device nests access
/// moves once (in, the box of what they read that the region did not write
/// before; out, of what they write that lives after the region). Fails as
/// countLoopNest.
mlir::FailureOr<cost::LoopNestCounts> countPlacementCopies(
    PolyhedralRegion &region, llvm::ArrayRef<mlir::affine::AffineForOp> nests,
    llvm::ArrayRef<bool> onDevice, const cost::NominalSizes &sizes,
    const llvm::DenseMap<mlir::Value, int64_t> &known,
    unsigned long maxOperations);

} // namespace weft

#endif // WEFT_ANALYSIS_POLYHEDRAL_LOOPNESTCOUNTS_H
