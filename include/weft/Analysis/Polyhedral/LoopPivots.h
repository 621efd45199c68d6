//===- LoopPivots.h - Loops whose dependences meet at one iteration -*- C++
//-*-===//
//
// A loop that carries flow dependences only from or to one of its
// iterations, the pivot (Floyd-Warshall's row k, rewritten at i = k and read
// by the iterations after it), runs the same instances in the same order
// when split there into [lb, p), [p, p + 1) and [p + 1, ub), and no piece
// carries a flow dependence. ISL finds the pivot from the exact value-based
// dependences; dist-split-pivots splits the loop.
//
//===----------------------------------------------------------------------===//
#ifndef WEFT_ANALYSIS_POLYHEDRAL_LOOPPIVOTS_H
#define WEFT_ANALYSIS_POLYHEDRAL_LOOPPIVOTS_H

#include "weft/Analysis/Polyhedral/PolyhedralRegion.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "llvm/ADT/DenseMap.h"

#include <string>

namespace weft {

/// The pivot iteration of a loop: an affine function of the iterators of
/// the loops around it and of the region's symbols.
struct LoopPivot {
  /// One result; its dims are the first operands, its symbols the rest.
  mlir::AffineMap map;
  llvm::SmallVector<mlir::Value> operands;
  /// The pivot for remarks, "i1 = i0": the loops' iterators are i0, ...
  /// from the outermost (the loop's own is i<depth>), the symbols p0, ....
  std::string text;
  /// Whether some execution of the loop runs an iteration before the pivot
  /// (after it): otherwise that piece of the split is empty.
  bool runsBefore = true, runsAfter = true;
};

/// For each of `loops` that carries flow dependences, all of which start or
/// end at one iteration p given by the same affine function of the iterators
/// around it and the symbols wherever the loop carries any: p. Fails with an
/// error on the function when it is not a static control part or ISL
/// exceeds `maxOperations` (0: no limit).
mlir::FailureOr<llvm::DenseMap<mlir::Operation *, LoopPivot>>
computeLoopPivots(PolyhedralRegion &region,
                  llvm::ArrayRef<mlir::affine::AffineForOp> loops,
                  unsigned long maxOperations);

} // namespace weft

#endif // WEFT_ANALYSIS_POLYHEDRAL_LOOPPIVOTS_H
