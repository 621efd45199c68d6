//===- DeviceNests.h - Device nests of one function -------------*- C++ -*-===//
//
// Private to WeftGPU: what gpu-select-nests and gpu-place-data do to one
// function, also applied by gpu-offload-nests to each loop nest of a
// distributed function, outlined on its own.
//
//===----------------------------------------------------------------------===//
#ifndef WEFT_LIB_GPU_DEVICENESTS_H
#define WEFT_LIB_GPU_DEVICENESTS_H

#include "weft/Analysis/Polyhedral/DeviceMapping.h"
#include "weft/CostModel/Device.h"
#include "weft/CostModel/NominalSizes.h"
#include "weft/Support/SourceNames.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"

namespace weft {

/// How gpu-select-nests chooses among the nests that may run on the device.
struct DeviceChoice {
  /// Every nest that may run on the device does (`gpu-choice=always`);
  /// otherwise those the cost model predicts faster there.
  bool always = false;
  /// The GPU the kernels run on, and the host (one core of it).
  cost::DeviceSpec gpu, cpu;
  /// The values of sizes unknown at compile time.
  cost::NominalSizes sizes;
  /// Most elements a thread of a tiled kernel computes along each grid
  /// dimension (register tiles).
  int64_t registerTile = 4;
  /// Values the prediction takes for some of them (the bounds of a rank's
  /// block under mpi-cuda), and the ranks they were planned for (0: none).
  llvm::DenseMap<mlir::Value, int64_t> plannedSizes;
  unsigned plannedRanks = 0;
  /// Whether the threads of a nest may combine floating-point reductions
  /// in an order of their own (`--fp-reductions=split`); integer ones they
  /// always may.
  bool splitFpReductions = true;

  /// Fails with an error on `op` on an unknown GPU, CPU (cost::lookupCpu)
  /// or choice, a malformed entry of `sizes` (NAME=VALUE) or a register
  /// tile not 1, 2, 4 or 8.
  static mlir::FailureOr<DeviceChoice>
  get(mlir::Operation *op, llvm::StringRef gpu, llvm::StringRef cpu,
      llvm::StringRef choice, int64_t nominalSize,
      llvm::ArrayRef<std::string> sizes, int64_t registerTile);
};

/// The value the cost model takes for the integer `v`: a constant's, a
/// scalar's of the source that `sizes` names (through its casts), or what
/// the ops that compute it fold to from such values; none where it uses
/// any other value.
std::optional<int64_t> nominalValue(mlir::Value v,
                                    const cost::NominalSizes &sizes,
                                    unsigned depth = 8);

/// Marks the device nests of `func` (weft.gpu.band, weft.gpu.coalesced):
/// the nests that may run as kernels, where `choice` puts them on the
/// device or a `#pragma weft device` forces them; with `report`, says where
/// each loop nest runs and why. Fails with an error at a loop forced onto
/// the device that cannot run there.
mlir::LogicalResult selectDeviceNests(mlir::func::FuncOp func, bool report,
                                      unsigned long maxIslOperations,
                                      const DeviceChoice &choice);

/// Why the ops in `loop` cannot run in a kernel (a call, an allocation, an
/// array of rank above 3); empty if they can.
std::string deviceObstacle(mlir::affine::AffineForOp loop);

/// The loop directly and alone in `loop`'s body, if any.
mlir::affine::AffineForOp onlyChildLoop(mlir::affine::AffineForOp loop);

/// Whether `loop`'s bounds use the iterator of one of `outer`.
bool boundsUse(mlir::affine::AffineForOp loop,
               llvm::ArrayRef<mlir::affine::AffineForOp> outer);

/// Whether `loop`, perfectly nested in the loops of `band`, is a triangle
/// of it: its bounds use the iterator of one loop of `band`, in one affine
/// expression each (no min or max), and its step is 1. Its grid dimension
/// then spans the extremes of its range, which an affine bound reaches at
/// the first or last iteration of that loop, and the guard of the threads
/// keeps those inside the range.
bool triangularBandLoop(mlir::affine::AffineForOp loop,
                        llvm::ArrayRef<mlir::affine::AffineForOp> band);

/// Whether `loop`, perfectly nested in the loops of `band` and free of
/// carried dependences, may be a further grid dimension: its bounds use
/// none of their iterators, or it is a triangle of `band`.
bool bandLoopMappable(mlir::affine::AffineForOp loop,
                      llvm::ArrayRef<mlir::affine::AffineForOp> band);

/// Threads per block of a 1-D nest (gpu-map-loops), and along x and y of a
/// 2-D nest without a shape of the cost model's: a warp's width along x.
inline constexpr int64_t kBlock1D = 256;
inline constexpr int64_t kBlock2D[2] = {32, 8};

/// The grid dimension along which the threads that share a reduction's
/// element lie: a row reduction's (`y[i] += A[i][j] * x[j]`, `j` along x)
/// or a column reduction's (`y[j] += A[i][j] * x[i]`, `j` along x, `i` along
/// y).
enum class ReductionAxis { Row, Column };

/// Reduction updates that a loop joining a 1-D device nest carries, and
/// how the threads that combine them lie.
struct BandReductions {
  llvm::SmallVector<FlowDependenceInfo::Reduction, 1> updates;
  ReductionAxis axis;
};

/// The reduction updates `loop`, perfectly nested in `root`, carries where
/// it may join the 1-D device nest `root` as a second grid dimension.
/// `root` carries no dependence; each update's element uses nothing defined
/// in `loop` (the threads along `loop` combine their partial results into
/// it: gpu-reduce-blocks), a floating-point one only where
/// `splitFpReductions`; and where `loop`'s trip count is known, it fills
/// the block's width along its dimension. Where `loop`'s iterator is in
/// the last subscript of more of the nest's other accesses than `root`'s, a
/// row reduction: `loop` along x, so that a warp reads a row's neighbouring
/// elements. Otherwise a column reduction: `root` along x, as in one thread
/// per iteration of `root`, and `loop` along y, which spreads each column
/// over the grid's blocks where `root` alone would launch too few. Empty
/// where it may not join.
std::optional<BandReductions> bandReductions(mlir::affine::AffineForOp root,
                                             mlir::affine::AffineForOp loop,
                                             const DeviceLoopInfo &info,
                                             bool splitFpReductions);

/// Distributes and interchanges loops of `func` so that parallel nests whose
/// grid would be 1-D get a second dimension, where its exact dependences
/// allow it (gpu-expose-bands); with `report`, says what it did and what it
/// left out. Leaves a function without a model, or whose analysis fails, as
/// it is.
void exposeParallelBands(mlir::func::FuncOp func, bool report,
                         unsigned long maxIslOperations,
                         bool splitFpReductions);

/// A predicted time: "0.83 us", "12.5 ms" (three significant digits).
std::string formatTime(double us);

/// For a 2-D device nest `band` (loop `coalesced` along x) whose threads
/// run one sequential loop: the cost model's block shape and shared-memory
/// tile width, recorded as weft.gpu.block on the nest and weft.gpu.tile on
/// the loop when tiles are predicted faster. Returns what `--report` says
/// of it, or why a triangle gets no tiles; empty otherwise.
std::string
chooseKernelShape(llvm::MutableArrayRef<mlir::affine::AffineForOp> band,
                  unsigned coalesced, const DeviceChoice &choice);

/// Whether a loop inside `loop` (not `loop` itself) has a forced placement.
bool holdsForcedLoop(mlir::affine::AffineForOp loop);

/// The placement `#pragma weft device` or `host` forces on `loop`
/// (weft.gpu.place): "device", "host", or empty.
llvm::StringRef forcedPlacement(mlir::Operation *loop);

/// Gives the marked nests of `func` device buffers and transfers; where it
/// cannot, removes the marks (with a remark when `report`). With `resident`,
/// the buffers of arrays only the nests access and their copies are marked
/// kGpuResidentAttr.
void placeDeviceData(mlir::func::FuncOp func, bool report,
                     unsigned long maxIslOperations, bool resident = false);

/// In a distributed region whose device buffers stay resident: calls of the
/// runtime before each host statement that touches a resident array
/// (weft_cuda_host_access) and before each return (weft_cuda_release_all).
void markHostAccesses(mlir::func::FuncOp func);

} // namespace weft

#endif // WEFT_LIB_GPU_DEVICENESTS_H
