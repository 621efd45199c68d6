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

/// Marks every unit (a unit attribute).
inline constexpr llvm::StringLiteral kUnitAttr = "dist.unit";
/// Marks a distributed unit: its distribution (a #dist.dim).
inline constexpr llvm::StringLiteral kDistributeAttr = "dist.distribute";

struct UnitCandidate {
  DistUnit unit;
  /// Whether the unit may be distributed; if not, why.
  bool distributable = false;
  std::string reason;
};

/// The units of `func`, in program order, with what may be distributed.
llvm::SmallVector<UnitCandidate> findUnits(mlir::func::FuncOp func,
                                           const FlowDependenceInfo &deps);

/// The units recorded by dist-partition, in program order.
llvm::SmallVector<DistUnit> recordedUnits(mlir::func::FuncOp func);

} // namespace weft

#endif // WEFT_LIB_PARTITION_UNITS_H
