//===- WeftDialect.td - The weft dialect ---------------------*- tablegen -*-===//
//
// Part of the weft project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
#ifndef WEFT_DIALECTS_WEFT_IR_WEFTDIALECT_TD
#define WEFT_DIALECTS_WEFT_IR_WEFTDIALECT_TD

include "mlir/IR/OpBase.td"

def Weft_Dialect : Dialect {
  let name = "weft";
  let summary = "What the C front end knows about a region's arguments, "
                "loops and functions";
  let description = [{
    The `weft` dialect has no operations. It owns and verifies the
    discardable `weft.*` attributes that the C importer and the
    `#pragma weft` directives record on region functions, and that the
    partitioning passes and the lowering to C read:

    | attribute | on | value | meaning |
    |---|---|---|---|
    | `weft.c_arg` | function argument | string | the C expression the call site passes |
    | `weft.c_type` | memref argument, or its C form | string | the C element type the argument's pointer points to where the fixed-width type of its element type is another C type (`long long` where `int64_t` is `long`: C forbids reaching an object through a pointer to a different integer type) |
    | `weft.dim_args` | memref argument, or its C form: an `emitc.func` argument passed as a pointer to rows (`!emitc.opaque<"double (*)[*]">`) | `array<i64>`, one per dimension | the `index` (in C, `i64`) argument holding each dimension's extent, -1 where it is static or not needed |
    | `weft.may_alias` | memref argument | unit | reached through a pointer without `restrict`: may overlap another argument |
    | `weft.noalias` | memref argument | unit | `#pragma weft noalias`: the user asserts it overlaps no other argument |
    | `weft.region_only` | memref argument | unit | no code outside the region reads the array |
    | `weft.local` | memref argument | unit | `#pragma weft local`: private to the region |
    | `weft.parallel` | loop | unit | `#pragma weft parallel`: the user asserts the loop carries no dependence |
    | `weft.nodist` | function | unit | `#pragma weft nodist`: the region runs as written on every rank |
    | `weft.gpu.band` | loop | i64 | gpu-select-nests: the loop and the next band - 1 loops nested in it are a device nest's grid dimensions |
    | `weft.gpu.coalesced` | loop | i64 | gpu-select-nests: which loop of the band maps to `threadIdx.x` |
    | `weft.gpu.grid_blocks` | loop | i64 | gpu-select-nests: on a device nest that combines reductions, the most blocks its grid needs (two waves of resident blocks on `--gpu`); gpu-map-loops makes each thread run every n-th iteration along x beyond them (a grid-stride loop) |
    | `weft.gpu.parts` | loop | i64 | gpu-expose-bands: adjacent loops with the same value are the parts one loop was distributed into; gpu-select-nests places them together |
    | `weft.gpu.reduce` | `affine.store`, `memref.atomic_rmw` | string: `add`, `mul`, `max`, `min` | gpu-select-nests: a reduction update whose element the device nest's threads combine; gpu-map-loops: the atomic that adds a thread's partial result, which gpu-reduce-blocks combines per block first |
    | `weft.c_int` | `scf.for`, `emitc.for` | unit | narrow-iterators: the C printer declares the induction variable `int`, as the source did |
    | `weft.c_specifiers` | function | array of strings | convert-gpu-to-emitc: the C specifiers the function is printed with (`static`, `__global__`) |

    See docs/dialects/dist.md and docs/directives.md.
  }];
  let cppNamespace = "::weft";
  let hasOperationAttrVerify = 1;
  let hasRegionArgAttrVerify = 1;
  let extraClassDeclaration = [{
    static constexpr ::llvm::StringLiteral getCArgAttrName() {
      return ::llvm::StringLiteral("weft.c_arg");
    }
    static constexpr ::llvm::StringLiteral getCTypeAttrName() {
      return ::llvm::StringLiteral("weft.c_type");
    }
    static constexpr ::llvm::StringLiteral getDimArgsAttrName() {
      return ::llvm::StringLiteral("weft.dim_args");
    }
    static constexpr ::llvm::StringLiteral getMayAliasAttrName() {
      return ::llvm::StringLiteral("weft.may_alias");
    }
    static constexpr ::llvm::StringLiteral getNoAliasAttrName() {
      return ::llvm::StringLiteral("weft.noalias");
    }
    static constexpr ::llvm::StringLiteral getRegionOnlyAttrName() {
      return ::llvm::StringLiteral("weft.region_only");
    }
    static constexpr ::llvm::StringLiteral getLocalAttrName() {
      return ::llvm::StringLiteral("weft.local");
    }
    static constexpr ::llvm::StringLiteral getParallelAttrName() {
      return ::llvm::StringLiteral("weft.parallel");
    }
    static constexpr ::llvm::StringLiteral getNoDistAttrName() {
      return ::llvm::StringLiteral("weft.nodist");
    }
    static constexpr ::llvm::StringLiteral getGpuBandAttrName() {
      return ::llvm::StringLiteral("weft.gpu.band");
    }
    static constexpr ::llvm::StringLiteral getGpuCoalescedAttrName() {
      return ::llvm::StringLiteral("weft.gpu.coalesced");
    }
    static constexpr ::llvm::StringLiteral getGpuPartsAttrName() {
      return ::llvm::StringLiteral("weft.gpu.parts");
    }
    // On a parallel loop gpu-expose-bands interchanged with the loop that
    // carried it, which now runs in each thread: gpu-select-nests swaps
    // them back where the nest stays on the host.
    static constexpr ::llvm::StringLiteral getGpuInterchangedAttrName() {
      return ::llvm::StringLiteral("weft.gpu.interchanged");
    }
    // On a device nest's outermost loop: threads per block along x, y, z
    // (the cost model's choice); on the sequential loop inside a 2-D nest:
    // the width of the shared-memory tiles gpu-stage-tiles stages.
    static constexpr ::llvm::StringLiteral getGpuBlockAttrName() {
      return ::llvm::StringLiteral("weft.gpu.block");
    }
    static constexpr ::llvm::StringLiteral getGpuTileAttrName() {
      return ::llvm::StringLiteral("weft.gpu.tile");
    }
    // On that sequential loop too: the elements each thread computes along
    // x and y (register tiles gpu-stage-tiles builds with the tiles).
    static constexpr ::llvm::StringLiteral getGpuCoarsenAttrName() {
      return ::llvm::StringLiteral("weft.gpu.coarsen");
    }
    // On a device nest that combines reductions: the most blocks its grid
    // needs; beyond them each thread runs a grid-stride loop along x.
    static constexpr ::llvm::StringLiteral getGpuGridBlocksAttrName() {
      return ::llvm::StringLiteral("weft.gpu.grid_blocks");
    }
    // On gpu.alloc, gpu.memcpy and gpu.dealloc of --target=mpi-cuda's
    // distributed regions: the buffer stays on the device across nests and
    // the copies move only what is newer on the other side (docs/cuda.md).
    static constexpr ::llvm::StringLiteral getGpuResidentAttrName() {
      return ::llvm::StringLiteral("weft.gpu.resident");
    }
    static constexpr ::llvm::StringLiteral getGpuReduceAttrName() {
      return ::llvm::StringLiteral("weft.gpu.reduce");
    }
    // "device" or "host": `#pragma weft device` / `host` on the loop.
    static constexpr ::llvm::StringLiteral getGpuPlaceAttrName() {
      return ::llvm::StringLiteral("weft.gpu.place");
    }
    // On the loop over a full shared-memory tile (a constant trip count):
    // the CUDA printer asks nvcc to unroll it completely.
    static constexpr ::llvm::StringLiteral getUnrollAttrName() {
      return ::llvm::StringLiteral("weft.unroll");
    }
    static constexpr ::llvm::StringLiteral getCIntAttrName() {
      return ::llvm::StringLiteral("weft.c_int");
    }
    static constexpr ::llvm::StringLiteral getCSpecifiersAttrName() {
      return ::llvm::StringLiteral("weft.c_specifiers");
    }
  }];
}

#endif // WEFT_DIALECTS_WEFT_IR_WEFTDIALECT_TD
