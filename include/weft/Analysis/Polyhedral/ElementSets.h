//===- ElementSets.h - Exact element sets for the MPI runtime ---*- C++ -*-===//
//
// dist-materialize writes each message as the exact ISL set of the array
// elements it carries, parametric in the blocks of the sender and the
// receiver (Communication.h). The MPI runtime enumerates such a set itself
// (runtime/mpi/weft_rt_elements.h), from the table encodeElementSet makes:
// a union of pieces, each a conjunction of integer constraints
// over the parameters, the subscripts and explicit integer divisions, with
// the bounds of every subscript as functions of the ones before it. Both
// ends of a message walk the same table with the same parameters, so they
// agree on the elements and their order without sending either.
//
// The pieces are disjoint, so that each element is visited once, unless
// splitting them exceeded its quota of ISL operations: then `pieces` is
// negative (-pieces of them, which may share elements) and the walk
// merges their elements, in the order of their addresses.
//
// Table layout (int64_t):
//   dims, params, pieces, then per piece
//     divs, rows,
//     per div:  level, denominator, coefficients[V], constant
//     per row:  level, kind, coefficients[V], constant
//   V = params + dims + divs; variables in that order. A division is
//   floor((coefficients . v + constant) / denominator). A row is
//   `coefficients . v + constant >= 0` (kinds 0, 2) or `== 0` (1, 3).
//   Its level is the last subscript it involves (-1: parameters only);
//   kinds 0 and 1 bound the subscript of their level (no division of that
//   level appears in them), kinds 2 and 3 only filter.
//
//===----------------------------------------------------------------------===//
#ifndef WEFT_ANALYSIS_POLYHEDRAL_ELEMENTSETS_H
#define WEFT_ANALYSIS_POLYHEDRAL_ELEMENTSETS_H

#include "mlir/IR/Operation.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"

#include <cstdint>

namespace weft {

/// The runtime's table of the ISL set `set` of `dims`-dimensional elements
/// (see the file comment). Fails with an error at `at` when ISL cannot
/// parse the set, when it is not a set of `dims` subscripts, when some
/// subscript is unbounded, or over the runtime's limits
/// (dist::kMaxElementSetDims, dist::kMaxElementSetParams). Splitting the set
/// into disjoint pieces may take `maxDisjointOperations` ISL operations
/// (about 0.4 s per million here); beyond, the table lists overlapping
/// pieces.
mlir::FailureOr<llvm::SmallVector<int64_t>>
encodeElementSet(mlir::Operation *at, llvm::StringRef set, unsigned dims,
                 unsigned long maxDisjointOperations = 1000000);

} // namespace weft

#endif // WEFT_ANALYSIS_POLYHEDRAL_ELEMENTSETS_H
