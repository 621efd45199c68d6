//===- Pipelines.cpp - weft's named pipelines -------------------*- C++ -*-===//
#include "weft/Pipelines/Pipelines.h"
#include "dialects/LLM/Transforms/Passes.h"
#include "weft/Conversion/Passes.h"
#include "weft/GPU/Passes.h"
#include "weft/Partition/Passes.h"
#include "weft/Target/C/Passes.h"

#include "mlir/Conversion/AffineToStandard/AffineToStandard.h"
#include "mlir/Conversion/SCFToGPU/SCFToGPUPass.h"
#include "mlir/Dialect/GPU/Transforms/Passes.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Transforms/Passes.h"

using namespace mlir;

/// Region functions to EmitC; with flat arguments (C++), every array is a
/// pointer to its elements.
static void addLoweringToEmitC(OpPassManager &pm, bool flatArguments) {
  pm.addPass(createLowerAffinePass());
  weft::LinearizeMemRefAccessesOptions linearize;
  linearize.flatArguments = flatArguments;
  pm.addNestedPass<func::FuncOp>(
      weft::createLinearizeMemRefAccesses(linearize));
  // CSE but no canonicalizer: constant folding would evaluate floating-point
  // operations at compile time (0.0 / 0.0 gives +nan, the program -nan).
  pm.addPass(createCSEPass());
  // Loop-invariant operators leave the loops (loads stay: the body may
  // write what they read).
  pm.addPass(createLoopInvariantCodeMotionPass());
  pm.addPass(weft::createConvertDistToEmitC());
  pm.addPass(weft::createNarrowIterators());
  weft::ConvertLoopsToEmitCOptions loops;
  loops.flatArguments = flatArguments;
  pm.addPass(weft::createConvertLoopsToEmitC(loops));
}

void weft::buildSeqPipeline(OpPassManager &pm) {
  addLoweringToEmitC(pm, /*flatArguments=*/false);
  // The C a person would write (expressions, names' values where used):
  // weft's C printer prints it as it stands.
  pm.addPass(createPrepareCEmission());
}

/// The dist passes; with `hostLoops`, the local loops are the host's (not
/// mapped onto GPU threads afterwards), so their innermost loops are made
/// to walk contiguous elements (before the partitioner, and for a unit's
/// own loops, in each rank's part after it).
static void addDistributePasses(OpPassManager &pm,
                                const weft::DistributeOptions &options,
                                bool hostLoops) {
  using namespace weft;
  DistAliasCheckOptions aliasCheck;
  aliasCheck.liveOutEverywhere = options.liveOutEverywhere;
  pm.addPass(createDistAliasCheck(aliasCheck));
  if (hostLoops) {
    DistInterchangeInnerOptions interchange;
    interchange.report = options.report;
    pm.addPass(createDistInterchangeInner(interchange));
  }
  DistSplitPivotsOptions pivots;
  pivots.report = options.report;
  pm.addPass(createDistSplitPivots(pivots));
  DistWavefrontOptions wavefront;
  wavefront.report = options.report;
  pm.addPass(createDistWavefront(wavefront));
  DistPartitionOptions partition;
  partition.report = options.report;
  partition.splitFpReductions = options.splitFpReductions;
  partition.ranks = options.ranks;
  partition.ranksPerNode = options.ranksPerNode;
  partition.device = options.cpu;
  partition.liveOutEverywhere = options.liveOutEverywhere;
  partition.nominalSize = options.nominalSize;
  partition.sizes = options.sizes;
  partition.gridDims = options.gridDims;
  pm.addPass(createDistPartition(partition));
  DistMaterializeOptions materialize;
  materialize.report = options.report;
  materialize.liveOutEverywhere = options.liveOutEverywhere;
  pm.addNestedPass<func::FuncOp>(createDistMaterialize(materialize));
  if (hostLoops) {
    DistInterchangeLocalOptions interchangeLocal;
    interchangeLocal.report = options.report;
    pm.addNestedPass<func::FuncOp>(
        createDistInterchangeLocal(interchangeLocal));
  }
  DistFoldAliasChecksOptions foldChecks;
  foldChecks.report = options.report;
  pm.addPass(createDistFoldAliasChecks(foldChecks));
  if (!options.liveOutEverywhere) {
    DistRunOnRootOptions onRoot;
    onRoot.report = options.report;
    pm.addPass(createDistRunOnRoot(onRoot));
  }
}

void weft::buildDistributePipeline(OpPassManager &pm,
                                   const DistributeOptions &options) {
  addDistributePasses(pm, options, /*hostLoops=*/true);
}

void weft::buildMpiPipeline(OpPassManager &pm,
                            const DistributeOptions &options) {
  buildDistributePipeline(pm, options);
  // Loops gcc -O2 vectorises in the distributed forms, as in the sequential
  // ones: runs of a fixed trip count.
  pm.addNestedPass<func::FuncOp>(createDistVectorRuns());
  // Loop bounds cut to the rank's block, as named values (i_lo, i_hi).
  pm.addNestedPass<func::FuncOp>(createDistNameBounds());
  buildSeqPipeline(pm);
}

static void addKernelOutlining(OpPassManager &pm, bool report);

void weft::buildKernelsPipeline(OpPassManager &pm,
                                const CudaOptions &options) {
  // Temporaries passed as `&x` but private to the region: locals, one per
  // thread where a nest writes them.
  pm.addPass(createGpuLocalizeScalars());
  // One process: a region whose arguments may overlap runs as written when
  // they do.
  DistAliasCheckOptions aliasCheck;
  aliasCheck.oneProcess = true;
  pm.addPass(createDistAliasCheck(aliasCheck));
  // 2-D bands where distribution and interchange expose them (gemm).
  GpuExposeBandsOptions expose;
  expose.report = options.report;
  expose.splitFpReductions = options.splitFpReductions;
  pm.addPass(createGpuExposeBands(expose));
  GpuSelectNestsOptions select;
  select.report = options.report;
  select.gpu = options.gpu;
  select.cpu = options.cpu;
  select.gpuChoice = options.gpuChoice;
  select.registerTile = options.registerTile;
  select.nominalSize = options.nominalSize;
  select.sizes = options.sizes;
  select.splitFpReductions = options.splitFpReductions;
  pm.addPass(createGpuSelectNests(select));
  // A checked region with no device nest keeps its check only to run its
  // loops through `restrict` pointers where the arguments are disjoint.
  pm.addPass(createDistFoldAliasChecks());
  GpuPlaceDataOptions place;
  place.report = options.report;
  pm.addPass(createGpuPlaceData(place));
  addKernelOutlining(pm, options.report);
}

/// The marked nests, with their data placed, to outlined kernels, their
/// shared reads staged in shared memory.
static void addKernelOutlining(OpPassManager &pm, bool report) {
  pm.addNestedPass<func::FuncOp>(weft::createGpuMapLoops());
  pm.addPass(createLowerAffinePass());
  pm.addPass(createParallelLoopToGpuPass());
  pm.addPass(weft::createGpuFoldLaunchSizes());
  pm.addPass(createGpuLauchSinkIndexComputationsPass());
  pm.addPass(createGpuKernelOutliningPass());
  pm.addPass(createLowerAffinePass());
  weft::GpuStageTilesOptions stage;
  stage.report = report;
  pm.addPass(weft::createGpuStageTiles(stage));
  pm.addPass(weft::createGpuReduceBlocks());
}

void weft::buildCudaPipeline(OpPassManager &pm, const CudaOptions &options) {
  buildKernelsPipeline(pm, options);
  pm.addPass(createConvertGPUToEmitC());
  addLoweringToEmitC(pm, /*flatArguments=*/true);
  pm.addPass(createPrepareCEmission());
}

void weft::buildMpiKernelsPipeline(OpPassManager &pm,
                                   const DistributeOptions &options) {
  // The innermost loops as written: gpu-offload-nests maps them.
  addDistributePasses(pm, options, /*hostLoops=*/false);
  GpuOffloadNestsOptions offload;
  offload.report = options.report;
  offload.gpu = options.gpu;
  offload.cpu = options.cpu;
  offload.gpuChoice = options.gpuChoice;
  offload.registerTile = options.registerTile;
  offload.nominalSize = options.nominalSize;
  offload.sizes = options.sizes;
  offload.ranks = options.ranks;
  offload.splitFpReductions = options.splitFpReductions;
  pm.addPass(createGpuOffloadNests(offload));
  addKernelOutlining(pm, options.report);
}

void weft::buildMpiCudaPipeline(OpPassManager &pm,
                                const DistributeOptions &options) {
  buildMpiKernelsPipeline(pm, options);
  pm.addPass(createConvertGPUToEmitC());
  addLoweringToEmitC(pm, /*flatArguments=*/true);
  pm.addPass(createPrepareCEmission());
}

void weft::buildServePipeline(OpPassManager &pm, const ServeOptions &options) {
  // Without a plan file the input is planned already (weft plan
  // --emit=mlir); llm-quantize says so if it is not.
  if (!options.plan.empty()) {
    llm::LLMPlanOptions plan;
    plan.planFile = options.plan;
    pm.addPass(llm::createLLMPlan(plan));
  }
  llm::LLMQuantizeOptions quantize;
  quantize.groupSize = options.groupSize;
  pm.addPass(llm::createLLMQuantize(quantize));
  pm.addPass(llm::createLLMSplitStages());
  pm.addPass(llm::createLLMSchedule());
}

void weft::buildServeToEmitCPipeline(OpPassManager &pm) {
  pm.addPass(createConvertLLMToEmitC());
}

void weft::registerPipelines() {
  PassPipelineRegistration<>(
      "weft-seq-pipeline",
      "Lower region functions to EmitC (weft compile --target=seq)",
      buildSeqPipeline);
  PassPipelineRegistration<DistributeOptions>(
      "weft-distribute-pipeline",
      "Choose and materialize the distribution of region functions (what "
      "weft compile --target=mpi --emit=mlir prints)",
      buildDistributePipeline);
  PassPipelineRegistration<DistributeOptions>(
      "weft-mpi-pipeline",
      "Distribute region functions and lower them to EmitC (weft compile "
      "--target=mpi)",
      buildMpiPipeline);
  PassPipelineRegistration<CudaOptions>(
      "weft-kernels-pipeline",
      "Turn the parallel loop nests of region functions into GPU kernels "
      "with their data moved once (what weft compile --target=cuda "
      "--emit=mlir prints)",
      buildKernelsPipeline);
  PassPipelineRegistration<CudaOptions>(
      "weft-cuda-pipeline",
      "GPU kernels, then kernels and host code to EmitC (weft compile "
      "--target=cuda)",
      buildCudaPipeline);
  PassPipelineRegistration<DistributeOptions>(
      "weft-mpi-kernels-pipeline",
      "Distribute region functions and run each rank's parallel loop nests "
      "as GPU kernels, their data moved around each nest (what weft compile "
      "--target=mpi-cuda --emit=mlir prints)",
      buildMpiKernelsPipeline);
  PassPipelineRegistration<DistributeOptions>(
      "weft-mpi-cuda-pipeline",
      "weft-mpi-kernels-pipeline, then kernels and host code to EmitC (weft "
      "compile --target=mpi-cuda)",
      buildMpiCudaPipeline);
  PassPipelineRegistration<ServeOptions>(
      "weft-serve-pipeline",
      "Plan, quantise, split into stages and schedule an imported model as "
      "a serving plan says, or a planned model without plan= (weft "
      "build-model)",
      buildServePipeline);
  PassPipelineRegistration<>(
      "weft-serve-to-emitc-pipeline",
      "The planned model's serving program to EmitC (weft build-model)",
      buildServeToEmitCPipeline);
}
