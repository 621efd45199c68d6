//===- DeviceNests.h - Device nests of one function -------------*- C++ -*-===//
//
// Private to WeftGPU: what gpu-select-nests and gpu-place-data do to one
// function, also applied by gpu-offload-nests to each loop nest of a
// distributed function, outlined on its own.
//
//===----------------------------------------------------------------------===//
#ifndef WEFT_LIB_GPU_DEVICENESTS_H
#define WEFT_LIB_GPU_DEVICENESTS_H

#include "mlir/Dialect/Func/IR/FuncOps.h"

namespace weft {

/// Marks the device nests of `func` (weft.gpu.band, weft.gpu.coalesced);
/// with `report`, says where each loop nest runs and why.
void selectDeviceNests(mlir::func::FuncOp func, bool report,
                       unsigned long maxIslOperations);

/// Gives the marked nests of `func` device buffers and transfers; where it
/// cannot, removes the marks (with a remark when `report`).
void placeDeviceData(mlir::func::FuncOp func, bool report,
                     unsigned long maxIslOperations);

} // namespace weft

#endif // WEFT_LIB_GPU_DEVICENESTS_H
