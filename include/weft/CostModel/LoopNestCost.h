//===- LoopNestCost.h - Host or device time of one loop nest ---*- C++ -*-===//
//
// The predictions behind the CUDA targets' choice of where a loop nest runs
// (docs/cuda.md): the nest on one CPU core at the rate the MPI partitioner
// charges per memory access, against the nest as kernels on a GPU of the
// device database (roofline of each launch, the launches, and the
// host <-> device copies its data placement adds).
//
//===----------------------------------------------------------------------===//
#ifndef WEFT_COSTMODEL_LOOPNESTCOST_H
#define WEFT_COSTMODEL_LOOPNESTCOST_H

#include "weft/CostModel/Device.h"
#include "weft/CostModel/Link.h"

#include <string>
#include <vector>

namespace weft::cost {

/// Seconds one memory access of a loop nest takes on `d`: an 8-byte element
/// streamed at its effective bandwidth (an upper bound for nests that hit in
/// cache). The MPI partitioner's work term and the CPU side of the CUDA
/// targets' choice both use it.
double secondsPerLoopAccess(const DeviceSpec &d);

/// Start-up of one kernel launch, host side (a prediction: CUDA launches of
/// small kernels take 3 to 10 us end to end).
constexpr double kKernelLaunchUs = 5;
/// Start-up of one cudaMemcpy (the intra-node alpha of Link.h).
constexpr double kHostCopyAlphaUs = kIntraNodeAlphaUs;

/// What the analysis counts for one loop nest, all executions of the
/// region together.
struct LoopNestCounts {
  /// Loads and stores the nest executes.
  double accesses = 0;
  /// Floating-point operations it executes.
  double flops = 0;
  /// Whether those are on doubles (the GPU's fp64 rate) or floats.
  bool doublePrecision = true;
  /// Times the nest runs: one kernel launch each (the iterations of the
  /// host loops around it).
  double launches = 1;
  /// Bytes of the distinct elements one launch touches, summed over the
  /// launches: what the kernels read from and write to device memory.
  double kernelBytes = 0;
  /// Bytes copied host -> device and device -> host for the nest, and how
  /// many copies.
  double bytesIn = 0, bytesOut = 0;
  unsigned copies = 0;
  /// The sizes unknown at compile time that took the nominal value, by
  /// their source names.
  std::vector<std::string> nominalSizes;
};

/// Predicted microseconds of one nest on each side.
struct LoopNestTimes {
  double cpuUs = 0;
  double kernelUs = 0; // the roofline of every launch
  double launchUs = 0; // their start-up
  double copyUs = 0;   // the copies
  double gpuUs() const { return kernelUs + launchUs + copyUs; }
  /// The nest runs on the device only where that is predicted faster.
  bool deviceIsFaster() const { return gpuUs() < cpuUs; }
};

/// The times of `counts` on one core of `cpu` and on `gpu`.
LoopNestTimes predictLoopNest(const LoopNestCounts &counts,
                              const DeviceSpec &gpu, const DeviceSpec &cpu);

} // namespace weft::cost

#endif // WEFT_COSTMODEL_LOOPNESTCOST_H
