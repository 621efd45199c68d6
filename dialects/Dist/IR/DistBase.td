//===- DistBase.td - Dist dialect definition ---------------*- tablegen -*-===//
//
// Part of the weft project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
#ifndef WEFT_DIALECTS_DIST_IR_DISTBASE_TD
#define WEFT_DIALECTS_DIST_IR_DISTBASE_TD

include "mlir/IR/OpBase.td"

def Dist_Dialect : Dialect {
  let name = "dist";
  let summary = "Distribution of loop nests and arrays over a process grid";
  let description = [{
    The `dist` dialect describes how loop iterations and array elements are
    split across the ranks of a process grid, and the explicit communication
    (halo exchange, redistribution, reduction, broadcast, gather) that the
    Arachne code generator emits.

    Memref operands of the communication ops are each rank's *local
    storage*; the layout attribute of an op says how the global array maps
    onto the ranks' local buffers. See docs/dialects/dist.md.
  }];
  let cppNamespace = "::weft::dist";
  let useDefaultAttributePrinterParser = 1;
  let hasConstantMaterializer = 1;
  // `dist.layout` as a discardable attribute on loops, allocations, globals
  // and function arguments/results.
  let hasOperationAttrVerify = 1;
  let hasRegionArgAttrVerify = 1;
  let hasRegionResultAttrVerify = 1;
  let dependentDialects = ["::mlir::arith::ArithDialect"];
  let extraClassDeclaration = [{
    /// Registers the attributes (defined in DistAttrs.cpp, next to their
    /// storage classes).
    void registerAttributes();

    /// Name of the discardable attribute that carries a `#dist.layout`.
    static constexpr ::llvm::StringLiteral getLayoutAttrName() {
      return ::llvm::StringLiteral("dist.layout");
    }
    /// The process grid a function's layouts refer to (a #dist.grid on a
    /// function-like op).
    static constexpr ::llvm::StringLiteral getGridAttrName() {
      return ::llvm::StringLiteral("dist.grid");
    }
    /// The partitioner's decisions, from dist-partition to dist-materialize:
    /// a unit of work (unit attribute); how a loop unit is split (a
    /// #dist.dim, or a #dist.layout of two loops over a 2-D grid); the kind
    /// of a reduction update combined across ranks (on its store).
    static constexpr ::llvm::StringLiteral getUnitAttrName() {
      return ::llvm::StringLiteral("dist.unit");
    }
    static constexpr ::llvm::StringLiteral getDistributeAttrName() {
      return ::llvm::StringLiteral("dist.distribute");
    }
    static constexpr ::llvm::StringLiteral getReduceAttrName() {
      return ::llvm::StringLiteral("dist.reduce");
    }
    /// On a unit's loop whose only op is an innermost loop that walks
    /// consecutive elements along it (mvt's `x2[i] += A[j][i] * y[j]`):
    /// dist-interchange-inner proved the two may swap, and
    /// dist-interchange-local swaps them in each rank's part, once
    /// dist-materialize has cut the unit's loops to it (unit attribute).
    static constexpr ::llvm::StringLiteral getInterchangeAttrName() {
      return ::llvm::StringLiteral("dist.interchange");
    }
    /// The pieces of a loop split at its pivot (dist-split-pivots): one
    /// integer id per split loop, so that their blocks line up.
    static constexpr ::llvm::StringLiteral getPivotSplitAttrName() {
      return ::llvm::StringLiteral("dist.pivot_split");
    }
    /// dist-alias-check's forms of a region (unit attributes on functions):
    /// the region as written, which the other dist passes leave alone; the
    /// dispatcher, which checks the arguments for overlap; the distributed
    /// form, whose written arguments share no memory with another argument
    /// (convert-loops-to-emitc makes them `restrict`).
    static constexpr ::llvm::StringLiteral getSequentialAttrName() {
      return ::llvm::StringLiteral("dist.sequential");
    }
    static constexpr ::llvm::StringLiteral getAliasCheckAttrName() {
      return ::llvm::StringLiteral("dist.alias_check");
    }
    static constexpr ::llvm::StringLiteral getArgsDisjointAttrName() {
      return ::llvm::StringLiteral("dist.args_disjoint");
    }
  }];
}

class Dist_Op<string mnemonic, list<Trait> traits = []>
    : Op<Dist_Dialect, mnemonic, traits>;

#endif // WEFT_DIALECTS_DIST_IR_DISTBASE_TD
