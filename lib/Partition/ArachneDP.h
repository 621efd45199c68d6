//===- ArachneDP.h - The Arachne dynamic program -----------------*- C++
//-*-===//
//
// Private to WeftPartition. Chooses, for every unit of a region, its mode:
// replicated, or distributed over a grid of 1 or 2 axes, so that the
// predicted time is minimal:
//
//   time = sum_u  gamma * work_u / (distributed ? P : 1)     (the ranks
//                 of a node sharing its memory bandwidth, lib/CostModel)
//        + sum_(u,t) [u distributed] (alpha * messages + beta * bytes) / P
//                                    of the flow u -> t given both modes
//        + sum_u [u distributed] the same for u's live-out values
//
// The terms couple pairs of units, so the program runs over the units in
// program order with, as its state, the modes of the units decided so far
// that still share a term with a later unit (the "window"); it is exact over
// this candidate space. See docs/partitioning.md.
//
//===----------------------------------------------------------------------===//
#ifndef WEFT_LIB_PARTITION_ARACHNEDP_H
#define WEFT_LIB_PARTITION_ARACHNEDP_H

#include "weft/Analysis/Polyhedral/PartitionCosts.h"

#include "llvm/Support/Error.h"

namespace weft {

/// Machine parameters of the time model (seconds), from weft's cost model
/// (lib/CostModel): a device of its database runs the loops, an MPI link
/// of the given bandwidth carries the messages.
struct MachineModel {
  double latency = 0;          // alpha, per message
  double secondsPerByte = 0;   // beta
  /// What runs each rank: a unit's work on one of its cores.
  cost::DeviceSpec cpu;
  /// Ranks that run on one node at the same time: their units share its
  /// memory bandwidth (cost::predictCoreSeconds' `sharers`).
  unsigned ranksOnNode = 1;
  /// Whether a region of which nothing is distributed runs on rank 0 alone
  /// (dist-run-on-root), so that no other rank shares its node's memory.
  bool replicatedOnRoot = true;

  /// Fails on an unknown device name or a CPU description file it cannot
  /// read (cost::lookupCpu). `ranksPerNode` 0 places the ranks as
  /// mpirun does by default, filling a node's cores (the device's `sms`)
  /// before the next.
  static llvm::Expected<MachineModel> get(llvm::StringRef device,
                                          double linkGBps, unsigned ranks,
                                          unsigned ranksPerNode);
};

struct PartitionChoice {
  /// Per unit: 0 replicated, else the grid axes it is distributed over.
  llvm::SmallVector<unsigned> modes;
  double predictedSeconds = 0;
  /// False when the window grew too large and every candidate was taken.
  bool exact = true;
  /// States the program visited (for the report).
  size_t states = 0;
};

/// The predicted time of one assignment of modes. Where nothing is
/// distributed and `m.replicatedOnRoot`, rank 0 runs the units alone.
double predictSeconds(llvm::ArrayRef<unsigned> modes,
                      const PartitionCosts &costs, const MachineModel &m);

/// What a unit may be: the modes the program considers for it.
struct UnitOptions {
  bool replicated = true;
  bool distributed = false; // over all ranks (1 axis)
  bool grid = false;        // over a 2-D grid
  bool allows(unsigned mode) const {
    return mode == 0 ? replicated : mode == 1 ? distributed : grid;
  }
  /// The mode taken without a cost estimate: distributed when allowed,
  /// over all ranks rather than a grid.
  unsigned fallback() const { return distributed ? 1 : grid ? 2 : 0; }
};

/// The best assignment among `options` (each unit has at least one), except
/// that a unit over a 2-D grid takes 1-D blocks where they are predicted
/// within 0.1 % of the region's best time. Replicating every unit counts at
/// its time on rank 0 alone where `m.replicatedOnRoot`.
PartitionChoice choosePartition(llvm::ArrayRef<UnitOptions> options,
                                const PartitionCosts &costs,
                                const MachineModel &m);

} // namespace weft

#endif // WEFT_LIB_PARTITION_ARACHNEDP_H
