//===- PolyhedralRegion.h - Shared polyhedral model of a region -*- C++ -*-===//
//
// The polyhedral model of one region function and the ISL analyses of it
// that several steps of the partitioner need, above all its value-based
// flow. It is an MLIR analysis: dist-partition computes it and keeps it for
// dist-materialize, so ISL's dependence analysis runs once per region.
//
//===----------------------------------------------------------------------===//
#ifndef WEFT_ANALYSIS_POLYHEDRAL_POLYHEDRALREGION_H
#define WEFT_ANALYSIS_POLYHEDRAL_POLYHEDRALREGION_H

#include "mlir/Dialect/Func/IR/FuncOps.h"

#include <memory>

namespace weft {
namespace detail {
struct PolyhedralRegionState;
} // namespace detail

/// Valid while the function's ops stay as they were: passes that only add or
/// remove attributes may preserve it; passes that move, add or erase ops must
/// not (dist-materialize asks for it before it changes anything).
class PolyhedralRegion {
public:
  explicit PolyhedralRegion(mlir::Operation *func);
  ~PolyhedralRegion();
  PolyhedralRegion(const PolyhedralRegion &) = delete;
  PolyhedralRegion &operator=(const PolyhedralRegion &) = delete;

  mlir::func::FuncOp getFunction() const;
  /// The model and the ISL context (private to WeftPolyhedral).
  detail::PolyhedralRegionState &getState() const { return *state; }

private:
  std::unique_ptr<detail::PolyhedralRegionState> state;
};

} // namespace weft

#endif // WEFT_ANALYSIS_POLYHEDRAL_POLYHEDRALREGION_H
