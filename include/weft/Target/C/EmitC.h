//===- EmitC.h - Print imported regions as C --------------------*- C++ -*-===//
//
// The C back end of the HPC path: lowers the region functions of a module to
// EmitC (lower-affine, linearize-memref-accesses, convert-loops-to-emitc) and
// prints each as a C function with the MLIR C++ emitter.
//
//===----------------------------------------------------------------------===//
#ifndef WEFT_TARGET_C_EMITC_H
#define WEFT_TARGET_C_EMITC_H

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/PassManager.h"
#include "llvm/ADT/StringMap.h"

#include <string>

namespace weft {

/// Adds the passes that take imported region functions to EmitC.
void buildRegionToEmitCPipeline(mlir::OpPassManager &pm);

/// Runs that pipeline on `module` and prints every resulting function:
/// `functions[name]` is its C definition. The header lines the functions
/// need (`#include <stdint.h>`, ...) are in `preamble`.
mlir::LogicalResult emitRegionFunctions(mlir::ModuleOp module,
                                        llvm::StringMap<std::string> &functions,
                                        std::string &preamble);

} // namespace weft

#endif // WEFT_TARGET_C_EMITC_H
