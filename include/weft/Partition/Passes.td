//===- Passes.td - Arachne distribution passes -------------*- tablegen -*-===//
#ifndef WEFT_PARTITION_PASSES_TD
#define WEFT_PARTITION_PASSES_TD

include "mlir/Pass/PassBase.td"

def DistAliasCheck : Pass<"dist-alias-check", "::mlir::ModuleOp"> {
  let summary = "Choose at region entry between the region as written and "
                "its distributed form";
  let description = [{
    The region as written is the fastest code on one rank, and the only
    correct code when arguments overlap. For every region function this
    pass

    * copies the function as `<name>_sequential` (`dist.sequential`: the
      other dist passes leave it alone) and renames the original
      `<name>_distributed`, which the partitioner then distributes as
      before;
    * makes `<name>` a dispatcher (`dist.alias_check`) that calls the
      sequential function when the program runs on one rank (so the
      compute at P = 1 is the sequential program's loops, reordered only
      by dist-interchange-inner, with no bounds, messages or staleness
      checks in them), and otherwise the distributed one, after the
      overlap check below where it needs one.

    The partitioner and its ISL model treat every array argument as a
    distinct array. Arrays reached through pointers (the importer's
    `weft.may_alias`: pointer and array parameters without `restrict`)
    may point into each other: `f(n, x + 1, x)` turns `a[i] = b[i]` into a
    recurrence through memory. For a region with such a pair, at least one
    of them written, the dispatcher computes the bounding box of each
    argument's accesses from ISL (the elements the region touches, over its
    whole execution, as expressions of its parameters), asks
    `dist.ranges_overlap` for every pair that may alias and is written, and
    calls the distributed function only when no pair overlaps. Otherwise
    rank 0 runs the sequential function and the other ranks' copies are
    marked stale (`dist.set_replicas_stale`, as a distributed region leaves
    them); with `live-out-everywhere` every rank runs it, so every rank
    holds the results.

    The check is sound: the boxes cover every access (a function without a
    polyhedral model is left alone, since the partitioner runs it
    replicated, which is the sequential program on every rank), and the
    sequential function is the region as imported, before any pass
    reorders it. Distinct array objects (globals, locals), `restrict`
    pointers and arrays named by `#pragma weft noalias` (`weft.noalias`)
    need no check; nor does a `#pragma weft nodist` region, which gets no
    dispatcher at all. When ISL cannot bound the footprints within
    `max-isl-ops`, the dispatcher always takes the sequential path, with a
    warning. dist-fold-alias-checks drops the dispatchers of regions that
    turn out not to be distributed and reports the checks that stay.
  }];
  let options = [
    Option<"liveOutEverywhere", "live-out-everywhere", "bool",
           /*default=*/"false",
           "Run the sequential path on every rank (the results are needed "
           "everywhere), not only on rank 0">,
    Option<"oneProcess", "one-process", "bool", /*default=*/"false",
           "The program is one process (--target=cuda): only regions that "
           "need the overlap check get a dispatcher, which runs the "
           "sequential form when arguments overlap and the other one "
           "otherwise">,
    Option<"maxIslOperations", "max-isl-ops", "unsigned long",
           /*default=*/"20000000",
           "ISL operations quota of the footprints (0: no limit)">,
  ];
  let dependentDialects = ["::weft::dist::DistDialect",
                           "::mlir::arith::ArithDialect",
                           "::mlir::scf::SCFDialect"];
}

def DistFoldAliasChecks : Pass<"dist-fold-alias-checks", "::mlir::ModuleOp"> {
  let summary = "Drop the overlap checks of regions that run as written "
                "anyway";
  let description = [{
    After dist-materialize: a region checked by dist-alias-check whose
    distributed form is still the region as written (the partitioner
    distributed nothing and no pass reordered it, so every rank runs the
    sequential program either way) needs no choice of rank count. Without
    an overlap check, its sequential form takes the region's name and the
    dispatcher and the distributed form are erased, so that the output is
    what it was without dist-alias-check. With one, the dispatcher keeps
    the check and calls (on every rank; dist-run-on-root may then leave it
    to rank 0) `<name>_overlapping` (the region as
    written) where arguments overlap and `<name>_sequential` (the same
    loops, its pointers `restrict`) where they do not: without `restrict`,
    the C compiler must keep a value such as an accumulator in memory,
    since a store through another pointer might change it. With `report`,
    each check that stays gets a remark naming the arguments it compares.
  }];
  let options = [
    Option<"report", "report", "bool", /*default=*/"false",
           "Say which regions carry a check, and for which arguments">,
  ];
}

def DistRunOnRoot : Pass<"dist-run-on-root", "::mlir::ModuleOp"> {
  let summary = "Run the regions nothing distributed on rank 0 alone";
  let description = [{
    After dist-fold-alias-checks: a region function with no message, rank
    query or staleness check in it or in the functions it calls (the
    partitioner distributed nothing: lu, cholesky, nussinov) would run the
    whole region on every rank, each rank computing the same values. On
    ranks that share a node, those copies compete for its memory bandwidth
    and caches (PolyBench cholesky at 2000: 0.66 s on one rank, 0.84 s on
    each of two). The pass renames the function `<name>_rank0` and makes
    `<name>` a dispatcher (`dist.alias_check`) that calls it on rank 0
    alone and then records that the other ranks' copies are stale
    (`dist.set_replicas_stale`): a later region that reads them fetches
    them from rank 0 first, as after a region whose live-out values went
    to rank 0 only. The caller's scalars it gets by address and code after
    it may read (not `weft.region_only`) are broadcast from rank 0 after
    it, so that every rank decides its control flow on the same values
    (before, each rank computed them, from its own possibly stale copies).
    A region with such a scalar MPI cannot send stays on every rank, as
    does one under `#pragma weft nodist` (`weft.nodist`: every rank runs
    it, as the directive says). Not
    in the pipelines under `weft compile --live-out=all` (every rank keeps
    its copies current by computing them). With `report`, a remark on each
    region it changes.
  }];
  let options = [
    Option<"report", "report", "bool", /*default=*/"false",
           "Say which regions run on rank 0 alone">,
  ];
  let dependentDialects = ["::weft::dist::DistDialect",
                           "::mlir::arith::ArithDialect",
                           "::mlir::memref::MemRefDialect",
                           "::mlir::scf::SCFDialect"];
}

def DistInterchangeInner : Pass<"dist-interchange-inner", "::mlir::ModuleOp"> {
  let summary = "Interchange an innermost loop with the parallel loop around "
                "it where the swap makes the innermost loop walk contiguous "
                "elements";
  let description = [{
    Before dist-partition, so that the partitioner's cost model and the C
    compiler see the same loops. PolyBench's 2mm, `for i for j { tmp[i][j]
    = 0; for k tmp[i][j] += A[i][k] * B[k][j] }`, runs its innermost loop
    as a chain of dependent additions through `tmp[i][j]` while walking a
    column of B; gcc vectorises it only where it knows the trip counts
    (the loop around the chain, then, not the chain), which a distributed
    region, whose bounds are the rank's, never gives it. Distributed and
    interchanged, `for i { for j tmp[i][j] = 0; for k for j tmp[i][j] +=
    ... }`, the innermost loop carries nothing and walks rows: vectorised
    whatever the bounds.

    An innermost loop `k` (no loop in it, no results) whose parent `j` is
    inside one of the units dist-partition decides on (an op of the
    function's body or of a time loop's: Units.h), not one itself, is
    swapped with `j` where (so the units, and the loops a `#pragma weft
    distribute` pins, stay as they are):

    * more of `k`'s distinct accesses (an accumulator's load and store
      are one) walk consecutive elements along `j` than along `k` (the
      loop's iterator alone in the last subscript, with coefficient 1 or
      -1): 2mm's tmp and B against A;
    * `k`'s bounds use nothing defined in `j` (its iterator included);
    * the region's exact dependences allow it (LoopReordering.h): none of
      the statements in `k` goes forward along `j` and backward along `k`,
      and none has different iterations of `j`, which then carries
      nothing as the innermost loop;
    * where `j`'s body holds more than `k`, `j` is distributed around `k`
      first: no dependence goes from an op after a cut back to one before
      it within one iteration of `j`, and no SSA value crosses a cut.

    A unit's own loop `j` whose body ends with such a loop `k` after ops
    without loops (mvt's `for i for j x2[i] += A[j][i] * y[j]`) stays
    where it is for dist-partition, which distributes `j`, and gets
    `dist.interchange` under the same conditions, distributed first where
    it holds more than `k` (the copy holding `k` alone is marked):
    dist-interchange-local swaps the two once each rank's part of `j` is
    cut, and the cost model walks them swapped. Scalars that each
    iteration of such a loop of the function's body sets before `k`
    updates them (deriche's recursive filters down columns) are kept in
    arrays indexed by `j` first (ExpandScalars.h), tentatively: where the
    swap is still illegal they come back.

    Each statement instance keeps its order among those it depends on, so
    results are the same bit for bit (each sum is still added up in the
    order of `k`). Only functions whose arguments are distinct memory
    (Support/ArgumentAliasing.h) are reordered: the region as written
    that dist-alias-check keeps for overlapping arguments is not. With
    `report`, each interchange gets a remark.
  }];
  let options = [
    Option<"report", "report", "bool", /*default=*/"false",
           "Say which loops are interchanged">,
    Option<"maxIslOperations", "max-isl-ops", "unsigned long",
           /*default=*/"20000000",
           "ISL operations quota of the analysis (0: no limit)">,
  ];
  let dependentDialects = ["::mlir::affine::AffineDialect",
                           "::mlir::memref::MemRefDialect"];
}

def DistInterchangeLocal
    : Pass<"dist-interchange-local", "::mlir::func::FuncOp"> {
  let summary = "Swap the loops dist-interchange-inner marked, in each "
                "rank's part";
  let description = [{
    After dist-materialize. A loop with `dist.interchange` (a unit's loop
    whose only op is an innermost loop walking consecutive elements along
    it; dist-interchange-inner proved the swap legal) is swapped with that
    loop where it still holds it alone and that loop's bounds use nothing
    of it: `for i in [i_lo, i_hi) for j x2[i] += A[j][i] * y[j]` becomes
    `for j for i in [i_lo, i_hi)`, whose innermost loop walks a row of A.
    Swapping a block of `i` is legal where swapping all of `i` is. The
    attribute is removed either way. With `report`, each swap gets a
    remark (not in the region as written for one rank, `dist.sequential`,
    which swaps alike).
  }];
  let options = [
    Option<"report", "report", "bool", /*default=*/"false",
           "Say which loops are interchanged">,
  ];
}

def DistSplitPivots : Pass<"dist-split-pivots", "::mlir::ModuleOp"> {
  let summary = "Split loops whose carried flow dependences all meet at one "
                "iteration";
  let description = [{
    A loop that carries flow dependences only from or to one of its
    iterations p, an affine function of the loops around it and the
    region's symbols (Floyd-Warshall's `i` loop at `i = k`: iteration k
    rewrites row k, the iterations after it read the new row), is split
    into `[lb, p)`, `[p, p + 1)` and `[p + 1, ub)`. The three loops run the
    same iterations in the same order, so the split is always exact; what it
    gains is that none of them carries a flow dependence, so dist-partition
    may distribute each, and the messages between them carry the pivot's
    data from its owner to the ranks that read it.

    ISL finds p from the exact value-based dependences (LoopPivots.h). Only
    loops with step 1 that hold no loop free of carried flow dependences are
    split (the others have a unit to distribute already), and only the
    outermost such loop of a nest. The
    pieces are marked `dist.pivot_split` with one id per split loop, so
    that their blocks line up. With `report`, each split gets a remark.

    A module pass, like dist-partition: when it changes nothing, the
    regions' analyses are kept for dist-partition.
  }];
  let options = [
    Option<"report", "report", "bool", /*default=*/"false",
           "Explain each split with a remark">,
    Option<"maxIslOperations", "max-isl-ops", "unsigned long",
           /*default=*/"20000000",
           "ISL operations quota of the analysis (0: no limit)">,
  ];
}

def DistWavefront : Pass<"dist-wavefront", "::mlir::ModuleOp"> {
  let summary = "Run Gauss-Seidel-like time loops as wavefronts of tiles";
  let description = [{
    A time loop `t` whose body is one loop `i` that carries a flow
    dependence (plus index arithmetic, which moves along), with nothing
    inside that could be split across ranks (seidel-2d), is rewritten as a
    wavefront: `i` is cut in tiles of
    `tile` iterations, and tile `b` of step `t` runs at stage
    `s = skew * t + b`:

    ```
    for s:                                   // stages, in order
      for b:                                 // the tiles of stage s
        if ((s - b) mod skew == 0)           // t = (s - b) / skew
          for i in tile b: <body of i at t>
    ```

    `skew` is the smallest of 1 to 4 for which ISL proves that the new
    order computes the same values: every read, and every value live after
    the region, comes from the same write (Wavefront.h). The tiles of one
    stage are then independent,
    and dist-partition may split the `b` loop across ranks: each rank runs
    its tiles of a stage, and the exact messages after the stage carry the
    tiles' edges to the neighbours (a pipeline, whose ranks start one stage
    apart). With fewer than two tiles per rank and stage parity, ranks idle
    on alternate stages; the tile size bounds the number of stages,
    `skew * steps + tiles`.

    Loops with a pinned distribution and `#pragma weft nodist` regions are
    left alone. Each check gets a tenth of `max-isl-ops`; one over it ends
    the search in the function (no wavefront is not a miscompile). With
    `report`, each rewrite gets a remark, and so does a check over its
    share.
  }];
  let options = [
    Option<"report", "report", "bool", /*default=*/"false",
           "Explain each rewrite with a remark">,
    Option<"tile", "tile", "int64_t", /*default=*/"16",
           "Iterations of the inner loop per tile">,
    Option<"maxIslOperations", "max-isl-ops", "unsigned long",
           /*default=*/"20000000",
           "ISL operations quota of the analysis (0: no limit)">,
  ];
}

def DistPartition : Pass<"dist-partition", "::mlir::ModuleOp"> {
  let summary = "Choose how each loop nest of a region is split across ranks";
  let description = [{
    Splits the function into units of work: the ops of its body and, inside
    loops that carry a dependence (time loops), the ops of their bodies. A
    unit that is an `affine.for` without carried dependences, with step 1 and
    bounds computable before the first unit, may be distributed: its
    iterations are split in balanced blocks over the ranks (owner computes).
    A loop whose only carried dependences are reduction updates
    `X[e] = X[e] op v` (op: add, mul, max, min) is a candidate too: split
    in blocks, each rank accumulates its part and an all-reduce combines the
    partial results after the loop. Splitting changes the order in which
    floating-point values are summed, so with `split-fp-reductions=false`
    only integer reductions are split. Every other unit is replicated:
    every rank runs it.

    Among the candidates, the Arachne dynamic program (docs/partitioning.md)
    picks the assignment with the least predicted time: per-rank work plus
    the alpha-beta time of the exact communication sets between units,
    estimated with ISL for `ranks` ranks, sizes unknown at compile time
    taking the values `size` gives them by name, the others `nominal-size`. The machine numbers come from weft's cost model
    (lib/CostModel): the memory bandwidth of `device`, and an MPI link of
    `link-GBps`. The ranks of one node (`ranks-per-node`; by default the
    device's cores, filled before the next node as mpirun places ranks)
    run their units at the same time and share its memory bandwidth; a
    region of which nothing is distributed runs on rank 0 alone
    (dist-run-on-root, unless `live-out-everywhere`).

    A candidate whose body is one loop that holds every access, carries no
    flow dependence and has step 1 and bounds known before the first unit
    may instead be distributed over a 2-D grid of the ranks
    (`gridShape2D`: the most nearly square factorisation, 4 = 2 x 2,
    6 = 3 x 2): its loop in blocks over the grid's rows, the inner loop over
    its columns. `grid-dims=1` leaves that choice out.

    Marks every unit with `dist.unit` and the distributed ones with
    `dist.distribute = #dist.dim<block on 0>`, or, over a 2-D grid,
    `#dist.layout<[block on 0, block on 1], grid = [?, ?]>`. With `report`, each unit gets
    a remark saying what was chosen and why. When the function is not a
    static control part or the polyhedral analysis fails, nothing is marked
    (the region runs replicated).

    A module pass: it turns the analyses' diagnostics into report lines
    through a context-wide handler, which must not see other functions'
    diagnostics.
  }];
  let options = [
    Option<"report", "report", "bool", /*default=*/"false",
           "Explain each choice with a remark">,
    Option<"ranks", "ranks", "unsigned", /*default=*/"4",
           "Number of ranks the costs are predicted for">,
    Option<"ranksPerNode", "ranks-per-node", "unsigned", /*default=*/"0",
           "Ranks on one node, sharing its memory bandwidth (0: the "
           "device's cores, as mpirun fills a node before the next)">,
    Option<"liveOutEverywhere", "live-out-everywhere", "bool",
           /*default=*/"false",
           "Values live after a region go to every rank (no dist-run-on-root "
           "in the pipeline: a region nothing distributes runs on every "
           "rank)">,
    Option<"nominalSize", "nominal-size", "int64_t", /*default=*/"4096",
           "Value assumed for sizes unknown at compile time">,
    ListOption<"sizes", "size", "std::string",
               "Values of sizes unknown at compile time, NAME=VALUE with "
               "NAME a scalar of the C source (the others take nominal-size)">,
    Option<"device", "device", "std::string", /*default=*/"\"cpu\"",
           "Device of the cost model's database that runs the loops, or a "
           "CPU description (a .json file, bench/cpu-core.c --json)">,
    Option<"linkGBps", "link-GBps", "double", /*default=*/"12.5",
           "Bandwidth of the MPI link between ranks (GB/s)">,
    Option<"maxIslOperations", "max-isl-ops", "unsigned long",
           /*default=*/"20000000",
           "ISL operations quota of the analysis (0: no limit)">,
    Option<"splitFpReductions", "split-fp-reductions", "bool",
           /*default=*/"true",
           "Split floating-point reductions across ranks (results may differ "
           "from the sequential program by rounding)">,
    Option<"gridDims", "grid-dims", "unsigned", /*default=*/"2",
           "Most process grid axes a unit is distributed over (1 or 2)">,
  ];
  let dependentDialects = ["::weft::dist::DistDialect"];
}

def DistMaterialize : Pass<"dist-materialize", "::mlir::func::FuncOp"> {
  let summary = "Make the chosen distribution explicit: local loops and messages";
  let description = [{
    For the units marked by `dist-partition`:

    * each distributed loop runs only the calling rank's block of its
      iterations (`dist.local_bounds`);
    * after each distributed unit, every rank sends each other rank exactly
      the array elements it just wrote that the other rank reads later (the
      exact flow dependences between different owners, computed with ISL;
      each value once per reader), packed into one buffer per array and
      peer, with `dist.isend` / `dist.irecv` / `dist.wait_all`; the packing
      loops are generated by ISL's AST generator and are the same on both
      sides;
    * values live after the region go to rank 0 within those messages (to
      every rank with `live-out-everywhere`); rank 0 then alone holds the
      sequential program's data (`dist.set_replicas_stale`);
    * at the start, if an earlier region left the other ranks' copies
      outdated, rank 0 broadcasts the elements this region reads before
      writing them (`dist.replicas_stale`, `dist.broadcast`);
    * a private array (the importer's `weft.region_only`, and the region
      writes every element before reading it) gets rank-local storage: each
      rank allocates only the range of one dimension that its accesses,
      messages and reductions touch (computed with ISL from its blocks), and
      its accesses subtract the range's start;
    * the function opens with a one-line C comment per distributed unit
      (an `emitc.verbatim` `// weft: ...`): its source line, how it is
      split, which arrays it sends after it and which reductions it
      combines; and one for the arrays it reads from rank 0
      (NestComments.cpp).

    Without any distributed unit the function is left as it is.
  }];
  let options = [
    Option<"report", "report", "bool", /*default=*/"false",
           "Show each message's set of elements as a remark">,
    Option<"liveOutEverywhere", "live-out-everywhere", "bool",
           /*default=*/"false",
           "Send the values live after a region to every rank, not only 0">,
    Option<"localStorage", "local-storage", "bool", /*default=*/"true",
           "Allocate private arrays only for the part each rank touches">,
    Option<"maxIslOperations", "max-isl-ops", "unsigned long",
           /*default=*/"20000000",
           "ISL operations quota of the analysis (0: no limit)">,
    Option<"maxGridConstraints", "max-grid-constraints", "uint64_t",
           /*default=*/"2000",
           "Most constraints a region's message sets may have when some "
           "nest is split over a 2-D grid; beyond, its 2-D nests take 1-D "
           "blocks">,
  ];
  let dependentDialects = ["::weft::dist::DistDialect",
                           "::mlir::arith::ArithDialect",
                           "::mlir::emitc::EmitCDialect",
                           "::mlir::memref::MemRefDialect",
                           "::mlir::scf::SCFDialect"];
}

def DistVectorRuns : Pass<"dist-vector-runs", "::mlir::func::FuncOp"> {
  let summary = "Split the distributed forms' innermost parallel loops into "
                "runs of a fixed length and a remainder";
  let description = [{
    A rank's block makes the trip count of a distributed loop a run-time
    value. gcc -O2 (its "very cheap" vectoriser cost model) vectorises only
    loops whose trip count it knows to be a multiple of the vector length,
    so the sequential program's loops vectorise (their bounds are constants
    once gcc has propagated the sizes) and the distributed form's do not.
    For an innermost loop of a distributed form (a function with
    `dist.local_bounds`, not the `dist.sequential` copy) that

    * has step 1, a trip count that is not a constant, no iteration
      arguments and a body without nested regions of at most `max-body-ops`
      operations;
    * carries no memory dependence (upstream affine dependence analysis:
      its iterations may run in any order, as vector lanes do);
    * walks some array's contiguous dimension with unit stride;
    * has bounds that are values of the function's top level,

    this pass computes its bounds once at the function's top level
    (`<iv>_lo`, `<iv>_hi`) and the end of its whole runs (`<iv>_runs_end`,
    `hi - (hi - lo) % L`, which is not above `lo` when the loop is empty),
    and replaces the loop by a loop over runs (`<iv>_run`, step L) around a
    loop of exactly L iterations, followed by the remainder loop from
    `<iv>_runs_end` to `<iv>_hi`. Both copies of the body run the same iterations in the same
    order as the loop did, so the split is exact for every loop; the
    conditions only choose where it pays.
  }];
  let options = [
    Option<"runLength", "run-length", "int64_t", /*default=*/"16",
           "Iterations per run: a multiple of every vector length of the "
           "target for the arrays' element type (8 doubles fill an AVX-512 "
           "register; gcc -O3 makes runs of 8 twice as slow as 16)">,
    Option<"maxBodyOps", "max-body-ops", "unsigned", /*default=*/"64",
           "Largest loop body (in operations) that is worth a second copy">,
  ];
  let dependentDialects = ["::mlir::affine::AffineDialect",
                           "::mlir::arith::ArithDialect"];
}

def DistNameBounds : Pass<"dist-name-bounds", "::mlir::func::FuncOp"> {
  let summary = "Compute the distributed forms' cut loop bounds once, as "
                "values named after their iterators";
  let description = [{
    In a distributed form (a function with `dist.local_bounds`, not the
    `dist.sequential` copy), a loop whose lower or upper bound is the max or
    min of several terms (its range cut to the rank's block) and whose
    bounds are values of the function's top level gets both bounds computed
    just before its outermost enclosing op (`affine.max` and `affine.min`
    named `<iv>_lo` and `<iv>_hi` for the C printer) and becomes a loop
    between those two values. The iterations are unchanged; the generated C
    reads `for (i = i_lo; i < i_hi; i++)`.
  }];
  let dependentDialects = ["::mlir::affine::AffineDialect"];
}

#endif // WEFT_PARTITION_PASSES_TD
