//===- Wavefront.h - Legality of a wavefront schedule -----------*- C++ -*-===//
//
// A time loop t whose body is one loop i that carries a flow dependence
// (Gauss-Seidel sweeps) has no loop that can be split across ranks. Run as
// a wavefront, with i cut in tiles of `tile` iterations, tile (t, b) at
// stage s = skew * t + b, the tiles of one stage are independent if the
// new order computes the same values: dist-wavefront then makes the tiles
// of a stage the loop that dist-partition distributes.
//
//===----------------------------------------------------------------------===//
#ifndef WEFT_ANALYSIS_POLYHEDRAL_WAVEFRONT_H
#define WEFT_ANALYSIS_POLYHEDRAL_WAVEFRONT_H

#include "weft/Analysis/Polyhedral/PolyhedralRegion.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"

namespace weft {

/// Whether executing the instances inside `timeLoop` (whose body is one
/// loop) in the order (skew * t + floor(i / tile), floor(i / tile), i, ...)
/// computes the same values: every read, and every value live after the
/// region, comes from the same write as in the original order (ISL's exact
/// flow under both schedules). Reuse of memory, such as a scalar temporary
/// rewritten by every iteration, may be reordered. Fails with an error on
/// the function when it is not a static control part or ISL exceeds
/// `maxOperations` (0: no limit).
mlir::FailureOr<bool>
wavefrontKeepsDependences(PolyhedralRegion &region,
                          mlir::affine::AffineForOp timeLoop, int64_t skew,
                          int64_t tile, unsigned long maxOperations);

} // namespace weft

#endif // WEFT_ANALYSIS_POLYHEDRAL_WAVEFRONT_H
