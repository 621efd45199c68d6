//===- Pipelines.cpp - weft's named HPC pipelines ---------------*- C++ -*-===//
#include "weft/Pipelines/Pipelines.h"
#include "weft/Conversion/Passes.h"
#include "weft/Partition/Passes.h"
#include "weft/Target/C/Passes.h"

#include "mlir/Conversion/AffineToStandard/AffineToStandard.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Transforms/Passes.h"

using namespace mlir;

void weft::buildSeqPipeline(OpPassManager &pm) {
  pm.addPass(createLowerAffinePass());
  pm.addNestedPass<func::FuncOp>(createLinearizeMemRefAccesses());
  // CSE but no canonicalizer: constant folding would evaluate floating-point
  // operations at compile time (0.0 / 0.0 gives +nan, the program -nan).
  pm.addPass(createCSEPass());
  // Loop-invariant operators leave the loops (loads stay: the body may
  // write what they read).
  pm.addPass(createLoopInvariantCodeMotionPass());
  pm.addPass(createConvertDistToEmitC());
  pm.addPass(createConvertLoopsToEmitC());
  // The C a person would write (expressions, names' values where used):
  // weft's C printer prints it as it stands.
  pm.addPass(createPrepareCEmission());
}

void weft::buildDistributePipeline(OpPassManager &pm,
                                   const DistributeOptions &options) {
  DistAliasCheckOptions aliasCheck;
  aliasCheck.liveOutEverywhere = options.liveOutEverywhere;
  pm.addPass(createDistAliasCheck(aliasCheck));
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
  partition.nominalSize = options.nominalSize;
  partition.gridDims = options.gridDims;
  pm.addPass(createDistPartition(partition));
  DistMaterializeOptions materialize;
  materialize.report = options.report;
  materialize.liveOutEverywhere = options.liveOutEverywhere;
  pm.addNestedPass<func::FuncOp>(createDistMaterialize(materialize));
  DistFoldAliasChecksOptions foldChecks;
  foldChecks.report = options.report;
  pm.addPass(createDistFoldAliasChecks(foldChecks));
}

void weft::buildMpiPipeline(OpPassManager &pm,
                            const DistributeOptions &options) {
  buildDistributePipeline(pm, options);
  buildSeqPipeline(pm);
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
}
