//===- LoopNestCost.h - Host or device time of one loop nest ---*- C++ -*-===//
//
// The predictions behind the CUDA targets' choice of where a loop nest runs
// (docs/cuda.md): the nest on one CPU core (the roofline of its cache and
// memory traffic and its flops, as the MPI partitioner charges a rank's
// work), against the nest as kernels on a GPU of the
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

/// Start-up of one kernel launch, host side (a prediction: CUDA launches of
/// small kernels take 3 to 10 us end to end).
constexpr double kKernelLaunchUs = 5;
/// Start-up of one cudaMemcpy (the intra-node alpha of Link.h).
constexpr double kHostCopyAlphaUs = kIntraNodeAlphaUs;

/// What one CPU core does running a loop nest, all its executions together
/// (weft::detail::coreWork).
struct CoreWork {
  /// Floating-point operations, on doubles or floats.
  double flops = 0;
  bool doublePrecision = true;
  /// Bytes its loads and stores move between registers and L1.
  double accessBytes = 0;
  /// Bytes each cache level of DeviceSpec::cacheKiB fetches (L1 from L2,
  /// L2 from L3, L3 from memory).
  double fills[DeviceSpec::kCacheLevels] = {0, 0, 0};
  /// Nanoseconds the iterations of innermost loops wait for the value an
  /// earlier iteration carries (an accumulator, a recurrence).
  double chainNs = 0;
  /// The operations on data (floating-point and integer) of innermost loops
  /// the compiler cannot vectorise (a carried value, a load that may read
  /// what the loop stores).
  double scalarOps = 0;
};

/// Predicted seconds of `work` on one core of `cpu`, the slowest of: its
/// loads and stores at the rate of a vectorised loop in L1, each cache
/// level's fills at the rate the core reads them (from memory at the
/// effective bandwidth), the flops at one core's share of the peak (as if
/// vectorised), the scalar operations at that peak over the doubles of a
/// vector,
/// and the carried chains (a roofline with a latency term). `sharers` cores
/// of the node (ranks placed on it) run at the same time and share its
/// memory: each reads what one core reads alone (bandwidthGBps x memEff)
/// or the node's nodeMemoryGBps over `sharers`, whichever is less.
double predictCoreSeconds(const CoreWork &work, const DeviceSpec &cpu,
                          unsigned sharers = 1);

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
  /// What one CPU core does running the nest.
  CoreWork core;
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

/// Predicted microseconds of the copies of `counts` (bytesIn, bytesOut,
/// copies) over `gpu`'s host link.
double predictCopies(const LoopNestCounts &counts, const DeviceSpec &gpu);

/// The times of `counts` on one core of `cpu` and on `gpu`.
LoopNestTimes predictLoopNest(const LoopNestCounts &counts,
                              const DeviceSpec &gpu, const DeviceSpec &cpu);

/// A 2-D device nest whose threads each run a sequential loop (gemm's k),
/// as the choice of its block shape and shared-memory tiles sees it; the
/// sizes are those of one launch, unknown ones at their nominal values.
struct TiledNest {
  /// Iterations of the grid loops along x (the coalesced one) and y, and
  /// of the sequential loop.
  double trips[2] = {0, 0};
  double inner = 0;
  /// Reads in the sequential loop a tile can serve: the same for a column
  /// of threads (they vary along x only, gemm's B[k][j]), for a row (along
  /// y only, A[i][k]), or for the whole block (neither).
  unsigned readsAlongX = 0, readsAlongY = 0, readsUniform = 0;
  /// Other loads and stores in the loop: one element per thread each, at
  /// every iteration, or once (their subscripts do not change along the
  /// loop: the element stays in a register or in L1).
  unsigned otherAccesses = 0, invariantAccesses = 0;
  unsigned elementBytes = 8;
  /// Floating-point operations per iteration of the sequential loop, and
  /// those among them whose value differs only along x, only along y or
  /// along neither (computed once per column, row or thread of a register
  /// tile: gemm's `alpha * A[i][k]`).
  double flopsPerIteration = 0;
  double flopsAlongX = 0, flopsAlongY = 0, flopsUniform = 0;
  bool doublePrecision = true;
  /// Whether a thread may compute several elements (register tiles): the
  /// loop's other accesses are the elements it accumulates into (the
  /// invariant ones), of floating-point type.
  bool registerTiles = false;
  /// Whether the grid's iterations are a triangle, half of the box of
  /// `trips` (syrk's `j <= i`): only the blocks that hold one of them work,
  /// the others (beyond the diagonal) leave at once.
  bool triangle = false;
};

/// The threads of a block along x and y, the width of the tiles (0: none)
/// and the predicted time of one launch with that shape.
struct KernelShape {
  int64_t block[2] = {32, 8};
  int64_t tile = 0;
  /// Elements each thread computes along x and y (register tiles).
  int64_t coarsen[2] = {1, 1};
  double us = 0;
  /// Blocks resident on one SM at a time.
  int blocksPerSM = 0;
  /// Registers a thread of register tiles is predicted to need; 0 where
  /// each thread computes one element (taken to fit).
  double registers = 0;
  /// Whether the block can run at all: a thread needs at most 255
  /// registers and the block at most an SM's register file.
  bool fits = true;
};

/// Predicted microseconds of one launch of `nest` on `gpu` with blocks of
/// `bx` x `by` threads, each computing `cx` x `cy` elements, and tiles
/// `tile` wide (0: every thread reads device memory). The bytes the warps
/// fetch (L1 and L2 hits not modelled: each warp fetches the 32-byte
/// sectors it reads; with tiles, a block fetches each tile once) over the
/// memory bandwidth, the flops over the peak, or the tiles' reads over the
/// shared memory's bandwidth, whichever is slowest, divided by how full the
/// last wave of blocks keeps the SMs; of a triangle, only the blocks on or
/// below its diagonal count. A prediction, not a measurement.
KernelShape predictTiledNest(const TiledNest &nest, const DeviceSpec &gpu,
                             int64_t bx, int64_t by, int64_t tile,
                             int64_t cx = 1, int64_t cy = 1);

/// Block shapes the choice considers: whole warps along x, at most 512
/// threads, so that several blocks share an SM and one block waiting at a
/// barrier leaves the others running.
inline constexpr int64_t kBlockShapes[][2] = {{32, 8}, {16, 16}, {32, 16}};
/// Static shared memory one block may declare (CUDA's limit without
/// opting in to more).
inline constexpr double kStaticSharedBytes = 48 * 1024;

/// Elements per thread along each dimension the choice considers where
/// the nest allows register tiles, up to its `registerTile` limit (4 by
/// default: 8 is there for experiments, `--gpu-register-tile=8`).
inline constexpr int64_t kCoarsenings[] = {1, 2, 4, 8};

/// The block shape, register tiles and tile width predicted fastest for
/// `nest` on `gpu`: each shape of kBlockShapes and coarsening of
/// kCoarsenings with the widest tile (32, 16 or 8, no wider than the loop
/// needs) whose shared memory fits the block and does not lower the blocks
/// an SM holds. No tiles (32 x 8 blocks) when no read can use them or the
/// device's SM limits are unknown. A thread computes at most
/// `registerTile` elements along each dimension.
KernelShape chooseTiledNestShape(const TiledNest &nest, const DeviceSpec &gpu,
                                 int64_t registerTile = 4);

} // namespace weft::cost

#endif // WEFT_COSTMODEL_LOOPNESTCOST_H
