//===- AstToLoops.h - ISL ASTs as scf loops ---------------------*- C++ -*-===//
//
// Part of WeftPartition (the GPU passes use it too). Builds scf.for / scf.if /
// arith (index) ops that enumerate the elements of an AST from Communication.h,
// calling back for each element with its subscripts.
//
//===----------------------------------------------------------------------===//
#ifndef WEFT_PARTITION_ASTTOLOOPS_H
#define WEFT_PARTITION_ASTTOLOOPS_H

#include "weft/Analysis/Polyhedral/Communication.h"

#include "mlir/IR/Builders.h"
#include "llvm/ADT/StringMap.h"

namespace weft {

/// Emits `node` at `b`'s insertion point. `ids` gives the value of every
/// parameter the AST uses. Fails (without emitting a diagnostic) on an AST
/// it cannot express.
mlir::LogicalResult
emitAstLoops(mlir::OpBuilder &b, mlir::Location loc, const AstNode &node,
             llvm::StringMap<mlir::Value> ids,
             llvm::function_ref<void(mlir::ValueRange)> element);

/// Emits one AST expression (index-typed, or i1 for a condition).
mlir::FailureOr<mlir::Value> emitAstExpr(mlir::OpBuilder &b, mlir::Location loc,
                                         const AstExpr &expr,
                                         llvm::StringMap<mlir::Value> ids);

} // namespace weft

#endif // WEFT_PARTITION_ASTTOLOOPS_H
