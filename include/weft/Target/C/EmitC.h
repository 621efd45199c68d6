//===- EmitC.h - Print imported regions as C --------------------*- C++ -*-===//
//
// The C back end of the HPC path: lowers the region functions of a module to
// EmitC (lower-affine, linearize-memref-accesses, convert-loops-to-emitc),
// prepares it for C (prepare-c-emission) and prints each function with
// weft's C printer (TranslateToC.h).
//
//===----------------------------------------------------------------------===//
#ifndef WEFT_TARGET_C_EMITC_H
#define WEFT_TARGET_C_EMITC_H

#include "weft/Target/C/TranslateToC.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/PassManager.h"
#include "llvm/ADT/StringMap.h"

#include <string>
#include <vector>

namespace weft {

/// Adds the passes that take imported region functions to EmitC.
void buildRegionToEmitCPipeline(mlir::OpPassManager &pm);

/// A region function in C.
struct RegionFunctionC {
  std::string definition;
  /// The call's C expression for each parameter, in the C function's order
  /// (which moves extents before their arrays).
  std::vector<std::string> callArgs;
};

/// Runs that pipeline on `module` and prints every resulting function as
/// `functions[name]`. The header lines the functions need (`#include
/// <stdint.h>`, ...) are in `preamble`.
mlir::LogicalResult
emitRegionFunctions(mlir::ModuleOp module,
                    llvm::StringMap<RegionFunctionC> &functions,
                    std::string &preamble, const CPrintOptions &options = {});

} // namespace weft

#endif // WEFT_TARGET_C_EMITC_H
