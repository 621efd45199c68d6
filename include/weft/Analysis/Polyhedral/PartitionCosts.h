//===- PartitionCosts.h - Costs of distribution choices ---------*- C++ -*-===//
//
// What the Arachne partitioner needs to compare distributions, estimated
// with ISL at nominal sizes: the work of each unit, and for every pair of
// units (source u distributed, receiver t replicated or distributed) the
// bytes and messages of the exact communication sets between them, summed
// over all executions. Sizes that are not compile-time constants take a
// nominal value; counts use the bounding box of each piece of a set (exact
// for the rectangular sets of stencils and dense kernels).
//
//===----------------------------------------------------------------------===//
#ifndef WEFT_ANALYSIS_POLYHEDRAL_PARTITIONCOSTS_H
#define WEFT_ANALYSIS_POLYHEDRAL_PARTITIONCOSTS_H

#include "weft/Analysis/Polyhedral/Communication.h"
#include "weft/CostModel/LoopNestCost.h"
#include "weft/CostModel/NominalSizes.h"

#include <array>
#include <map>

namespace weft {

struct Traffic {
  double bytes = 0;
  double messages = 0;
};

/// How a unit runs: on every rank (0), or distributed over a grid of 1 or 2
/// axes (DistUnit::gridDims).
inline constexpr unsigned kMaxGridDims = 2;
using ModeTraffic = std::array<Traffic, kMaxGridDims + 1>;

struct PartitionCosts {
  /// Ranks and the values given to sizes unknown at compile time.
  unsigned ranks = 4;
  cost::NominalSizes sizes;
  /// The sizes unknown at compile time that took those values, by their
  /// source names where they have one, for the report.
  std::vector<std::string> nominalSizes;
  /// What each unit does on one core over all its executions.
  std::vector<cost::CoreWork> work;
  /// (u, t) -> [mode of u][mode of t] -> traffic when u is distributed
  /// (mode 1 or 2) and t has that mode. Only pairs with traffic appear.
  std::map<std::pair<unsigned, unsigned>,
           std::array<ModeTraffic, kMaxGridDims + 1>>
      flows;
  /// Traffic of the live-out values u writes, by the mode of u.
  std::vector<ModeTraffic> liveOut;
};

/// Estimates the costs for `units`, where `distributed` marks every unit
/// that may be distributed (the candidates) and `gridDims` the most grid
/// axes it may be distributed over (every mode up to it is estimated), the
/// units' work on one core of `cpu`. `preferredGrid` is the 2-D grid's
/// preferred rows and columns (0: none; see gridShape2D).
mlir::FailureOr<PartitionCosts>
estimatePartitionCosts(PolyhedralRegion &region, llvm::ArrayRef<DistUnit> units,
                       unsigned ranks, const cost::NominalSizes &sizes,
                       const cost::DeviceSpec &cpu, unsigned long maxOperations,
                       std::pair<int64_t, int64_t> preferredGrid = {0, 0});

} // namespace weft

#endif // WEFT_ANALYSIS_POLYHEDRAL_PARTITIONCOSTS_H
