//===- Passes.td - Loop nests to GPU kernels ---------------*- tablegen -*-===//
#ifndef WEFT_GPU_PASSES_TD
#define WEFT_GPU_PASSES_TD

include "mlir/Pass/PassBase.td"

def GpuExposeBands : Pass<"gpu-expose-bands", "::mlir::ModuleOp"> {
  let summary = "Distribute and interchange loops so that a parallel loop "
                "nest gets a 2-D grid";
  let description = [{
    Before gpu-select-nests (docs/cuda.md). gpu-select-nests makes a grid
    dimension of each loop perfectly nested in a parallel outer loop, so
    PolyBench's gemm, `for i { for j: C[i][j] *= beta; for k: for j:
    C[i][j] += ... }`, is a 1-D grid over `i`. For each loop that would
    start a device nest (it carries no dependence) and whose grid would be
    1-D, this pass exposes a second dimension where the region's exact
    dependences (flow, anti and output) allow it:

    * distribution: `for i {A; L; B}` becomes `for i A; for i L; for i B`
      when no dependence goes, within one execution of `i`, from a later
      part back to an earlier one, and no value computed in one part is
      used in another. Only cuts that isolate a loop `L` that then forms a
      2-D band are made (fewer launches matter too);
    * interchange: `for i for k for j` becomes `for i for j for k` where
      `j`'s bounds use neither `k` nor `i`, no dependence goes forward
      along `k` and backward along `j` (the swap keeps every dependence's
      direction), and no dependence has different iterations of `j`: `j`
      is then a grid dimension and `k` (a reduction, say) runs in each
      thread, which is the form gpu-stage-tiles stages in shared memory.

    Each part and each loop keeps the order of the statement instances it
    runs, so results are the same bit for bit. A loop forced to the host
    (`#pragma weft host`) or holding a forced loop, and a nest the device
    cannot run (a call, an allocation, an array of rank above 3), are left
    as they are. A band whose second loop's bounds use the first's
    iterator is exposed where gpu-select-nests maps it as a triangle (one
    affine expression per bound, step 1: syrk, syr2k), not otherwise (a min
    or max, another step). With `report`, each
    transformation, and each one left out with its reason, gets a remark.

    Around a loop that carries a dependence (atax's `for i { ...; for j
    y[j] += A[i][j] * tmp[i] }`, a time loop around a pointwise update),
    each parallel loop in its body would be launched once per iteration.
    The carried loop is distributed where that isolates such a loop (the
    same conditions as above) and the two are interchanged where the
    dependences among that loop's statements allow it and none has
    different iterations of the parallel loop: `for j for i`, one grid
    over `j`, each thread running `i`. The moved loop is marked
    `weft.gpu.interchanged`; gpu-select-nests swaps the two back where the
    nest stays on the host. Nothing is said where this is not possible (a
    stencil's time loop), and a carried loop holding another candidate is
    left alone. A loop in the carried loop that carries a dependence itself
    but holds statements that alone would not (bicg's `for j { s[j] +=
    ...; q[i] += ... }`) is first distributed over its statements, where
    that isolates such a statement's loop for the interchange; the
    function is then analysed again (at most 4 rounds), and so are the
    parts a carried loop's distribution left behind.

    A row or column reduction (`for i { y[i] = 0; for j y[i] += A[i][j] *
    x[j] }`, or `A[j][i]`: DeviceNests.h, bandReductions) counts as a 2-D
    band: `y[i] = 0` is cut from it.
  }];
  let options = [
    Option<"report", "report", "bool", /*default=*/"false",
           "Say which loops are distributed or interchanged, and why others "
           "are not">,
    Option<"splitFpReductions", "split-fp-reductions", "bool",
           /*default=*/"true",
           "Whether gpu-select-nests may combine floating-point reductions "
           "in an order of their own (a row or column reduction then forms a "
           "band)">,
    Option<"maxIslOperations", "max-isl-ops", "unsigned long",
           /*default=*/"20000000",
           "ISL operations quota of the analysis (0: no limit)">,
  ];
  let dependentDialects = ["::mlir::affine::AffineDialect"];
}

def GpuLocalizeScalars : Pass<"gpu-localize-scalars", "::mlir::ModuleOp"> {
  let summary = "Make scalar arguments private to a region locals of its "
                "function";
  let description = [{
    The first step of `--target=cuda`. A rank-0 memref argument of a region
    function (a scalar the region writes, passed as `&x`) that no code
    outside the region reads (`weft.region_only`, the importer's) and whose
    every read in the region sees a value the region wrote (the region's
    ISL flow: it is not live after the region and nothing before it flows
    in) is replaced by a `memref.alloca` at the function's entry, as if the
    region had declared it: symm's `temp2`. gpu-select-nests then lets each
    thread of a loop that writes it before reading it in every iteration
    have its own copy (gpu-map-loops), instead of keeping the loop on the
    host. The argument stays, unused, for the call. Functions without a
    polyhedral model are left alone.
  }];
  let options = [
    Option<"maxIslOperations", "max-isl-ops", "unsigned long",
           /*default=*/"20000000",
           "ISL operations quota of the analysis (0: no limit)">,
  ];
  let dependentDialects = ["::mlir::memref::MemRefDialect"];
}

def GpuSelectNests : Pass<"gpu-select-nests", "::mlir::ModuleOp"> {
  let summary = "Choose the loop nests of each region that run on the GPU";
  let description = [{
    The first step of `--target=cuda` (docs/cuda.md). For every region
    function with a polyhedral model, a loop whose iterations may run as
    independent GPU threads (DeviceMapping.h: it carries no dependence,
    except on scalars each iteration writes before reading) starts a device
    nest: it and up to two loops perfectly nested in it whose bounds do not
    depend on the nest's other loops become the dimensions of a grid of
    threads; so does a triangle, whose bounds use one of the nest's other
    iterators in one affine expression each, with step 1 (gpu-map-loops
    guards it). The loop whose iterator walks the last (contiguous) subscript
    of the most accesses maps to `threadIdx.x`, so that neighbouring
    threads touch neighbouring elements. A loop that carries a dependence
    (a time loop, a sweep) stays on the host around the kernels, and its
    body is searched for device nests.

    A nest stays on the host when it calls a function, allocates memory or
    accesses an array of rank above 3; a function without a model stays
    whole on the host.

    Among the nests that may run on the device, those do where the cost
    model (LoopNestCost.h) predicts them faster than on one CPU core: the
    roofline of their kernels on `gpu`, their launches (one per iteration
    of the host loops around them) and the copies their data needs,
    against one CPU core's time (its caches' traffic, flops and carried
    chains; the loops gpu-expose-bands interchanged counted in the host's
    order), sizes unknown at compile time taking
    the values `size` gives them by name, the others `nominal-size`. Adjacent such nests (up to 4, nothing that touches
    memory between them; the parts of a loop gpu-expose-bands distributed
    among them) are placed together: every placement of them is predicted,
    with the copies gpu-place-data then makes (an array a host nest and a
    device nest both access moves around each launch), and the fastest
    taken. `gpu-choice=always` puts every one on the device. A
    loop marked `weft.gpu.place = "device"` (`#pragma weft device`) starts
    a device nest whatever the prediction, and is an error where it cannot;
    one marked "host" stays on the host with every loop in it; a loop
    holding either is not a nest of its own.

    A loop that carries only reduction updates `X[e] = X[e] op v` (op: +,
    *, max, min) whose element is the same in every iteration of the nest
    (`s += a[i] * b[i]`) starts a device nest too: its threads combine the
    updates (gpu-map-loops, gpu-reduce-blocks), in an order of their own,
    which `split-fp-reductions=false` forbids for floating-point ones
    (`--fp-reductions=ordered`). Its updates get `weft.gpu.reduce` (the
    kind). A loop perfectly nested in a 1-D nest that carries only
    reduction updates into elements the nest's loop picks (DeviceNests.h,
    bandReductions) joins it as the x dimension where its iterator is in
    the last subscript of more of the other accesses (a row reduction,
    `y[i] += A[i][j] * x[j]`: the threads of a row combine their updates),
    and as the y dimension otherwise (a column reduction, `y[i] += A[j][i]
    * x[j]`: the threads of a column combine), unless its trip count is
    known and below the block's width along that dimension (32, 8).

    The chosen loops get `weft.gpu.band` (how many loops) and
    `weft.gpu.coalesced` (which one maps to x); a 2-D nest whose threads
    run a sequential loop also gets the block shape (`weft.gpu.block`) and,
    on that loop, the tile width and register tiles (`weft.gpu.tile`,
    `weft.gpu.coarsen`) for gpu-stage-tiles; a triangular nest only where
    every row and column of its grid's box holds an element and the
    triangle is half the box. A loop gpu-expose-bands moved
    out of a carried loop (`weft.gpu.interchanged`) whose nest stays on the
    host is swapped back. With `report`, every outermost loop gets a remark
    saying where it runs and why, with the predicted times.
  }];
  let options = [
    Option<"report", "report", "bool", /*default=*/"false",
           "Say where each loop nest runs, and why">,
    Option<"gpu", "gpu", "std::string", /*default=*/"\"A100-40GB\"",
           "GPU of the cost model's device database the kernels run on">,
    Option<"cpu", "cpu", "std::string", /*default=*/"\"cpu\"",
           "CPU the host side runs on: a device of the database or a CPU "
           "description (a .json file, bench/cpu-core.c --json)">,
    Option<"gpuChoice", "gpu-choice", "std::string", /*default=*/"\"cost\"",
           "Which nests that may run on the device do: 'cost' (those "
           "predicted faster there) or 'always' (every one)">,
    Option<"nominalSize", "nominal-size", "int64_t", /*default=*/"4096",
           "Value the cost model assumes for sizes unknown at compile time">,
    ListOption<"sizes", "size", "std::string",
               "Values of sizes unknown at compile time, NAME=VALUE with "
               "NAME a scalar of the C source (the others take nominal-size)">,
    Option<"registerTile", "register-tile", "int64_t", /*default=*/"4",
           "Most elements a thread of a tiled kernel computes along each "
           "grid dimension (1, 2, 4 or 8)">,
    Option<"splitFpReductions", "split-fp-reductions", "bool",
           /*default=*/"true",
           "Let a nest's threads combine floating-point reductions in an "
           "order of their own (rounding may differ from the program's)">,
    Option<"maxIslOperations", "max-isl-ops", "unsigned long",
           /*default=*/"20000000",
           "ISL operations quota of the analysis (0: no limit)">,
  ];
}

def GpuPlaceData : Pass<"gpu-place-data", "::mlir::ModuleOp"> {
  let summary = "Give the device nests device copies of their arrays, "
                "moved once per region";
  let description = [{
    For every function with device nests (gpu-select-nests), each array the
    nests access gets a device buffer (`gpu.alloc`, as long along its first
    dimension as the region's accesses reach, its other extents the host
    array's), and the nests access the buffer instead.

    An array only the device nests access moves once: before the first
    top-level statement that holds a device nest, the bounding box of its
    flow-in elements (what the region reads before writing it) goes to the
    device; before the function returns, the box of its live-out elements
    (what it writes) comes back (`gpu.memcpy` of two `memref.subview`s).
    Where the box of the live-out elements holds elements the region does
    not write, the box going in covers them too, so that the copy back
    returns the host's own values there. Arrays stay on the device across
    the host loops around the kernels.

    An array that host code in the region also accesses moves around each
    top-level statement whose device nests use it instead (around each such
    nest where host code in the same statement accesses it): its accessed
    box to the device before, and back after when the nests write it. Scalars declared in the
    region that only one nest uses get no buffer: each thread has its own
    (gpu-map-loops).

    With `report`, the function gets a remark listing each array's
    transfers.
  }];
  let options = [
    Option<"report", "report", "bool", /*default=*/"false",
           "List the transfers of each array">,
    Option<"maxIslOperations", "max-isl-ops", "unsigned long",
           /*default=*/"20000000",
           "ISL operations quota of the analysis (0: no limit)">,
  ];
  let dependentDialects = ["::mlir::gpu::GPUDialect",
                           "::mlir::memref::MemRefDialect",
                           "::mlir::arith::ArithDialect"];
}

def GpuMapLoops : Pass<"gpu-map-loops", "::mlir::func::FuncOp"> {
  let summary = "Rewrite the device nests as scf.parallel loops mapped to "
                "blocks and threads";
  let description = [{
    Each nest gpu-select-nests chose becomes two `scf.parallel` loops with
    `mapping` attributes (ParallelLoopMapperAttr.td) that
    `convert-parallel-loops-to-gpu` turns into a `gpu.launch`: the outer one
    over thread blocks, the inner one over the threads of a block (32 x 8
    for two loops, 256 for one, 32 x 4 x 2 for three; the coalesced loop
    on x). Thread (b, t) of each dimension runs iteration
    `lb + (b * T + t) * step` when that is below the upper bound (a
    triangle's grid dimension spans the extremes of its range over the
    loop its bounds use, and the thread also checks its own bounds), with
    the body of the nest unchanged, lowered from affine to scf, arith and
    memref. Scalars declared in the region that only the nest uses move
    into the body: each thread gets its own.

    A nest that combines reductions (weft.gpu.reduce) gives each thread an
    accumulator per element, starting at the identity, and ends the thread
    with an atomic update of the element by it, guarded by the range of the
    loops the element's subscripts use (a row reduction's row). Where the
    nest carries `weft.gpu.grid_blocks = G`, the blocks along one dimension
    d are at most `max(1, G / (blocks along the others))`, and each thread
    runs every `(blocks along d * D)`-th iteration along d from its own in
    an `scf.for` (a grid-stride loop): fewer blocks, fewer atomic updates.
    d is x where it may be, else y, else z (a column reduction's rows): not
    a loop whose iterator another loop's bounds or an element's subscripts
    use. None where gpu-stage-tiles will tile the loop the threads run.
  }];
  let dependentDialects = ["::mlir::scf::SCFDialect",
                           "::mlir::arith::ArithDialect",
                           "::mlir::memref::MemRefDialect",
                           "::mlir::gpu::GPUDialect"];
}

def GpuFoldLaunchSizes : Pass<"gpu-fold-launch-sizes", "::mlir::ModuleOp"> {
  let summary = "Fold the constant bounds and steps into the sizes of each "
                "gpu.launch";
  let description = [{
    After convert-parallel-loops-to-gpu, which sizes each launch as `(ub -
    lb) ceildiv step` of its mapped loops (an affine.apply with `lb` = 0
    and `step` = 1 as symbols): the affine.apply ops that give a launch its
    grid and block sizes are canonicalised, and nothing else, so that the
    host code launches the block counts gpu-map-loops computed rather than
    rounding them up by 1.
  }];
  let dependentDialects = ["::mlir::affine::AffineDialect"];
}

def GpuStageTiles : Pass<"gpu-stage-tiles", "::mlir::ModuleOp"> {
  let summary = "Stage the arrays a 2-D kernel's sequential loop reads "
                "along a row or column of threads in shared-memory tiles";
  let description = [{
    After gpu-kernel-outlining (docs/cuda.md). In a kernel over a 2-D grid
    whose threads each run a sequential loop marked `weft.gpu.tile = T`
    (gpu-select-nests' choice, carried by gpu-map-loops), a read inside
    that loop whose subscripts are affine in its iterator and in the
    thread's index along at most one grid dimension, of an array the kernel
    never writes, is the same for a whole row (or column) of the block's
    threads: gemm's `A[i][k]` and `B[k][j]`. The loop is tiled by T; each
    step, the threads of the block load the T-wide tile of each such read
    into a workgroup buffer (gpu.func workgroup attribution), every thread
    one or more elements, guarded at the iteration space's edges and past
    the loop's end, between two `gpu.barrier`s; the threads inside the
    iteration space then run the T iterations of the loop reading the
    tiles. Threads outside it take part in the loads and barriers only.
    A full tile's iterations are a loop of T marked `weft.unroll` (the
    printer asks nvcc to unroll it completely), the last step's partial
    tile a loop over the iterations left; a trip count known to be a
    multiple of T needs only the first, one known below T only the second.

    A guard condition that mixes the two grid dimensions (a triangle's `j <
    i + 1`) guards only the computation: the tiles' loads keep the
    conditions along their own dimension and so load rows and columns of
    the grid's box. gpu-select-nests sets `weft.gpu.tile` on a triangle
    only where every row and column of the box holds an element (what the
    loads read is then what the original reads). A block votes first
    (`gpu.all_reduce or`, uniform: `__syncthreads_or`) and skips the tiles
    when none of its threads is inside.

    The layout keeps the loads coalesced and the reads free of bank
    conflicts: a tile read along x is stored [T][rows], one read along y
    [rows][T]; the elements go to consecutive threads along the array's
    contiguous subscript.

    A kernel stays as it was where this is not legal or not possible, with
    the reason in a remark under `report`: the loop's bounds differ between
    threads, the guard depends on more than the threads' positions, a read's array is written
    in the kernel or its subscripts are not affine, values computed before
    the loop are used in it, or the tiles exceed 48 KiB (CUDA's limit on
    static shared memory). The block's shape comes from the kernel's
    launch.

    Register tiles: where the loop also carries `weft.gpu.coarsen = [cx,
    cy]` (gpu-select-nests' choice), each thread computes cx x cy elements.
    The block stands for cx x cy blocks of the grid before (the launch's
    grid sizes are divided by cx and cy, rounded up; the tiles get cx and
    cy times the rows); the elements the loop accumulates into live in
    `memref.alloca` variables, loaded inside the iteration space (zero
    outside) and stored back inside it after the loop; the tile loop runs
    the elements jammed, each operation cloned once per element it differs
    for. Only where every access of the loop is a staged read or such an
    element (same subscripts, invariant along the loop, floating point), no
    operation has effects, regions or integer division, and the kernel does
    not read gridDim; otherwise one element a thread, with the reason in
    the remark.
  }];
  let options = [
    Option<"report", "report", "bool", /*default=*/"false",
           "Say which loops are tiled and why others are not">,
  ];
  let dependentDialects = ["::mlir::gpu::GPUDialect",
                           "::mlir::memref::MemRefDialect",
                           "::mlir::arith::ArithDialect",
                           "::mlir::scf::SCFDialect"];
}

def GpuReduceBlocks : Pass<"gpu-reduce-blocks", "::mlir::ModuleOp"> {
  let summary = "Combine the partial results of a block's threads (warp "
                "shuffles, shared memory) before the one atomic update of the "
                "block";
  let description = [{
    After gpu-kernel-outlining (docs/cuda.md, "Reductions"). gpu-map-loops
    ends each thread of a nest that reduces into one element with an
    atomic update of the element by the thread's partial result
    (`memref.atomic_rmw` marked `weft.gpu.reduce`): correct, but all the
    threads of the grid then update one address one after another. Where
    every thread of the block reaches the update (it is not inside a
    condition or loop), its element is the same for all of them, and the
    kernel's launches give one constant block of a power-of-two number of
    threads, the block combines the partial results and thread 0 alone
    adds the block's result atomically. Where the update sits in a
    condition (no else) and neither the condition nor the element differs
    along x (a row reduction's, guarded by its row's range), each row of
    the block along x (a power of two) combines the same way, and its
    thread x == 0 adds the row's result where the condition holds; where
    they differ along x but not along y (a column reduction's), each column
    of the block along y, its threads X apart, and its thread y == 0.
    Other updates stay as they are.

    Where the block is whole warps and the partial result a 32- or 64-bit
    integer or float, the lanes of each warp combine in registers
    (`gpu.shuffle down` by 16, 8, 4, 2, 1: `__shfl_down_sync`); where a
    group spans several warps, each warp's first lane stores its result
    in a shared array of one element per warp (a gpu.func workgroup
    attribution) and, after one barrier, the lanes combine those the same
    way. A row of 32 threads needs no shared memory and no barrier.
    Otherwise (a column, other types, blocks that are not whole warps) each
    thread stores its partial result in a shared array of one element per
    thread, and log2(group) steps, unrolled, with a barrier before each
    (`if (lane < s) p[t] = p[t] op p[t + s * pitch]` for s = group / 2 down
    to 1) leave the result in the group's first element.
  }];
  let dependentDialects = ["::mlir::gpu::GPUDialect",
                           "::mlir::memref::MemRefDialect",
                           "::mlir::arith::ArithDialect",
                           "::mlir::scf::SCFDialect"];
}

def GpuOffloadNests : Pass<"gpu-offload-nests", "::mlir::ModuleOp"> {
  let summary = "Run the parallel loop nests of distributed regions on each "
                "rank's GPU, their data moved around each nest";
  let description = [{
    After weft-distribute-pipeline, for `--target=mpi-cuda` (docs/cuda.md).
    A distributed region function has no polyhedral model of its own (its
    messages, packing loops and rank queries are not affine), but its
    local loop nests are: each affine.for whose body holds only affine
    loops, conditions, loads and stores, arithmetic and scalar
    allocations is outlined into a function of its own (the values it uses
    from outside, the rank's block bounds among them, become arguments),
    where gpu-expose-bands, gpu-select-nests and gpu-place-data run as for
    `--target=cuda`:
    the nest's device part runs as kernels, with the nest's flow-in box
    (exact for the rank's block, halo included) copied to device buffers
    before it and the box of what it writes copied back after it. The
    result is inlined in place of the nest. The buffers of arrays only the
    kernels access, and their copies, are marked `weft.gpu.resident`: the
    runtime keeps them on the device across nests and moves only what is
    newer on the other side. Host code (messages, replicated statements,
    nests that stay on the host) uses the host arrays, so the distribution
    and its messages are those of `--target=mpi`: the MPI runtime tells the
    CUDA runtime what each message reads and writes, and this pass puts a
    call of `weft_cuda_host_access` before each other host statement that
    touches a resident array, and of `weft_cuda_release_all` before each
    return.

    Each nest is chosen as by gpu-select-nests (same options), predicted
    at the first rank's block when the region runs on `ranks` ranks.

    Region functions with a model of their own other than the sequential
    forms of dist-alias-check (which run where arguments overlap, or on
    one rank) are treated whole, as by gpu-expose-bands, gpu-select-nests
    and gpu-place-data.
  }];
  let options = [
    Option<"report", "report", "bool", /*default=*/"false",
           "Say where each loop nest runs and what moves">,
    Option<"gpu", "gpu", "std::string", /*default=*/"\"A100-40GB\"",
           "GPU of the cost model's device database the kernels run on">,
    Option<"cpu", "cpu", "std::string", /*default=*/"\"cpu\"",
           "CPU the host side runs on: a device of the database or a CPU "
           "description (a .json file, bench/cpu-core.c --json)">,
    Option<"gpuChoice", "gpu-choice", "std::string", /*default=*/"\"cost\"",
           "Which nests that may run on the device do: 'cost' (those "
           "predicted faster there) or 'always' (every one)">,
    Option<"nominalSize", "nominal-size", "int64_t", /*default=*/"4096",
           "Value the cost model assumes for sizes unknown at compile time">,
    ListOption<"sizes", "size", "std::string",
               "Values of sizes unknown at compile time, NAME=VALUE with "
               "NAME a scalar of the C source (the others take nominal-size)">,
    Option<"registerTile", "register-tile", "int64_t", /*default=*/"4",
           "Most elements a thread of a tiled kernel computes along each "
           "grid dimension (1, 2, 4 or 8)">,
    Option<"splitFpReductions", "split-fp-reductions", "bool",
           /*default=*/"true",
           "Let a nest's threads combine floating-point reductions in an "
           "order of their own (rounding may differ from the program's)">,
    Option<"ranks", "ranks", "unsigned", /*default=*/"4",
           "Number of ranks the blocks of the cost model's prediction are "
           "planned for">,
    Option<"maxIslOperations", "max-isl-ops", "unsigned long",
           /*default=*/"20000000",
           "ISL operations quota of each nest's analysis (0: no limit)">,
  ];
  let dependentDialects = ["::mlir::gpu::GPUDialect",
                           "::mlir::memref::MemRefDialect",
                           "::mlir::arith::ArithDialect",
                           "::mlir::emitc::EmitCDialect"];
}

#endif // WEFT_GPU_PASSES_TD
