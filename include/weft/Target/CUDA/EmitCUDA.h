//===- EmitCUDA.h - Print regions as CUDA C++ -------------------*- C++ -*-===//
//
// The CUDA back end of the HPC path (docs/cuda.md): chooses the device nests
// of each region, gives them device copies of their data, maps them to
// blocks and threads, outlines them as kernels and lowers everything to
// EmitC; then prints each region's functions (its kernels first) with the
// MLIR C++ emitter.
//
//===----------------------------------------------------------------------===//
#ifndef WEFT_TARGET_CUDA_EMITCUDA_H
#define WEFT_TARGET_CUDA_EMITCUDA_H

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/PassManager.h"
#include "llvm/ADT/StringMap.h"

#include <string>

namespace weft {

struct CUDAPipelineOptions {
  /// Explain where each nest runs and what moves, as remarks.
  bool report = false;
};

/// Adds the passes from imported region functions (after dist-alias-check)
/// to kernels and host code in EmitC.
void buildRegionToCUDAPipeline(mlir::OpPassManager &pm,
                               const CUDAPipelineOptions &options);

/// Runs that pipeline on `module` and prints every resulting host function:
/// `functions[name]` is its definition, preceded by the kernels it launches.
mlir::LogicalResult
emitCUDARegionFunctions(mlir::ModuleOp module,
                        const CUDAPipelineOptions &options,
                        llvm::StringMap<std::string> &functions);

/// What a CUDA output starts with: the runtime header (with its test-only
/// emulation) and the declarations the program's C needs as C++.
std::string cudaPreamble();

} // namespace weft

#endif // WEFT_TARGET_CUDA_EMITCUDA_H
