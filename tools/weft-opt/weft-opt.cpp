//===- weft-opt.cpp - weft optimizer driver ---------------------*- C++ -*-===//
//
// mlir-opt with every weft dialect and pass registered, for lit tests.
//
//===----------------------------------------------------------------------===//
#include "dialects/Dist/IR/DistDialect.h"
#include "dialects/LLM/IR/LLMDialect.h"
#include "dialects/LLM/Transforms/Passes.h"
#include "dialects/Weft/IR/WeftDialect.h"
#include "weft/Conversion/Passes.h"
#include "weft/GPU/Passes.h"
#include "weft/Partition/Passes.h"
#include "weft/Pipelines/Pipelines.h"
#include "weft/Target/C/Passes.h"

#include "mlir/Conversion/Passes.h"
#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/EmitC/IR/EmitC.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/GPU/Transforms/Passes.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/Quant/QuantOps.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"
#include "mlir/Transforms/Passes.h"

namespace weft::test {
void registerTestDeviceMappingPass();
void registerTestFlowDependencesPass();
} // namespace weft::test

int main(int argc, char **argv) {
  weft::test::registerTestDeviceMappingPass();
  weft::test::registerTestFlowDependencesPass();
  mlir::registerCanonicalizerPass();
  mlir::registerCSEPass();
  mlir::registerConvertAffineToStandard();
  weft::registerWeftConversionPasses();
  weft::registerWeftPartitionPasses();
  weft::registerWeftGPUPasses();
  mlir::registerConvertParallelLoopToGpu();
  mlir::registerGpuKernelOutlining();
  mlir::registerGpuLaunchSinkIndexComputations();
  weft::registerWeftTargetCPasses();
  mlir::registerLoopInvariantCodeMotionPass();
  weft::registerPipelines();
  weft::llm::registerLLMPasses();

  mlir::DialectRegistry registry;
  registry.insert<weft::dist::DistDialect, weft::llm::LLMDialect,
                  weft::WeftDialect, mlir::affine::AffineDialect,
                  mlir::arith::ArithDialect, mlir::emitc::EmitCDialect,
                  mlir::func::FuncDialect, mlir::gpu::GPUDialect,
                  mlir::math::MathDialect, mlir::memref::MemRefDialect,
                  mlir::quant::QuantizationDialect, mlir::scf::SCFDialect>();
  return mlir::asMainReturnCode(
      mlir::MlirOptMain(argc, argv, "weft optimizer driver\n", registry));
}
