//===- DistAttrs.td - Dist dialect attributes --------------*- tablegen -*-===//
//
// Part of the weft project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Enums and attributes of the dist dialect: the process grid, the
// distribution of one dimension, and the layout of a whole loop nest or array.
//
//===----------------------------------------------------------------------===//

#ifndef WEFT_DIALECTS_DIST_IR_DISTATTRS_TD
#define WEFT_DIALECTS_DIST_IR_DISTATTRS_TD

include "dialects/Dist/IR/DistBase.td"
include "mlir/IR/AttrTypeBase.td"
include "mlir/IR/EnumAttr.td"

//===----------------------------------------------------------------------===//
// Enums
//===----------------------------------------------------------------------===//

def Dist_DistKind : I32EnumAttr<"DistKind",
    "how one dimension is split over one grid axis", [
      I32EnumAttrCase<"Block", 0, "block">,
      I32EnumAttrCase<"Cyclic", 1, "cyclic">,
      I32EnumAttrCase<"BlockCyclic", 2, "block_cyclic">,
      I32EnumAttrCase<"Replicated", 3, "replicated">
    ]> {
  let cppNamespace = "::weft::dist";
  // Only used as an attribute parameter (EnumParameter); no attribute class.
  let genSpecializedAttr = 0;
}

def Dist_ReductionKindAttr : I32EnumAttr<"ReductionKind",
    "element-wise reduction operator", [
      I32EnumAttrCase<"Add", 0, "add">,
      I32EnumAttrCase<"Mul", 1, "mul">,
      I32EnumAttrCase<"Min", 2, "min">,
      I32EnumAttrCase<"Max", 3, "max">
    ]> {
  let cppNamespace = "::weft::dist";
}

//===----------------------------------------------------------------------===//
// Parameters
//===----------------------------------------------------------------------===//

// An optional integer (block size, grid axis). `std::nullopt` when absent; a
// negative value that was written is kept so that the verifier can reject it
// with a located diagnostic.
def Dist_OptionalI64Parameter
    : OptionalParameter<"::std::optional<int64_t>">;

//===----------------------------------------------------------------------===//
// Attributes
//===----------------------------------------------------------------------===//

class Dist_Attr<string name, string attrMnemonic, list<Trait> traits = []>
    : AttrDef<Dist_Dialect, name, traits> {
  let mnemonic = attrMnemonic;
}

def Dist_GridAttr : Dist_Attr<"Grid", "grid"> {
  let summary = "A Cartesian grid of processes";
  let description = [{
    A process grid of rank >= 1. Each extent is either a positive integer or
    `?`: chosen at run time from the number of ranks, the way
    `MPI_Dims_create` fills in zero entries (the static extents are kept; their
    product must divide the number of ranks; a fully static grid needs exactly
    that many ranks). Ranks are numbered in row-major
    order over the grid coordinates (the last axis varies fastest), as in
    `MPI_Cart_create` without reordering.

    ```mlir
    #dist.grid<[4, 2]>    // 8 processes, 4 x 2
    #dist.grid<[?]>       // all processes on one axis
    #dist.grid<[?, ?]>    // a 2-D grid chosen at run time
    ```
  }];
  let parameters = (ins ArrayRefParameter<"int64_t", "grid extents">:$shape);
  let assemblyFormat = "`<` custom<GridShape>($shape) `>`";
  let genVerifyDecl = 1;
  let extraClassDeclaration = [{
    /// Number of grid axes.
    unsigned getRank() const { return getShape().size(); }
    /// True if extent `axis` is chosen at run time.
    bool isDynamicAxis(unsigned axis) const {
      return ::mlir::ShapedType::isDynamic(getShape()[axis]);
    }
    /// True if every extent is known at compile time.
    bool hasStaticShape() const;
    /// Number of processes in the grid, when every extent is static.
    std::optional<int64_t> getNumProcesses() const;
  }];
}

def Dist_DimDistAttr : Dist_Attr<"DimDist", "dim"> {
  let summary = "Distribution of one loop or array dimension over a grid axis";
  let description = [{
    How the index range `[lb, ub)` of one dimension is split over the
    `P` processes of grid axis `axis` (coordinate `p` in `[0, P)`,
    `N = ub - lb`, `k = i - lb`):

    | kind | owner of `i` | owned indices of `p` |
    |---|---|---|
    | `block` | balanced blocks: the first `N mod P` coordinates own `N/P + 1` indices, the others `N/P` | one contiguous range |
    | `cyclic` | `k mod P` | `lb + p, lb + p + P, ...` |
    | `block_cyclic(b)` | `(k / b) mod P` | blocks of `b` indices, every `P * b` |
    | `replicated` | every process | all of `[lb, ub)` |

    Distributed kinds name the grid axis with `on <axis>`; `replicated` names
    none. The block size `b` is given for `block_cyclic` only and must be
    positive.

    ```mlir
    #dist.dim<block on 0>
    #dist.dim<cyclic on 1>
    #dist.dim<block_cyclic(32) on 0>
    #dist.dim<replicated>
    ```
  }];
  let parameters = (ins
    EnumParameter<Dist_DistKind>:$kind,
    Dist_OptionalI64Parameter:$blockSize,
    Dist_OptionalI64Parameter:$gridAxis
  );
  // The body is shared with the entries of `#dist.layout`.
  let assemblyFormat = [{
    `<` custom<DimDistBody>($kind, $blockSize, $gridAxis) `>`
  }];
  let genVerifyDecl = 1;
  let builders = [
    AttrBuilder<(ins "DistKind":$kind, "int64_t":$gridAxis), [{
      return $_get($_ctxt, kind, std::nullopt, gridAxis);
    }]>
  ];
  let extraClassDeclaration = [{
    /// A replicated dimension (no grid axis).
    static DimDistAttr getReplicated(::mlir::MLIRContext *context);
    /// A block-cyclic dimension with block size `blockSize`.
    static DimDistAttr getBlockCyclic(::mlir::MLIRContext *context,
                                      int64_t blockSize, int64_t gridAxis);
    /// True unless the dimension is replicated.
    bool isDistributed() const { return getKind() != DistKind::Replicated; }
  }];
}

def Dist_LayoutAttr : Dist_Attr<"Layout", "layout"> {
  let summary = "Distribution of a loop nest or an array over a process grid";
  let description = [{
    One `#dist.dim` entry per loop (outermost first) or per array dimension,
    plus the process grid. Two dimensions may not share a grid axis; a grid
    axis that no dimension uses means the data (or iterations) are replicated
    along that axis. Entries are written without the `#dist.dim` prefix.

    A layout can annotate:
    - an `affine.for` / `scf.for` nest, as the discardable attribute
      `dist.layout` (the first entries map to the outermost loops of the
      perfectly nested band rooted there);
    - a memref function argument or result, a `memref.alloc`-like op or a
      `memref.global`, as `dist.layout` (rank must match);
    - a memref type, as its memory space:
      `memref<?x1300xf64, #dist.layout<[block on 0, replicated], grid = [?]>>`;
    - the dist communication ops, as their `layout` attribute.

    ```mlir
    #dist.layout<[block on 0, replicated], grid = [?]>
    #dist.layout<[block on 0, block on 1], grid = [4, 2]>
    #dist.layout<[cyclic on 1, block_cyclic(8) on 0], grid = [2, ?]>
    ```
  }];
  let parameters = (ins
    ArrayRefParameter<"DimDistAttr", "per-dimension distributions">:$dims,
    "GridAttr":$grid
  );
  let assemblyFormat = [{
    `<` custom<DimDistList>($dims) `,` `grid` `=` custom<GridRef>($grid) `>`
  }];
  let genVerifyDecl = 1;
  let extraClassDeclaration = [{
    /// Number of loop / array dimensions described.
    unsigned getRank() const { return getDims().size(); }
    /// The dimension distributed over grid axis `axis`, if any.
    std::optional<unsigned> getDimOfGridAxis(unsigned axis) const;
    /// Checks that `type` can hold data with this layout: same rank, and, when
    /// the type's memory space is a layout, the same layout.
    ::mlir::LogicalResult verifyMemRefType(
        ::mlir::MemRefType type,
        ::llvm::function_ref<::mlir::InFlightDiagnostic()> emitError) const;
  }];
}

#endif // WEFT_DIALECTS_DIST_IR_DISTATTRS_TD
