//===- Passes.td - weft conversion passes ------------------*- tablegen -*-===//
#ifndef WEFT_CONVERSION_PASSES_TD
#define WEFT_CONVERSION_PASSES_TD

include "mlir/Pass/PassBase.td"

def ConvertLoopsToEmitC : Pass<"convert-loops-to-emitc", "::mlir::ModuleOp"> {
  let summary = "Lower imported region functions (scf, arith, math, memref, func) to EmitC";
  let description = [{
    Converts the functions that the C front end produces, after `lower-affine`,
    into EmitC so that the MLIR C++ emitter prints them as C:

    * `func.func` becomes a `static` `emitc.func`; a memref argument of
      rank 0 or 1 becomes a pointer to its element type, one of rank >= 2 a
      pointer to its rows (`double (*A)[250]`, or with an extent known only
      at run time the C99 form `double (*A)[A_dim1]`: an opaque type
      `double (*)[*]` whose `[*]` the argument's `weft.dim_args` names).
      Each extent argument moves right before its array, since C reads it
      from an earlier parameter; `weft.c_arg` on each emitc.func argument is
      the call's expression in that order, and calls between region
      functions follow it. `restrict` qualifies the pointers of functions
      whose arrays cannot overlap;
    * `memref.load`/`memref.store` become subscripts with the source's
      indices (heap storage: after linearize-memref-accesses, one linear
      index); a load is copied into a variable at once;
      `memref.alloca` of rank 0 becomes a C variable, of higher rank a C
      array of its shape;
    * `scf.for`/`scf.if` become `emitc.for`/`emitc.if`; values yielded by an
      `scf.if` go through a variable declared before it;
    * `arith` and `math` ops become C operators, casts and libm calls;
    * `index` becomes `int64_t`;
    * names stay on locations (weft/Support/SourceNames.h): an emitc.for's
      induction variable takes the scf.for's, a variable its alloca's.

    With `flat-arguments`, every memref argument is a pointer to its
    element type, in the region ABI's order, as C++ (the CUDA pipelines'
    output) needs: it has no variably modified parameters. The accesses of
    arguments of rank >= 2 must be linearised first
    (`linearize-memref-accesses{flat-arguments}`).

    Anything without a faithful C spelling is reported as an error at the
    op's location.
  }];
  let options = [
    Option<"flatArguments", "flat-arguments", "bool", /*default=*/"false",
           "Pass every array as a pointer to its element type (C++)">,
  ];
  let dependentDialects = ["::mlir::emitc::EmitCDialect"];
}

def LinearizeMemRefAccesses
    : Pass<"linearize-memref-accesses", "::mlir::func::FuncOp"> {
  let summary = "Rewrite multi-dimensional heap accesses as row-major 1-D ones";
  let description = [{
    Heap storage (`memref.alloc`, which the MPI runtime's `weft_rt_alloc`
    returns as a plain pointer) has no C array type, so before lowering to
    EmitC every `memref.load`/`memref.store` on such a memref of rank 2 or
    more is rewritten to access a `memref.collapse_shape` of it with a
    row-major linear index. Static extents become constants, dynamic ones
    are the allocation's sizes. Arguments and local arrays keep their
    subscripts: C subscripts them through a pointer to their rows.

    With `flat-arguments` (the CUDA pipelines, whose output is C++: it has
    no pointer to rows of run-time length), the accesses of arguments of
    rank 2 or more are linearised too; a dynamic extent after the first must
    be an argument that the memref argument's `weft.dim_args` names (the C
    front end provides it).
  }];
  let options = [
    Option<"flatArguments", "flat-arguments", "bool", /*default=*/"false",
           "Also linearise the accesses of arguments (for "
           "convert-loops-to-emitc's flat-arguments)">,
  ];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::memref::MemRefDialect"];
}

def ConvertDistToEmitC : Pass<"convert-dist-to-emitc", "::mlir::ModuleOp"> {
  let summary = "Lower dist ops to calls of the MPI runtime (EmitC)";
  let description = [{
    Rewrites every `dist` op into `emitc` calls of the MPI runtime header
    that weft copies into its MPI programs (runtime/mpi/weft_rt_mpi.h), one
    conversion pattern per op family (populateDistToEmitCPatterns):

    | op | becomes |
    |---|---|
    | `dist.rank`, `dist.num_ranks` | `weft_rt_self()`, `weft_rt_nranks()` |
    | `dist.grid_shape` | constants for static extents; `weft_rt_grid_rows/cols(prefer...)` for a 2-D grid chosen at run time |
    | `dist.local_bounds` (block) | `weft_rt_block_lo/hi(lb, ub, coord, extent)`, step 1 |
    | `dist.local_bounds` (block, weighted) | `weft_rt_weighted_block_lo/hi(lb, ub, coord, extent, w_first, w_last)`, step 1 |
    | `dist.isend`, `dist.irecv` | `weft_rt_isend/irecv_elements(table, array, bytes, peer, tag, values)` |
    | `dist.wait_all` | `weft_rt_wait_all()` (unpacks what arrived) |
    | `dist.broadcast` | `weft_rt_bcast_elements(table, array, bytes, root, values)` |
    | `dist.allreduce` (in place) | `weft_rt_allreduce_elements(table, array, bytes, type, kind, values)` |

    A message op's element set becomes a `static const int64_t` table at
    the function's entry, once per set, after a `// message elements:`
    comment with the set (encodeElementSet); `values` is
    `weft_rt_values(first, extents..., params...)`, the linear index of the
    array's first element, its extents after the first and the set's
    parameters, which the runtime walks the table with
    (runtime/mpi/weft_rt_elements.h).
    | `dist.replicas_stale`, `dist.set_replicas_stale` | `weft_rt_replicas_stale()`, `weft_rt_set_replicas_stale()` |
    | `dist.ranges_overlap` | `weft_rt_ranges_overlap(a, lo, hi, bytes, b, lo, hi, bytes)` |

    Only the results that are used become calls (C compilers warn about
    unused variables). `index` values become `int64_t` and memrefs element
    pointers, as in convert-loops-to-emitc, which runs next and resolves the
    `unrealized_conversion_cast`s between the two. A form of an op the
    runtime has no call for (a cyclic distribution, a grid of rank 3 chosen
    at run time, an all-reduce of a scalar) is an error at the op.
  }];
  let dependentDialects = ["::mlir::emitc::EmitCDialect"];
}

def ConvertLLMToEmitC : Pass<"convert-llm-to-emitc", "::mlir::ModuleOp"> {
  let summary = "Lower a planned llm.model to the EmitC program of its serving pipeline";
  let description = [{
    Replaces the one `llm.model` of the module, whose parts carry the
    planner's `stage` attributes, with the EmitC form of an SPMD C++
    serving program (docs/serving.md):

    * one `static` function `weft_stage<k>_forward` per pipeline stage that
      runs the stage's parts on a micro-batch in execution order
      (`embed`, `decoderLayer` per layer, `finalNorm`, `lmHead`);
    * `main`, which starts the serving library with the model name, the
      stage count and the micro-batch sizes, and on the rank of stage k
      loads the stage's weights part by part (checking their bits against
      the plan), states the stage's predicted memory, and runs the
      pipeline with the stage's forward function.

    Every call goes to `weft::rt::serve` (runtime/serve/weft_rt_serve.h).
    A model that is not fully planned (a part without a stage, a stage
    without parts, missing micro-batch sizes) is an error at the model.
  }];
  let dependentDialects = ["::mlir::emitc::EmitCDialect"];
}

def ConvertGPUToEmitC : Pass<"convert-gpu-to-emitc", "::mlir::ModuleOp"> {
  let summary = "Lower outlined GPU kernels and their host side to CUDA C++ "
                "through EmitC";
  let description = [{
    After `gpu-kernel-outlining` (docs/cuda.md): MLIR 19 has no GPU to EmitC
    conversion, and this pass is weft's. It prepares a module for
    `linearize-memref-accesses` and `convert-loops-to-emitc`:

    * each `gpu.func` kernel becomes a `func.func` named after its
      `gpu.module`, before the first function that launches it, marked
      `weft.c_specifiers = ["static", "__global__"]`; a memref argument
      with dynamic extents after the first gets them as trailing `index`
      arguments (`weft.dim_args`, the region ABI); `gpu.thread_id`,
      `gpu.block_id`, `gpu.block_dim` and `gpu.grid_dim` become
      `emitc.literal`s (`threadIdx.x`, ...), `gpu.barrier` a call of
      `__syncthreads`, `gpu.return` a `func.return`;
    * `gpu.launch_func` becomes `WEFT_CUDA_LAUNCH(kernel, grid, block,
      args...)`, `gpu.alloc` `weft_cuda_alloc<T>(count)`, `gpu.dealloc`
      `weft_cuda_free(p)` and `gpu.memcpy` of two equal `memref.subview`
      boxes (or whole rank-0 memrefs) `weft_cuda_copy_box(...)`, calls of
      runtime/cuda/hpc/weft_cuda.h through `emitc.call_opaque`; memrefs
      reach them through `builtin.unrealized_conversion_cast` to
      `!emitc.ptr`, which convert-loops-to-emitc resolves.

    Any other GPU op, a copy that is not between a host array and its
    device buffer, or a box of rank above 3 is an error at the op.
  }];
  let dependentDialects = ["::mlir::emitc::EmitCDialect",
                           "::mlir::func::FuncDialect",
                           "::mlir::arith::ArithDialect"];
}

#endif // WEFT_CONVERSION_PASSES_TD
