//===- DistOps.td - Dist dialect operations ----------------*- tablegen -*-===//
//
// Part of the weft project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Operations of the dist dialect, each produced by a pass of lib/Partition
// and lowered by convert-dist-to-emitc:
//   - process queries: num_ranks, rank, grid_shape;
//   - index arithmetic of a distributed dimension: local_bounds;
//   - collectives: broadcast, allreduce;
//   - non-blocking messages: message_buffer, isend, irecv, wait_all;
//   - the state of the other ranks' copies: replicas_stale,
//     set_replicas_stale; overlap of arguments: ranges_overlap.
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

//===----------------------------------------------------------------------===//
// Collectives
//===----------------------------------------------------------------------===//

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

def Dist_AllReduceOp : Dist_Op<"allreduce"> {
  let summary = "Reduce a scalar or a buffer onto every process";
  let description = [{
    Combines `value` element-wise over all processes with `kind` (integers
    are signed for `min`/`max`); every process gets the result: a scalar
    yields it, a memref is updated in place everywhere.

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
