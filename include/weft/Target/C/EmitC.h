//===- EmitC.h - Print imported regions as C --------------------*- C++ -*-===//
//
// The C back end of the HPC path: prints each emitc.func of a module (what
// weft-seq-pipeline or weft-mpi-pipeline made of the region functions,
// include/weft/Pipelines/Pipelines.h, prepare-c-emission last) as a C
// function with weft's C printer (TranslateToC.h). It reads the module and
// changes nothing.
//
//===----------------------------------------------------------------------===//
#ifndef WEFT_TARGET_C_EMITC_H
#define WEFT_TARGET_C_EMITC_H

#include "weft/Target/C/TranslateToC.h"

#include "mlir/Dialect/EmitC/IR/EmitC.h"
#include "mlir/IR/BuiltinOps.h"
#include "llvm/ADT/StringMap.h"

#include <string>
#include <vector>

namespace weft {

/// A region function in C.
struct RegionFunctionC {
  std::string definition;
  /// The call's C expression for each parameter, in the C function's order
  /// (which moves extents before their arrays).
  std::vector<std::string> callArgs;
};

/// The call's C expression for each parameter of `func` (its arguments'
/// `weft.c_arg`; empty where there is none).
std::vector<std::string> regionCallArgs(mlir::emitc::FuncOp func);

/// Prints every emitc.func of `module` as `functions[name]`. The header
/// lines the functions need (`#include <stdint.h>`, ...) are in `preamble`.
mlir::LogicalResult
emitRegionFunctions(mlir::ModuleOp module,
                    llvm::StringMap<RegionFunctionC> &functions,
                    std::string &preamble, const CPrintOptions &options = {});

} // namespace weft

#endif // WEFT_TARGET_C_EMITC_H
