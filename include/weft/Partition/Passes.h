//===- Passes.h - Arachne distribution passes -------------------*- C++ -*-===//
#ifndef WEFT_PARTITION_PASSES_H
#define WEFT_PARTITION_PASSES_H

#include "dialects/Dist/IR/DistDialect.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Pass/Pass.h"

namespace weft {

#define GEN_PASS_DECL
#include "weft/Partition/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "weft/Partition/Passes.h.inc"

} // namespace weft

#endif // WEFT_PARTITION_PASSES_H
