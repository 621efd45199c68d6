//===- Wavefront.h - Legality of a wavefront schedule -----------*- C++ -*-===//
//
// A time loop t whose body is one loop i that carries a flow dependence
// (Gauss-Seidel sweeps) has no loop that can be split across ranks. Run as
// a wavefront, with i cut in tiles of `tile` iterations, tile (t, b) at
// stage s = skew * t + b, the tiles of one stage are independent if the
// schedule keeps every dependence: dist-wavefront then makes the tiles of
// a stage the loop that dist-partition distributes.
//
//===----------------------------------------------------------------------===//
#ifndef WEFT_ANALYSIS_POLYHEDRAL_WAVEFRONT_H
#define WEFT_ANALYSIS_POLYHEDRAL_WAVEFRONT_H

#include "weft/Analysis/Polyhedral/PolyhedralRegion.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"

namespace weft {

/// Whether executing the instances inside `timeLoop` (whose body is one
/// loop) in the order (skew * t + floor(i / tile), floor(i / tile), i, ...)
/// keeps the order of every pair of dependent instances (flow, anti and
/// output dependences). Fails with an error on the function when it is
/// not a static control part or ISL exceeds `maxOperations` (0: no limit).
mlir::FailureOr<bool>
wavefrontKeepsDependences(PolyhedralRegion &region,
                          mlir::affine::AffineForOp timeLoop, int64_t skew,
                          int64_t tile, unsigned long maxOperations);

} // namespace weft

#endif // WEFT_ANALYSIS_POLYHEDRAL_WAVEFRONT_H
