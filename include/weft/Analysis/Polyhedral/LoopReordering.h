//===- LoopReordering.h - Loop distribution and interchange ----*- C++ -*-===//
//
// What gpu-expose-bands (docs/cuda.md) and dist-interchange-inner ask ISL
// before they reorder loops, answered on the region's exact dependences:
// flow, anti and output, every pair of statement instances whose order the
// program fixes. A reordering is legal when it keeps the source of each
// such pair before its sink. Also the two rewrites both make of the
// answers: the cuts no SSA value crosses, and the distribution itself.
//
//===----------------------------------------------------------------------===//
#ifndef WEFT_ANALYSIS_POLYHEDRAL_LOOPREORDERING_H
#define WEFT_ANALYSIS_POLYHEDRAL_LOOPREORDERING_H

#include "weft/Analysis/Polyhedral/PolyhedralRegion.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "llvm/ADT/SmallVector.h"

namespace weft {

/// Splitting `loop` over the ops of its body (`for i {A; B}` into
/// `for i A; for i B`) runs every instance of the first part before every
/// instance of the second, in each execution of the loops around `loop`.
struct DistributionQuery {
  mlir::affine::AffineForOp loop;
  /// The parts to cut `loop`'s body into, in program order: the ops of its
  /// body (when empty), or those with a loop of the body replaced by the
  /// ops of its own body, to ask about distributing both loops.
  llvm::SmallVector<mlir::Operation *> parts;
  /// Answer, per cut between part p and part p + 1: whether no dependence
  /// goes, within one execution of `loop`, from an instance of a statement
  /// after the cut to one of a statement before it.
  llvm::SmallVector<bool> legalCuts;
};

/// Swapping `outer` and `inner`, an op of `outer`'s body: the only one, or
/// one that distributing `outer` leaves alone in its copy of `outer`. Only
/// the dependences between statements in `inner` count.
struct InterchangeQuery {
  mlir::affine::AffineForOp outer, inner;
  /// Where `inner` is distributed too: the ops of its body that stay in
  /// the copy, whose statements alone count. Empty: all of them.
  llvm::SmallVector<mlir::Operation *> only;
  /// Answers, on the dependences within one execution of `outer`:
  /// `legal`: none goes forward along `outer` and backward along `inner`
  /// (its distance vector stays lexicographically positive when swapped);
  /// `innerParallel`: none has different iterations of `inner`, so that
  /// moved outward, `inner` carries none;
  /// `outerParallel`: none has different iterations of `outer`, so that
  /// moved inward, `outer` carries none.
  bool legal = false;
  bool innerParallel = false;
  bool outerParallel = false;
};

/// Answers the queries. Fails with an error on the function when ISL fails
/// or exceeds `maxOperations`, and quietly when the function is not a
/// static control part.
mlir::LogicalResult
analyzeLoopReorderings(PolyhedralRegion &region,
                       llvm::MutableArrayRef<DistributionQuery> distributions,
                       llvm::MutableArrayRef<InterchangeQuery> interchanges,
                       unsigned long maxOperations);

/// Per cut between `parts[p]` and `parts[p + 1]` (ops of `root`'s body, in
/// order): whether no SSA value defined in a part up to p is used after it.
llvm::SmallVector<bool> valueFreeCuts(mlir::Operation *root,
                                      llvm::ArrayRef<mlir::Operation *> parts);

/// Distributes `loop` over its body's ops (all of them, in order) at `cut`
/// (one entry per pair of consecutive ops): one copy of `loop` per group,
/// in order, each keeping its group's ops; `loop` itself is erased unless
/// nothing is cut. Returns where each op now is, and the loops that hold
/// them in `made` (`loop` alone when nothing is cut).
llvm::SmallVector<mlir::Operation *> distributeLoop(
    mlir::affine::AffineForOp loop, llvm::ArrayRef<bool> cut,
    llvm::SmallVectorImpl<mlir::affine::AffineForOp> *made = nullptr);

} // namespace weft

#endif // WEFT_ANALYSIS_POLYHEDRAL_LOOPREORDERING_H
