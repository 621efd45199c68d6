//===- DistOps.td - Dist dialect operations ----------------*- tablegen -*-===//
//
// Part of the weft project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Operations of the dist dialect, in three groups:
//   - process queries: num_ranks, rank, grid_shape, grid_coord, grid_rank;
//   - index arithmetic of a distributed dimension: local_bounds, local_size,
//     locate;
//   - communication on local buffers: halo_exchange, redistribute, gather,
//     scatter, broadcast, reduce, allreduce, send, recv, barrier.
//
//===----------------------------------------------------------------------===//

#ifndef WEFT_DIALECTS_DIST_IR_DISTOPS_TD
#define WEFT_DIALECTS_DIST_IR_DISTOPS_TD

include "dialects/Dist/IR/DistBase.td"
include "dialects/Dist/IR/DistAttrs.td"
include "mlir/IR/OpBase.td"
include "mlir/Interfaces/InferTypeOpInterface.td"
include "mlir/Interfaces/SideEffectInterfaces.td"

//===----------------------------------------------------------------------===//
// Type constraints
//===----------------------------------------------------------------------===//

// Element types with a direct MPI datatype (index travels as a 64-bit int).
def Dist_ElementType : AnyTypeOf<[SignlessIntOfWidths<[8, 16, 32, 64]>, Index,
                                  F32, F64], "MPI-transferable scalar">;

// Local storage of (a part of) an array: a strided memref.
def Dist_Buffer : StridedMemRefOf<[Dist_ElementType]>;

def Dist_ScalarOrBuffer : AnyTypeOf<[Dist_ElementType, Dist_Buffer],
    "MPI-transferable scalar or strided memref">;

//===----------------------------------------------------------------------===//
// Process queries
//===----------------------------------------------------------------------===//

def Dist_NumRanksOp : Dist_Op<"num_ranks", [Pure]> {
  let summary = "Number of processes (MPI_Comm_size)";
  let description = [{
    Returns the number of processes of the program, `P >= 1`.

    ```mlir
    %p = dist.num_ranks
    ```
  }];
  let results = (outs Index:$result);
  let assemblyFormat = "attr-dict";
}

def Dist_RankOp : Dist_Op<"rank", [Pure]> {
  let summary = "Linear rank of the calling process (MPI_Comm_rank)";
  let description = [{
    Returns the rank of the calling process, in `[0, P)`.

    ```mlir
    %r = dist.rank
    ```
  }];
  let results = (outs Index:$result);
  let assemblyFormat = "attr-dict";
}

def Dist_GridShapeOp : Dist_Op<"grid_shape",
    [Pure, DeclareOpInterfaceMethods<InferTypeOpInterface>]> {
  let summary = "Extents of a process grid";
  let description = [{
    Returns one extent per grid axis. Static extents fold to constants;
    `?` extents are chosen at run time from `dist.num_ranks` (see
    `#dist.grid`).

    A grid whose extents are all `?` may name `preferred` extents (0: no
    preference for that axis), taken when the number of ranks fits them:
    their product is the number of ranks, or, with a 0, the given extents
    divide it. Otherwise the extents are chosen as without. Unlike static
    extents, a preference never makes a rank count invalid (`#pragma weft
    grid(4, 2)` on a nest that any rank count must run).

    ```mlir
    %px, %py = dist.grid_shape #dist.grid<[?, 2]>
    %r, %c = dist.grid_shape #dist.grid<[?, ?]> prefer [4, 0]
    ```
  }];
  let arguments = (ins Dist_GridAttr:$grid,
                       OptionalAttr<DenseI64ArrayAttr>:$preferred);
  let results = (outs Variadic<Index>:$extents);
  let assemblyFormat = "qualified($grid) (`prefer` $preferred^)? attr-dict";
  let hasFolder = 1;
  let hasVerifier = 1;
}

def Dist_GridCoordOp : Dist_Op<"grid_coord",
    [Pure, DeclareOpInterfaceMethods<InferTypeOpInterface>]> {
  let summary = "Grid coordinates of a process";
  let description = [{
    Returns the coordinates, one per grid axis, of the process with linear
    rank `rank` (default: the calling process). Ranks are laid out in
    row-major order.

    ```mlir
    %i, %j = dist.grid_coord #dist.grid<[?, ?]>
    %k = dist.grid_coord #dist.grid<[4]> of %r
    ```
  }];
  let arguments = (ins Dist_GridAttr:$grid, Optional<Index>:$rank);
  let results = (outs Variadic<Index>:$coords);
  let assemblyFormat = "qualified($grid) (`of` $rank^)? attr-dict";
  let hasVerifier = 1;
}

def Dist_GridRankOp : Dist_Op<"grid_rank", [Pure]> {
  let summary = "Linear rank of the process at given grid coordinates";
  let description = [{
    The inverse of `dist.grid_coord`: the linear rank of the process at
    `coords` (one per grid axis). Used to address neighbours in `dist.send` /
    `dist.recv`.

    ```mlir
    %up = dist.grid_rank #dist.grid<[?, ?]> [%im1, %j]
    ```
  }];
  let arguments = (ins Dist_GridAttr:$grid, Variadic<Index>:$coords);
  let results = (outs Index:$result);
  let assemblyFormat = "qualified($grid) ` ` `[` $coords `]` attr-dict";
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Index arithmetic of a distributed dimension
//===----------------------------------------------------------------------===//

// Common operands: the global range [lowerBound, upperBound) of one
// dimension, the number of processes `extent` of the grid axis it is
// distributed over, and the distribution.
class Dist_DimQueryOp<string mnemonic, list<Trait> traits = []>
    : Dist_Op<mnemonic, !listconcat([Pure], traits)> {
  let hasVerifier = 1;
}

def Dist_LocalBoundsOp : Dist_DimQueryOp<"local_bounds"> {
  let summary = "Iterations of a distributed dimension owned by a process";
  let description = [{
    For the global range `[lb, ub)` distributed by `distribution` over a grid
    axis of `extent` processes, returns `(lo, hi, step)` such that the
    process at coordinate `coord` on that axis owns:
    - `block`, `cyclic`, `replicated`: the indices `lo, lo + step, ...`
      below `hi` (`step` is 1 for `block` and `replicated`, `extent` for
      `cyclic`);
    - `block_cyclic(b)`: for every `s` in `lo, lo + step, ...` below `hi`
      (`step = extent * b`), the block `[s, min(s + b, ub))`.

    Local loops of an owner-computes nest iterate over exactly these indices.
    The range may be empty (`lo >= hi`) when there are more processes than
    indices.

    ```mlir
    %lo, %hi, %st = dist.local_bounds %c1 to %n at %p of %np by #dist.dim<block on 0>
    scf.for %i = %lo to %hi step %st { ... }
    ```
  }];
  let arguments = (ins Index:$lowerBound, Index:$upperBound, Index:$coord,
                       Index:$extent, Dist_DimDistAttr:$distribution);
  let results = (outs Index:$local_lb, Index:$local_ub, Index:$local_step);
  let assemblyFormat = [{
    $lowerBound `to` $upperBound `at` $coord `of` $extent
    `by` qualified($distribution) attr-dict
  }];
  let hasFolder = 1;
}

def Dist_LocalSizeOp : Dist_DimQueryOp<"local_size"> {
  let summary = "Number of indices of a distributed dimension a process owns";
  let description = [{
    Same operands as `dist.local_bounds`; returns how many indices of
    `[lb, ub)` the process at `coord` owns. This is the extent of the
    dimension in the process's local storage (without halo).

    ```mlir
    %m = dist.local_size %c0 to %n at %p of %np by #dist.dim<block_cyclic(4) on 0>
    %a = memref.alloc(%m) : memref<?x1300xf64>
    ```
  }];
  let arguments = (ins Index:$lowerBound, Index:$upperBound, Index:$coord,
                       Index:$extent, Dist_DimDistAttr:$distribution);
  let results = (outs Index:$result);
  let assemblyFormat = [{
    $lowerBound `to` $upperBound `at` $coord `of` $extent
    `by` qualified($distribution) attr-dict
  }];
}

def Dist_LocateOp : Dist_DimQueryOp<"locate"> {
  let summary = "Owner coordinate and local index of a global index";
  let description = [{
    For the global index `index` of a dimension with range `[lb, ub)`
    distributed over a grid axis of `extent` processes, returns the
    coordinate of the owning process on that axis and the position of
    `index` in the owner's local storage (0-based, without halo). The
    distribution must not be `replicated`.

    ```mlir
    %owner, %li = dist.locate %i in %c0 to %n of %np by #dist.dim<cyclic on 0>
    ```
  }];
  let arguments = (ins Index:$index, Index:$lowerBound, Index:$upperBound,
                       Index:$extent, Dist_DimDistAttr:$distribution);
  let results = (outs Index:$owner, Index:$local_index);
  let assemblyFormat = [{
    $index `in` $lowerBound `to` $upperBound `of` $extent
    `by` qualified($distribution) attr-dict
  }];
}

//===----------------------------------------------------------------------===//
// Communication
//===----------------------------------------------------------------------===//

def Dist_HaloExchangeOp : Dist_Op<"halo_exchange"> {
  let summary = "Refresh the halo cells of a block-distributed buffer";
  let description = [{
    `buffer` is the local storage of an array with layout `layout`: along
    every dimension `d` it holds `low[d]` halo cells, the owned indices, then
    `high[d]` halo cells. For every `block`-distributed dimension, the low
    halo is filled from the last `low[d]` owned cells of the previous process
    on that grid axis and the high halo from the first `high[d]` owned cells
    of the next one (non-periodic: halos at the grid boundary are left
    untouched). Dimensions are exchanged in order, halos included, so corner
    cells are filled too. Halo widths must be zero on dimensions that are not
    `block`-distributed.

    ```mlir
    dist.halo_exchange %a on #dist.layout<[block on 0, replicated], grid = [?]>
        low [1, 0] high [1, 0] : memref<?x1300xf64>
    ```
  }];
  let arguments = (ins Dist_Buffer:$buffer, DenseI64ArrayAttr:$low,
                       DenseI64ArrayAttr:$high, Dist_LayoutAttr:$layout);
  let assemblyFormat = [{
    $buffer `on` qualified($layout) `low` $low `high` $high attr-dict
    `:` type($buffer)
  }];
  let hasVerifier = 1;
}

def Dist_RedistributeOp : Dist_Op<"redistribute"> {
  let summary = "Copy a distributed array into another layout";
  let description = [{
    `source` holds this process's part of a global array of shape
    `global_shape` distributed by `source_layout`; after the operation
    `dest` holds this process's part of the same array under `dest_layout`
    (all-to-all communication). Both buffers are local storage without halo;
    use `memref.subview` to address the interior of a buffer with halo. The
    two layouts may use different grids over the same processes.

    ```mlir
    dist.redistribute %a on #dist.layout<[block on 0, replicated], grid = [?]>
        to %b on #dist.layout<[replicated, block on 0], grid = [?]>
        global [1300, %n] : memref<?x?xf64>, memref<1300x?xf64>
    ```
  }];
  let arguments = (ins Dist_Buffer:$source, Dist_Buffer:$dest,
                       Variadic<Index>:$global_shape,
                       DenseI64ArrayAttr:$static_global_shape,
                       Dist_LayoutAttr:$source_layout,
                       Dist_LayoutAttr:$dest_layout);
  let assemblyFormat = [{
    $source `on` qualified($source_layout) `to` $dest `on`
    qualified($dest_layout) `global`
    custom<DynamicIndexList>($global_shape, $static_global_shape) attr-dict
    `:` type($source) `,` type($dest)
  }];
  let hasVerifier = 1;
}

def Dist_GatherOp : Dist_Op<"gather"> {
  let summary = "Assemble a distributed array on one or all processes";
  let description = [{
    `local` holds this process's part (no halo) of the array distributed by
    `layout`; `global` has the global shape. With `root`, the root process's
    `global` receives the whole array and the other processes' `global` is
    left untouched (MPI_Gatherv); without it every process's `global`
    receives it (MPI_Allgatherv). This is the copy-out at the end of a
    distributed region.

    ```mlir
    dist.gather %a on #dist.layout<[block on 0, replicated], grid = [?]>
        into %A root %c0 : memref<?x1300xf64>, memref<1300x1300xf64>
    ```
  }];
  let arguments = (ins Dist_Buffer:$local, Dist_Buffer:$global,
                       Optional<Index>:$root, Dist_LayoutAttr:$layout);
  let assemblyFormat = [{
    $local `on` qualified($layout) `into` $global (`root` $root^)?
    attr-dict `:` type($local) `,` type($global)
  }];
  let hasVerifier = 1;
}

def Dist_ScatterOp : Dist_Op<"scatter"> {
  let summary = "Split a global array into the processes' local parts";
  let description = [{
    The inverse of `dist.gather`: `local` receives this process's part of the
    array in `global`, distributed by `layout`. With `root`, the data come
    from the root process's `global` (MPI_Scatterv); without it every process
    already holds a valid `global` and only copies its own part (no
    communication). This is the copy-in at the start of a distributed
    region.

    ```mlir
    dist.scatter %a on #dist.layout<[block on 0, replicated], grid = [?]>
        from %A : memref<?x1300xf64>, memref<1300x1300xf64>
    ```
  }];
  let arguments = (ins Dist_Buffer:$local, Dist_Buffer:$global,
                       Optional<Index>:$root, Dist_LayoutAttr:$layout);
  let assemblyFormat = [{
    $local `on` qualified($layout) `from` $global (`root` $root^)?
    attr-dict `:` type($local) `,` type($global)
  }];
  let hasVerifier = 1;
}

def Dist_BroadcastOp : Dist_Op<"broadcast", [AttrSizedOperandSegments]> {
  let summary = "Broadcast a scalar or (a slice of) a buffer from a root";
  let description = [{
    A scalar `value` yields the root's value on every process. A memref
    `value` is updated in place: every process's buffer (or the slice
    `[offsets] [sizes]` of it, unit strides) receives the root's contents.

    ```mlir
    %s = dist.broadcast %x root %c0 : f64
    dist.broadcast %A root %r : memref<100x100xf64>
    dist.broadcast %A[%k, 0] [1, 100] root %r : memref<100x100xf64>
    ```
  }];
  let arguments = (ins Dist_ScalarOrBuffer:$value, Index:$root,
                       Variadic<Index>:$offsets, Variadic<Index>:$sizes,
                       OptionalAttr<DenseI64ArrayAttr>:$static_offsets,
                       OptionalAttr<DenseI64ArrayAttr>:$static_sizes);
  let results = (outs Optional<Dist_ElementType>:$result);
  let assemblyFormat = [{
    $value `` custom<Slice>($offsets, $static_offsets, $sizes, $static_sizes)
    `root` $root attr-dict `:` type($value)
    `` custom<ScalarResult>(ref(type($value)), type($result))
  }];
  let hasVerifier = 1;
}

def Dist_ReduceOp : Dist_Op<"reduce"> {
  let summary = "Reduce a scalar or a buffer onto a root process";
  let description = [{
    Combines `value` element-wise over all processes with `kind` (integers are
    signed for `min`/`max`). A scalar yields the reduction on the root and the
    process's own `value` elsewhere. A memref is updated in place on the root
    and left untouched on the other processes.

    ```mlir
    %sum = dist.reduce add %x root %c0 : f64
    dist.reduce max %v root %c0 : memref<16xi32>
    ```
  }];
  let arguments = (ins Dist_ReductionKindAttr:$kind,
                       Dist_ScalarOrBuffer:$value, Index:$root);
  let results = (outs Optional<Dist_ElementType>:$result);
  let assemblyFormat = [{
    $kind $value `root` $root attr-dict `:` type($value)
    `` custom<ScalarResult>(ref(type($value)), type($result))
  }];
  let hasVerifier = 1;
}

def Dist_AllReduceOp : Dist_Op<"allreduce"> {
  let summary = "Reduce a scalar or a buffer onto every process";
  let description = [{
    Like `dist.reduce`, but every process gets the result: a scalar yields it,
    a memref is updated in place everywhere.

    ```mlir
    %sum = dist.allreduce add %x : f64
    dist.allreduce min %v : memref<?xf32>
    ```
  }];
  let arguments = (ins Dist_ReductionKindAttr:$kind,
                       Dist_ScalarOrBuffer:$value);
  let results = (outs Optional<Dist_ElementType>:$result);
  let assemblyFormat = [{
    $kind $value attr-dict `:` type($value)
    `` custom<ScalarResult>(ref(type($value)), type($result))
  }];
  let hasVerifier = 1;
}

class Dist_PointToPointOp<string mnemonic, string peerKeyword>
    : Dist_Op<mnemonic, [AttrSizedOperandSegments]> {
  let arguments = (ins Dist_Buffer:$buffer, Index:$peer,
                       Variadic<Index>:$offsets, Variadic<Index>:$sizes,
                       OptionalAttr<DenseI64ArrayAttr>:$static_offsets,
                       OptionalAttr<DenseI64ArrayAttr>:$static_sizes,
                       OptionalAttr<I64Attr>:$tag);
  let assemblyFormat = "$buffer `` custom<Slice>($offsets, $static_offsets, "
      "$sizes, $static_sizes) `" # peerKeyword # "` $peer "
      "(`tag` $tag^)? attr-dict `:` type($buffer)";
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    /// The message tag (0 when absent).
    int64_t getTagValue() {
      return getTagAttr() ? getTagAttr().getInt() : 0;
    }
  }];
}

def Dist_SendOp : Dist_PointToPointOp<"send", "to"> {
  let summary = "Send (a slice of) a buffer to another process";
  let description = [{
    Blocking send of the buffer, or of its rectangular slice
    `[offsets] [sizes]` (unit strides), to the process of linear rank `peer`.
    Matches a `dist.recv` with the same tag (0 by default; at most 32767, the
    smallest `MPI_TAG_UB` the MPI standard allows). Used for pipelined
    wavefronts and for flow-out sets that are not halos.

    ```mlir
    dist.send %a[%n, 0] [1, 1300] to %down tag 7 : memref<?x1300xf64>
    ```
  }];
}

def Dist_RecvOp : Dist_PointToPointOp<"recv", "from"> {
  let summary = "Receive (a slice of) a buffer from another process";
  let description = [{
    Blocking receive into the buffer, or into its rectangular slice
    `[offsets] [sizes]`, from the process of linear rank `peer`, with the
    given tag (0 by default).

    ```mlir
    dist.recv %a[0, 0] [1, 1300] from %up tag 7 : memref<?x1300xf64>
    ```
  }];
}

def Dist_BarrierOp : Dist_Op<"barrier"> {
  let summary = "Synchronise all processes (MPI_Barrier)";
  let description = [{
    ```mlir
    dist.barrier
    ```
  }];
  let assemblyFormat = "attr-dict";
}

//===----------------------------------------------------------------------===//
// Non-blocking messages
//===----------------------------------------------------------------------===//

def Dist_MessageBufferOp : Dist_Op<"message_buffer"> {
  let summary = "A reusable heap buffer for one message";
  let description = [{
    Returns a one-dimensional buffer of at least `count` elements for the
    message to or from `peer` in slot `slot`. The runtime keeps one buffer
    per (slot, peer) and only grows it, so that a time loop does not allocate
    at every step; the buffer stays valid until the next `message_buffer`
    of the same slot and peer. A `count` of 0 returns the current buffer
    unchanged (used to unpack what an earlier `irecv` delivered).

    ```mlir
    %buf = dist.message_buffer 3, %peer, %n : memref<?xf64>
    ```
  }];
  let arguments = (ins I64Attr:$slot, Index:$peer, Index:$count);
  let results = (outs MemRefRankOf<[Dist_ElementType], [1]>:$buffer);
  let assemblyFormat = "$slot `,` $peer `,` $count attr-dict `:` type($buffer)";
}

class Dist_NonBlockingOp<string mnemonic, string peerKeyword>
    : Dist_Op<mnemonic> {
  let arguments = (ins MemRefRankOf<[Dist_ElementType], [1]>:$buffer,
                       Index:$count, Index:$peer,
                       ConfinedAttr<I64Attr, [IntNonNegative,
                                              IntMaxValue<32767>]>:$tag);
  let assemblyFormat = "$buffer `[` $count `]` `" # peerKeyword #
      "` $peer `tag` $tag attr-dict `:` type($buffer)";
}

def Dist_ISendOp : Dist_NonBlockingOp<"isend", "to"> {
  let summary = "Start sending the first `count` elements of a buffer";
  let description = [{
    `MPI_Isend` of `buffer[0 .. count)` to the process of linear rank `peer`.
    The request is completed by the next `dist.wait_all`; the buffer must
    not change before then.

    ```mlir
    dist.isend %buf[%n] to %peer tag 2 : memref<?xf64>
    ```
  }];
}

def Dist_IRecvOp : Dist_NonBlockingOp<"irecv", "from"> {
  let summary = "Start receiving `count` elements into a buffer";
  let description = [{
    `MPI_Irecv` of `count` elements from the process of linear rank `peer`
    into `buffer[0 .. count)`; the data is there after the next
    `dist.wait_all`.

    ```mlir
    dist.irecv %buf[%n] from %peer tag 2 : memref<?xf64>
    ```
  }];
}

def Dist_WaitAllOp : Dist_Op<"wait_all"> {
  let summary = "Complete every started isend and irecv (MPI_Waitall)";
  let assemblyFormat = "attr-dict";
}

def Dist_ReplicasStaleOp : Dist_Op<"replicas_stale"> {
  let summary = "Whether the other ranks' copies of the data may be outdated";
  let description = [{
    True once a region has sent its live-out values to rank 0 only
    (`dist.set_replicas_stale`): from then on only rank 0's copies of the
    arrays hold the sequential program's values, and a region that reads
    data from before it first fetches them from rank 0.

    ```mlir
    %stale = dist.replicas_stale
    ```
  }];
  let results = (outs I1:$result);
  let assemblyFormat = "attr-dict";
}

def Dist_SetReplicasStaleOp : Dist_Op<"set_replicas_stale"> {
  let summary = "Record that only rank 0's copies of the data are current";
  let assemblyFormat = "attr-dict";
}

def Dist_RangesOverlapOp : Dist_Op<"ranges_overlap", [Pure]> {
  let summary = "Whether two ranges of array elements share memory";
  let description = [{
    True when elements `[lhsBegin, lhsEnd)` of `lhs` and `[rhsBegin,
    rhsEnd)` of `rhs` share a byte of memory. Offsets count elements of
    the row-major layout from each memref's first element and may be
    negative (a pointer into the middle of an array); an empty range
    overlaps nothing. Only addresses are compared, no element is read.
    `dist-alias-check` asks it at region entry, where pointer arguments
    may point into each other.

    ```mlir
    %o = dist.ranges_overlap %a[%lo, %hi], %b[%lo2, %hi2]
        : memref<?xf64>, memref<?x100xf64>
    ```
  }];
  let arguments = (ins AnyMemRef:$lhs, Index:$lhsBegin, Index:$lhsEnd,
                       AnyMemRef:$rhs, Index:$rhsBegin, Index:$rhsEnd);
  let results = (outs I1:$result);
  let assemblyFormat = [{
    $lhs `[` $lhsBegin `,` $lhsEnd `]` `,` $rhs `[` $rhsBegin `,` $rhsEnd `]`
    attr-dict `:` type($lhs) `,` type($rhs)
  }];
}

#endif // WEFT_DIALECTS_DIST_IR_DISTOPS_TD
