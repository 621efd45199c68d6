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
//   - messages of exact element sets: isend, irecv, wait_all, broadcast,
//     allreduce;
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

    A `block` distribution may be `weighted` by the work of its first and
    last index, `w_first` and `w_last` (non-negative): iteration `lb + k`
    then costs `w_first + (w_last - w_first) * k / (N - 1)`, and block `p`
    starts at the smallest index whose preceding iterations cost at least
    `p / P` of the whole range. A triangular nest (iteration `i` runs `i`
    inner iterations) gets blocks of equal work rather than of equal
    length. Without weights, or when they are equal, negative or `N < 2`,
    the blocks are the balanced blocks of `#dist.dim<block>`. The blocks
    stay contiguous and in coordinate order either way; every process
    computes the same bounds from the same operands.

    ```mlir
    %lo, %hi, %st = dist.local_bounds %c1 to %n at %p of %np by #dist.dim<block on 0>
    scf.for %i = %lo to %hi step %st { ... }
    %wlo, %whi, %wst = dist.local_bounds %c0 to %n at %p of %np by #dist.dim<block on 0> weighted(%c1, %n)
    ```
  }];
  let arguments = (ins Index:$lowerBound, Index:$upperBound, Index:$coord,
                       Index:$extent, Dist_DimDistAttr:$distribution,
                       Variadic<Index>:$weights);
  let results = (outs Index:$local_lb, Index:$local_ub, Index:$local_step);
  let assemblyFormat = [{
    $lowerBound `to` $upperBound `at` $coord `of` $extent
    `by` qualified($distribution) (`weighted` `(` $weights^ `)`)? attr-dict
  }];
  let hasFolder = 1;
}

//===----------------------------------------------------------------------===//
// Messages of exact element sets
//===----------------------------------------------------------------------===//

// An array whose elements a message carries (a C bool travels as a byte).
def Dist_Array : MemRefOf<[Dist_ElementType, I1]>;

// The operands every message op has: the array; the ISL set of the elements
// it carries (`elements`, e.g. "[lo, hi, n] -> { A[i, j] : lo <= i < hi and
// 0 <= j < n }"), whose parameters take the values `params` in the order of
// the set's parameter list; and, for an array stored rank-locally, the
// global subscripts of its first element (`origin`; none: all zero). The
// set's tuple name is free; its subscripts are the array's.
class Dist_ElementsOp<string mnemonic, list<Trait> traits = []>
    : Dist_Op<mnemonic, !listconcat([AttrSizedOperandSegments], traits)> {
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    /// The names of the set's parameters, in order.
    ::llvm::SmallVector<::llvm::StringRef> getParamNames() {
      return ::weft::dist::getElementSetParams(getElements());
    }
  }];
}

def Dist_ISendOp : Dist_ElementsOp<"isend"> {
  let summary = "Start sending an exact set of an array's elements";
  let description = [{
    Sends the elements of `array` in the set `elements` (at the values
    `params` of its parameters) to the process of linear rank `peer`,
    without waiting: the runtime packs them (in lexicographic order, the
    disjoint pieces of the set one after the other) and the next
    `dist.wait_all` completes the message. Nothing is sent when the set is
    empty. The receiver's `dist.irecv` names the same set with the same
    parameter values, so both ends agree on the elements and their order
    without sending either. The tag is in `[0, 32767]`.

    ```mlir
    dist.isend %a elements "[lo, hi] -> { A[i] : i = hi - 1 and hi > lo }"
        (%lo, %hi) to %peer tag 0 : memref<?xf64>
    ```
  }];
  let arguments = (ins Dist_Array:$array, StrAttr:$elements,
                       Variadic<Index>:$params, Variadic<Index>:$origin,
                       Index:$peer,
                       ConfinedAttr<I64Attr, [IntNonNegative,
                                              IntMaxValue<32767>]>:$tag);
  let assemblyFormat = [{
    $array `elements` $elements ` ` `(` $params `)`
    (`origin` ` ` `[` $origin^ `]`)? `to` $peer `tag` $tag attr-dict
    `:` type($array)
  }];
}

def Dist_IRecvOp : Dist_ElementsOp<"irecv"> {
  let summary = "Start receiving an exact set of an array's elements";
  let description = [{
    The receiving end of `dist.isend`: the elements of `array` in the set
    `elements` (at the values `params`) come from the process of linear
    rank `peer`, and hold the sender's values once the next `dist.wait_all`
    returns. Nothing is received when the set is empty.

    ```mlir
    dist.irecv %a elements "[lo, hi] -> { A[i] : i = hi - 1 and hi > lo }"
        (%plo, %phi) from %peer tag 0 : memref<?xf64>
    ```
  }];
  let arguments = (ins Dist_Array:$array, StrAttr:$elements,
                       Variadic<Index>:$params, Variadic<Index>:$origin,
                       Index:$peer,
                       ConfinedAttr<I64Attr, [IntNonNegative,
                                              IntMaxValue<32767>]>:$tag);
  let assemblyFormat = [{
    $array `elements` $elements ` ` `(` $params `)`
    (`origin` ` ` `[` $origin^ `]`)? `from` $peer `tag` $tag attr-dict
    `:` type($array)
  }];
}

def Dist_WaitAllOp : Dist_Op<"wait_all"> {
  let summary = "Complete every started isend and irecv (MPI_Waitall)";
  let description = [{
    Waits for every message started since the last `dist.wait_all`; the
    elements of each `dist.irecv` then hold the sender's values.
  }];
  let assemblyFormat = "attr-dict";
}

def Dist_BroadcastOp : Dist_ElementsOp<"broadcast"> {
  let summary = "Broadcast an exact set of an array's elements from a root";
  let description = [{
    Every process's elements of `array` in the set `elements` (at the
    values `params`, the same on every process) receive the values of the
    process of linear rank `root` (MPI_Bcast of the packed elements).

    ```mlir
    dist.broadcast %a elements "[n] -> { A[i] : 0 <= i < n }" (%n)
        root %c0 : memref<?xf64>
    ```
  }];
  let arguments = (ins Dist_Array:$array, StrAttr:$elements,
                       Variadic<Index>:$params, Variadic<Index>:$origin,
                       Index:$root);
  let assemblyFormat = [{
    $array `elements` $elements ` ` `(` $params `)`
    (`origin` ` ` `[` $origin^ `]`)? `root` $root attr-dict `:` type($array)
  }];
}

def Dist_AllReduceOp : Dist_ElementsOp<"allreduce"> {
  let summary = "Combine an exact set of an array's elements across processes";
  let description = [{
    Every process's elements of `array` in the set `elements` (at the
    values `params`, the same on every process) are replaced by their
    combination over all processes with `kind` (MPI_Allreduce; integers are
    signed for `min`/`max`).

    ```mlir
    dist.allreduce add %y elements "[n] -> { Y[i] : 0 <= i < n }" (%n)
        : memref<?xf64>
    ```
  }];
  let arguments = (ins Dist_ReductionKindAttr:$kind, Dist_Array:$array,
                       StrAttr:$elements, Variadic<Index>:$params,
                       Variadic<Index>:$origin);
  let assemblyFormat = [{
    $kind $array `elements` $elements ` ` `(` $params `)`
    (`origin` ` ` `[` $origin^ `]`)? attr-dict `:` type($array)
  }];
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
