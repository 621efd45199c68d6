//===- DeviceMapping.h - What GPU code generation asks ISL ------*- C++ -*-===//
//
// Two questions of the CUDA path (docs/cuda.md), answered on the region's
// exact dependences and value-based flow:
//
// * which loops may run their iterations as independent GPU threads: the
//   loop carries no dependence, except anti and output dependences on
//   scalars declared in the region that only the loop uses and that each
//   iteration writes before it reads them (each thread then has its own
//   copy, as each iteration of the C loop has a fresh one);
// * which elements of each array move between host and device memory: the
//   flow-in set (what the region reads that it did not write) before the
//   first kernel and the live-out set (what it writes that lives after it)
//   after the last one, each as the bounding box one strided copy moves.
//
//===----------------------------------------------------------------------===//
#ifndef WEFT_ANALYSIS_POLYHEDRAL_DEVICEMAPPING_H
#define WEFT_ANALYSIS_POLYHEDRAL_DEVICEMAPPING_H

#include "weft/Analysis/Polyhedral/Communication.h"
#include "weft/Analysis/Polyhedral/FlowDependences.h"
#include "weft/Analysis/Polyhedral/PolyhedralRegion.h"

#include "llvm/ADT/DenseMap.h"

namespace weft {

struct DeviceLoopInfo {
  /// For every affine.for: whether its iterations may run as independent
  /// GPU threads.
  llvm::DenseMap<mlir::Operation *, bool> threadParallel;
  /// For a loop that may not: an array through which it carries a
  /// dependence (null when none can be named).
  llvm::DenseMap<mlir::Operation *, mlir::Value> carriedThrough;
  /// For a loop that may not only because several of its iterations apply
  /// reduction updates `X[e] = X[e] op v` to one element: those updates.
  /// Its threads may run if each combines its own updates and the partial
  /// results are then combined (in an order of their own: floating-point
  /// sums round differently).
  llvm::DenseMap<mlir::Operation *,
                 llvm::SmallVector<FlowDependenceInfo::Reduction, 1>>
      reductions;
};

/// Fails with an error on the function when ISL fails or exceeds
/// `maxOperations`, and quietly when the function is not a static control
/// part (the model builder's remarks say why).
mlir::FailureOr<DeviceLoopInfo> computeDeviceLoops(PolyhedralRegion &region,
                                                   unsigned long maxOperations);

/// The scalars the region writes through rank-0 arguments that are private
/// to it: no code outside reads them (weft.region_only) and every read in
/// the region sees a value the region wrote. Each GPU thread may have its
/// own copy of such a temporary (gpu-localize-scalars). Fails like
/// computeDeviceLoops.
mlir::FailureOr<llvm::SmallVector<mlir::Value>>
computePrivateScalarArguments(PolyhedralRegion &region,
                              unsigned long maxOperations);

/// A box of array elements: subscripts in [lo, hi) per dimension, as
/// expressions of the function's symbols (empty where the set it bounds is).
struct DeviceBox {
  /// Whether the set it bounds is empty for every value of the symbols.
  bool empty = true;
  /// Whether the box holds only elements of that set.
  bool exact = true;
  llvm::SmallVector<std::pair<AstExpr, AstExpr>, 3> bounds;
};

struct DeviceArrayTransfers {
  mlir::Value memref;
  /// Every element the region accesses.
  DeviceBox accessed;
  /// Host to device before the first kernel: the flow-in elements, plus,
  /// when `out` is not exact, the rest of `out` (the copy back must find
  /// the host's values there).
  DeviceBox in;
  /// Whether `in` moves only flow-in elements.
  bool inIsFlowIn = true;
  /// Device to host after the last kernel: the live-out elements.
  DeviceBox out;
};

struct DeviceTransfers {
  std::vector<DeviceArrayTransfers> arrays;
  /// Every parameter of the boxes (all of them Symbol), by ISL name.
  std::vector<std::pair<std::string, CommParam>> params;
};

/// The transfers of `memrefs` (arguments or allocations of the region's
/// function that the model knows; others are left out). Fails with an error
/// when ISL fails or exceeds `maxOperations`, or a box is unbounded.
mlir::FailureOr<DeviceTransfers>
computeDeviceTransfers(PolyhedralRegion &region,
                       llvm::ArrayRef<mlir::Value> memrefs,
                       unsigned long maxOperations);

} // namespace weft

#endif // WEFT_ANALYSIS_POLYHEDRAL_DEVICEMAPPING_H
