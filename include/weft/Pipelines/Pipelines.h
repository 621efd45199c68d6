//===- Pipelines.h - weft's named pipelines ---------------------*- C++ -*-===//
//
// The pass pipelines of `weft compile` and `weft build-model`, in one place (the CIRCT firtool
// style): one function per pipeline, called by the driver and registered in
// weft-opt under the same names, so that lit tests run exactly what the
// driver runs.
//
//   weft-seq-pipeline         region functions -> EmitC (--target=seq)
//   weft-distribute-pipeline  the dist passes that choose the distribution
//                             and make it explicit (what --target=mpi
//                             --emit=mlir prints)
//   weft-mpi-pipeline         weft-distribute-pipeline, then
//                             weft-seq-pipeline (--target=mpi)
//   weft-kernels-pipeline     device nests to outlined GPU kernels, data
//                             moved once (what --target=cuda --emit=mlir
//                             prints; docs/cuda.md)
//   weft-cuda-pipeline        weft-kernels-pipeline, then kernels and host
//                             code to EmitC (--target=cuda)
//   weft-mpi-kernels-pipeline weft-distribute-pipeline, then each rank's
//                             device nests to outlined GPU kernels, data
//                             moved around each nest (what
//                             --target=mpi-cuda --emit=mlir prints)
//   weft-mpi-cuda-pipeline    weft-mpi-kernels-pipeline, then kernels and
//                             host code to EmitC (--target=mpi-cuda)
//   weft-serve-pipeline       an imported model (llm IR) planned, quantised,
//                             split into stages and scheduled, as the plan
//                             says (weft build-model)
//   weft-serve-to-emitc-pipeline  that IR to the serving program's EmitC
//
//===----------------------------------------------------------------------===//
#ifndef WEFT_PIPELINES_PIPELINES_H
#define WEFT_PIPELINES_PIPELINES_H

#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassOptions.h"

namespace weft {

/// Where the CUDA pipelines run each loop nest (gpu-select-nests,
/// gpu-offload-nests); the other pipelines ignore them, except `cpu`, on
/// which the MPI partitioner predicts a rank's loops too.
template <typename Options>
struct GpuChoiceOptions : mlir::PassPipelineOptions<Options> {
  using StringOption = mlir::detail::PassOptions::Option<std::string>;
  StringOption gpu{*this, "gpu",
                   llvm::cl::desc("GPU of the cost model's device database "
                                  "the kernels run on"),
                   llvm::cl::init("A100-40GB")};
  StringOption cpu{*this, "cpu",
                   llvm::cl::desc("CPU the cost model predicts a core's loops "
                                  "on: a device of the database or a CPU "
                                  "description (.json)"),
                   llvm::cl::init("cpu")};
  StringOption gpuChoice{
      *this, "gpu-choice",
      llvm::cl::desc("Which nests that may run on the device do: 'cost' "
                     "(those predicted faster there) or 'always'"),
      llvm::cl::init("cost")};
  mlir::detail::PassOptions::Option<int64_t> registerTile{
      *this, "gpu-register-tile",
      llvm::cl::desc("Most elements a thread of a tiled kernel computes "
                     "along each grid dimension (1, 2, 4 or 8)"),
      llvm::cl::init(4)};
};

/// The options of weft-distribute-pipeline and weft-mpi-pipeline (`weft compile
/// --target=mpi`'s options that reach the passes), and of the mpi-cuda
/// pipelines.
struct DistributeOptions : GpuChoiceOptions<DistributeOptions> {
  Option<bool> report{*this, "report",
                      llvm::cl::desc("Explain each decision with a remark"),
                      llvm::cl::init(false)};
  Option<bool> liveOutEverywhere{
      *this, "live-out-everywhere",
      llvm::cl::desc("Values live after a region reach every rank, not "
                     "only rank 0"),
      llvm::cl::init(false)};
  Option<bool> splitFpReductions{
      *this, "split-fp-reductions",
      llvm::cl::desc("Split floating-point reductions across ranks"),
      llvm::cl::init(true)};
  Option<unsigned> ranks{
      *this, "ranks",
      llvm::cl::desc("Number of ranks the partitioner's costs are "
                     "predicted for"),
      llvm::cl::init(4)};
  Option<unsigned> ranksPerNode{
      *this, "ranks-per-node",
      llvm::cl::desc("Ranks that share one node's memory bandwidth in the "
                     "partitioner's costs (0: a node's cores, as mpirun "
                     "fills them)"),
      llvm::cl::init(0)};
  Option<int64_t> nominalSize{
      *this, "nominal-size",
      llvm::cl::desc("Value assumed for sizes unknown at compile time"),
      llvm::cl::init(4096)};
  ListOption<std::string> sizes{
      *this, "size",
      llvm::cl::desc("Values of sizes unknown at compile time, NAME=VALUE "
                     "with NAME a scalar of the C source")};
  Option<unsigned> gridDims{
      *this, "grid-dims",
      llvm::cl::desc("Most process grid axes a loop nest is split over"),
      llvm::cl::init(2)};
};

/// The options of weft-serve-pipeline (`weft build-model`'s).
struct ServeOptions : mlir::PassPipelineOptions<ServeOptions> {
  Option<std::string> plan{
      *this, "plan",
      llvm::cl::desc("The serving plan (JSON) to follow (none: the "
                     "input is planned)")};
  Option<int64_t> groupSize{
      *this, "group-size",
      llvm::cl::desc("Weights per scale of group-quantised layers"),
      llvm::cl::init(128)};
};

/// The options of weft-kernels-pipeline and weft-cuda-pipeline.
struct CudaOptions : GpuChoiceOptions<CudaOptions> {
  Option<bool> report{*this, "report",
                      llvm::cl::desc("Say where each loop nest runs and what "
                                     "moves, as remarks"),
                      llvm::cl::init(false)};
  Option<bool> splitFpReductions{
      *this, "split-fp-reductions",
      llvm::cl::desc("Let the threads of a nest combine floating-point "
                     "reductions in an order of their own"),
      llvm::cl::init(true)};
  Option<int64_t> nominalSize{
      *this, "nominal-size",
      llvm::cl::desc("Value the cost model assumes for sizes unknown at "
                     "compile time"),
      llvm::cl::init(4096)};
  ListOption<std::string> sizes{
      *this, "size",
      llvm::cl::desc("Values of sizes unknown at compile time, NAME=VALUE "
                     "with NAME a scalar of the C source")};
};

/// Region functions (func.func of the C importer, or their distributed
/// forms) to emitc.func as weft's C printer prints it: lower-affine,
/// linearize-memref-accesses, cse, loop-invariant-code-motion,
/// convert-dist-to-emitc (nothing to do without dist ops),
/// convert-loops-to-emitc, prepare-c-emission.
void buildSeqPipeline(mlir::OpPassManager &pm);

/// dist-alias-check, dist-interchange-inner, dist-split-pivots,
/// dist-wavefront, dist-partition, dist-materialize, dist-fold-alias-checks.
void buildDistributePipeline(mlir::OpPassManager &pm,
                             const DistributeOptions &options);

/// buildDistributePipeline, then buildSeqPipeline.
void buildMpiPipeline(mlir::OpPassManager &pm,
                      const DistributeOptions &options);

/// gpu-localize-scalars, dist-alias-check{one-process}, gpu-expose-bands,
/// gpu-select-nests, dist-fold-alias-checks, gpu-place-data, gpu-map-loops,
/// lower-affine, convert-parallel-loops-to-gpu, gpu-fold-launch-sizes,
/// gpu-launch-sink-index-computations, gpu-kernel-outlining, lower-affine,
/// gpu-stage-tiles, gpu-reduce-blocks.
void buildKernelsPipeline(mlir::OpPassManager &pm, const CudaOptions &options);

/// buildKernelsPipeline, convert-gpu-to-emitc, then buildSeqPipeline's
/// passes with flat-arguments (C++ has no variably modified parameters;
/// linearize-memref-accesses linearises the arguments' accesses too), for
/// weft's C printer as the C targets.
void buildCudaPipeline(mlir::OpPassManager &pm, const CudaOptions &options);

/// buildDistributePipeline's passes but dist-interchange-inner (the loops
/// it would swap are mapped onto GPU threads), gpu-offload-nests, then the
/// kernels' outlining as in buildKernelsPipeline (gpu-map-loops to
/// gpu-kernel-outlining).
void buildMpiKernelsPipeline(mlir::OpPassManager &pm,
                             const DistributeOptions &options);

/// buildMpiKernelsPipeline, convert-gpu-to-emitc, then the lowering of
/// buildCudaPipeline.
void buildMpiCudaPipeline(mlir::OpPassManager &pm,
                          const DistributeOptions &options);

/// llm-plan{plan}, llm-quantize{group-size}, llm-split-stages,
/// llm-schedule; without a plan file, no llm-plan: the input carries its
/// plan (`weft plan --emit=mlir`).
void buildServePipeline(mlir::OpPassManager &pm, const ServeOptions &options);
/// convert-llm-to-emitc.
void buildServeToEmitCPipeline(mlir::OpPassManager &pm);

/// Registers the pipelines with the pass registry.
void registerPipelines();

} // namespace weft

#endif // WEFT_PIPELINES_PIPELINES_H
