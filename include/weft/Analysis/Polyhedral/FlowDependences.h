//===- FlowDependences.h - Exact flow dependences with ISL ------*- C++ -*-===//
//
// The first piece of weft's polyhedral model: for a function whose body is
// a static control part (affine loops, ifs, loads and stores only), the
// iteration domains, access relations and schedule of every access are
// built in ISL, the exact value-based flow dependences are computed with
// isl_union_access_info_compute_flow, and each affine loop is classified as
// carrying a flow dependence or not, and as parallel (carrying no flow, anti
// or output dependence) or not.
//
// ISL lives behind this interface, in the one library built with C++
// exceptions; its errors (including a blown operations quota) come back as
// diagnostics on the function, never as aborts.
//
//===----------------------------------------------------------------------===//
#ifndef WEFT_ANALYSIS_POLYHEDRAL_FLOWDEPENDENCES_H
#define WEFT_ANALYSIS_POLYHEDRAL_FLOWDEPENDENCES_H

#include "weft/Analysis/Polyhedral/PolyhedralRegion.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallVector.h"

#include <string>

namespace weft {

struct FlowDependenceInfo {
  /// Statements (affine loads and stores) in the model.
  unsigned numStatements = 0;
  /// For every affine.for: whether some flow dependence is carried by it.
  llvm::DenseMap<mlir::Operation *, bool> loopCarriesFlow;
  /// For every affine.for: whether it carries no dependence at all (flow,
  /// anti or output), so its iterations may run in any order.
  llvm::DenseMap<mlir::Operation *, bool> loopIsParallel;
  /// Whether `loop`'s iterations may run on different ranks, each with its
  /// own copy of memory: it carries no flow dependence. Anti and output
  /// dependences (a scalar temporary rewritten by every iteration) order
  /// nothing there: every rank reads its own copy, which holds the value
  /// each read sees, and the exact flow says whose value later readers get.
  bool carriesNoFlow(mlir::Operation *loop) const {
    return !loopCarriesFlow.lookup(loop);
  }
  /// Whether a loop nested in `op` (not `op` itself) carries no flow
  /// dependence.
  bool holdsFlowFreeLoop(mlir::Operation *op) const;
  /// For a loop that is not parallel only because of reduction updates
  /// `X[e] = X[e] op v` inside it (op: add, mul, max, min): their kinds. Such
  /// a loop can be split across ranks and its partial results combined.
  llvm::DenseMap<mlir::Operation *, llvm::SmallVector<std::string, 1>>
      loopReductions;
  /// For such a loop: the reduction updates whose accumulators several of
  /// its iterations update (their stores, with their kinds). Splitting the
  /// loop across ranks means combining these partial results; the others
  /// (accumulators of inner loops) stay private to one iteration.
  struct Reduction {
    mlir::Operation *store;
    std::string kind;
  };
  llvm::DenseMap<mlir::Operation *, llvm::SmallVector<Reduction, 1>>
      carriedReductions;
  /// The flow dependences, as an ISL union map (statement instances to
  /// statement instances), for tests and debugging.
  std::string dependences;
};

/// Computes the flow dependences of the region's function. Fails with an
/// error on the function when it is not a static control part or ISL exceeds
/// `maxOperations` (0: no limit).
mlir::FailureOr<FlowDependenceInfo>
computeFlowDependences(PolyhedralRegion &region, unsigned long maxOperations);

} // namespace weft

#endif // WEFT_ANALYSIS_POLYHEDRAL_FLOWDEPENDENCES_H
