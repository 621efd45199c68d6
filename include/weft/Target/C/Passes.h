//===- Passes.h - Passes that prepare EmitC for printing --------*- C++ -*-===//
#ifndef WEFT_TARGET_C_PASSES_H
#define WEFT_TARGET_C_PASSES_H

#include "dialects/Weft/IR/WeftDialect.h"
#include "mlir/Dialect/EmitC/IR/EmitC.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/Pass.h"

namespace weft {

#define GEN_PASS_DECL
#include "weft/Target/C/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "weft/Target/C/Passes.h.inc"

} // namespace weft

#endif // WEFT_TARGET_C_PASSES_H
