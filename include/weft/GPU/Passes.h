//===- Passes.h - Loop nests to GPU kernels ---------------------*- C++ -*-===//
#ifndef WEFT_GPU_PASSES_H
#define WEFT_GPU_PASSES_H

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/EmitC/IR/EmitC.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Pass/Pass.h"

#include "dialects/Weft/IR/WeftDialect.h"

namespace weft {

/// On the outermost loop of a nest gpu-select-nests puts on the device: how
/// many perfectly nested loops from it become the dimensions of the grid of
/// threads (1 to 3).
inline constexpr llvm::StringLiteral kGpuBandAttr =
    WeftDialect::getGpuBandAttrName();
/// On the same loop: which of those loops (0: the outermost) walks the
/// contiguous dimension of the arrays, and so maps to threadIdx.x.
inline constexpr llvm::StringLiteral kGpuCoalescedAttr =
    WeftDialect::getGpuCoalescedAttrName();

/// On each loop gpu-expose-bands distributed one loop into: adjacent loops
/// with the same value are its parts, which gpu-select-nests places
/// together, as any adjacent nests, and names as such in its remarks.
inline constexpr llvm::StringLiteral kGpuPartsAttr =
    WeftDialect::getGpuPartsAttrName();

/// On a parallel loop gpu-expose-bands moved outside the loop that carried
/// it, to be a grid of its own; gpu-select-nests swaps the two back where
/// the nest stays on the host.
inline constexpr llvm::StringLiteral kGpuInterchangedAttr =
    WeftDialect::getGpuInterchangedAttrName();

/// On the device buffer of a host array in a distributed region and its
/// copies: the runtime keeps the buffer across nests, and the copies move
/// only what is newer on the other side (weft_cuda_resident*).
inline constexpr llvm::StringLiteral kGpuResidentAttr =
    WeftDialect::getGpuResidentAttrName();

#define GEN_PASS_DECL
#include "weft/GPU/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "weft/GPU/Passes.h.inc"

} // namespace weft

#endif // WEFT_GPU_PASSES_H
