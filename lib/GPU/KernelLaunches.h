//===- KernelLaunches.h - What the launches of a kernel say -----*- C++ -*-===//
//
// Private to WeftGPU: the passes that rewrite outlined kernels
// (gpu-stage-tiles, gpu-reduce-blocks) read their block shapes from the
// kernels' launches.
//
//===----------------------------------------------------------------------===//
#ifndef WEFT_LIB_GPU_KERNELLAUNCHES_H
#define WEFT_LIB_GPU_KERNELLAUNCHES_H

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/IR/BuiltinOps.h"
#include "llvm/ADT/DenseMap.h"

#include <array>
#include <optional>
#include <string>

namespace weft {

/// The launches of each kernel (gpu.func) of `module`.
llvm::DenseMap<mlir::Operation *, llvm::SmallVector<mlir::gpu::LaunchFuncOp>>
launchesByKernel(mlir::ModuleOp module);

/// The value of `v` where it folds to a constant (the launch's block sizes
/// come out of the affine maps of the parallel loops' mapping):
/// nominalValue (DeviceNests.h) without named sizes.
std::optional<int64_t> foldToConstant(mlir::Value v);

/// The threads per block along x, y and z that every one of `launches`
/// gives, where they are constants and the same.
std::optional<std::array<int64_t, 3>>
constantBlockShape(llvm::ArrayRef<mlir::gpu::LaunchFuncOp> launches);

/// Whether gpu-reduce-blocks combines partial results of type `t` in warp
/// shuffles (`gpu.shuffle`, `__shfl_down_sync`) in a block of `threads`
/// threads, the threads of a column combining where `columns`, else those
/// of a row or the whole block: 32- and 64-bit integers and floats, in
/// blocks of whole warps, between consecutive lanes (a column's threads are
/// a warp's width apart or more: shared memory).
bool combinesInWarps(mlir::Type t, int64_t threads, bool columns);

/// The name of the array a launch passes as the kernel's argument `arg`
/// (the host array of a device buffer's copies), or "argument N".
std::string kernelArgumentName(mlir::gpu::LaunchFuncOp launch,
                               mlir::BlockArgument arg);

} // namespace weft

#endif // WEFT_LIB_GPU_KERNELLAUNCHES_H
