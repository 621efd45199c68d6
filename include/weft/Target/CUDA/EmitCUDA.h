//===- EmitCUDA.h - Print regions as CUDA C++ -------------------*- C++ -*-===//
//
// The printer of the CUDA back end (docs/cuda.md): after
// weft-cuda-pipeline (include/weft/Pipelines/Pipelines.h), prints each
// region's functions, its kernels first, with the MLIR C++ emitter.
//
//===----------------------------------------------------------------------===//
#ifndef WEFT_TARGET_CUDA_EMITCUDA_H
#define WEFT_TARGET_CUDA_EMITCUDA_H

#include "weft/Target/C/EmitC.h"

#include "mlir/IR/BuiltinOps.h"
#include "llvm/ADT/StringMap.h"

#include <string>

namespace weft {

/// Prints every host function of `module` (in EmitC): `functions[name]` is
/// its definition, preceded by the kernels it launches, and its call's
/// arguments.
mlir::LogicalResult
emitCUDARegionFunctions(mlir::ModuleOp module,
                        llvm::StringMap<RegionFunctionC> &functions);

/// What a CUDA output starts with: the runtime header (with its test-only
/// emulation) and the declarations the program's C needs as C++.
std::string cudaPreamble();

/// What follows runtime/mpi/weft_rt_mpi.h in an MPI + CUDA output: the
/// same, and C++ conversions for the MPI runtime's `void *` results.
std::string cudaMpiPreamble();

} // namespace weft

#endif // WEFT_TARGET_CUDA_EMITCUDA_H
