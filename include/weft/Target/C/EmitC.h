//===- EmitC.h - Print imported regions as C --------------------*- C++ -*-===//
//
// The C back end of the HPC path: prints each emitc.func of a module (what
// weft-seq-pipeline or weft-mpi-pipeline made of the region functions,
// include/weft/Pipelines/Pipelines.h) as a C function with the MLIR C++
// emitter. It reads the module and changes nothing.
//
//===----------------------------------------------------------------------===//
#ifndef WEFT_TARGET_C_EMITC_H
#define WEFT_TARGET_C_EMITC_H

#include "mlir/IR/BuiltinOps.h"
#include "llvm/ADT/StringMap.h"

#include <string>

namespace weft {

/// Prints every emitc.func of `module`: `functions[name]` is its C
/// definition. The header lines the functions need (`#include <stdint.h>`,
/// ...) are in `preamble`.
mlir::LogicalResult emitRegionFunctions(mlir::ModuleOp module,
                                        llvm::StringMap<std::string> &functions,
                                        std::string &preamble);

} // namespace weft

#endif // WEFT_TARGET_C_EMITC_H
