//===- Passes.h - weft conversion passes ------------------------*- C++ -*-===//
#ifndef WEFT_CONVERSION_PASSES_H
#define WEFT_CONVERSION_PASSES_H

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/EmitC/IR/EmitC.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Pass/Pass.h"

namespace weft {

#define GEN_PASS_DECL
#include "weft/Conversion/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "weft/Conversion/Passes.h.inc"

} // namespace weft

#endif // WEFT_CONVERSION_PASSES_H
