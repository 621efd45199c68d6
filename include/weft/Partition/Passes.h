//===- Passes.h - Arachne distribution passes -------------------*- C++ -*-===//
#ifndef WEFT_PARTITION_PASSES_H
#define WEFT_PARTITION_PASSES_H

#include "dialects/Dist/IR/DistDialect.h"
#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/EmitC/IR/EmitC.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Pass/Pass.h"

namespace weft {

/// The names dist-alias-check gives a checked region's forms: the region
/// function's name plus these (the dispatcher keeps the name). The
/// overlapping form, the region as written for arguments that overlap,
/// exists only where the arguments are checked at entry and more than one
/// process runs the region; the sequential form then runs on one process
/// with arguments checked disjoint.
inline constexpr llvm::StringLiteral kOverlappingSuffix = "_overlapping";
inline constexpr llvm::StringLiteral kSequentialSuffix = "_sequential";
inline constexpr llvm::StringLiteral kDistributedSuffix = "_distributed";
/// The name dist-run-on-root gives a region nothing distributed (its
/// dispatcher, calling it on rank 0 alone, keeps the region's name).
inline constexpr llvm::StringLiteral kRank0Suffix = "_rank0";

/// Whether the partitioning passes may rewrite `func`: not the sequential
/// copy or the dispatcher of a region checked for overlapping arguments.
inline bool isDistributable(mlir::func::FuncOp func) {
  return !func->hasAttr(dist::DistDialect::getSequentialAttrName()) &&
         !func->hasAttr(dist::DistDialect::getAliasCheckAttrName());
}

#define GEN_PASS_DECL
#include "weft/Partition/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "weft/Partition/Passes.h.inc"

} // namespace weft

#endif // WEFT_PARTITION_PASSES_H
