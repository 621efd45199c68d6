//===- Units.h - Units of work of a region function -------------*- C++ -*-===//
//
// Private to WeftPartition. A unit of work is an op of the function body,
// or of the body of a loop that carries a dependence and holds a parallel
// loop (a time loop), that accesses memory. dist-partition decides per unit;
// the decision travels to dist-materialize as attributes.
//
//===----------------------------------------------------------------------===//
#ifndef WEFT_LIB_PARTITION_UNITS_H
#define WEFT_LIB_PARTITION_UNITS_H

#include "weft/Analysis/Polyhedral/Communication.h"
#include "weft/Analysis/Polyhedral/FlowDependences.h"

#include <string>

namespace weft {

struct UnitCandidate {
  DistUnit unit;
  /// Whether the unit may be distributed; if not, why.
  bool distributable = false;
  std::string reason;
  /// Whether it may also be distributed over a 2-D grid: its body is one
  /// loop (holding every access) that carries no flow dependence, with
  /// step 1 and bounds known before the first unit. `unit.gridDims` stays
  /// 1; dist-partition decides.
  bool gridCapable = false;
};

/// The units of `func`, in program order, with what may be distributed.
/// Floating-point reductions are split across ranks only if
/// `splitFpReductions`.
llvm::SmallVector<UnitCandidate> findUnits(mlir::func::FuncOp func,
                                           const FlowDependenceInfo &deps,
                                           bool splitFpReductions);

/// Why a loop that only --fp-reductions=ordered keeps whole is not split.
inline constexpr llvm::StringLiteral kFpReductionsOrdered =
    "its floating-point reductions stay in program order "
    "(--fp-reductions=ordered)";

/// Whether `loop` could be split if its floating-point reductions could
/// (it carries only reductions, some of them floating-point).
bool splitsWithFpReductionsOnly(mlir::Operation *loop,
                                const FlowDependenceInfo &deps);

/// From `#pragma weft grid` (the function's `dist.grid`): the 2-D grid's
/// preferred rows and columns (0: none; see gridShape2D), and whether the
/// region may use a 2-D grid at all (not under a 1-D `grid(...)`).
struct GridPreference {
  int64_t rows = 0, cols = 0;
  bool allowsGrid = true;
};
GridPreference gridPreference(mlir::func::FuncOp func);

/// Whether `v` is an argument of `op`'s block or the result of an op before
/// `op` in it: a value that code placed just before `op` may use.
bool definedBefore(mlir::Value v, mlir::Operation *op);

/// The units recorded by dist-partition, in program order.
llvm::SmallVector<DistUnit> recordedUnits(mlir::func::FuncOp func);

} // namespace weft

#endif // WEFT_LIB_PARTITION_UNITS_H
