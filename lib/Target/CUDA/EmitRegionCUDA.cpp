//===- EmitRegionCUDA.cpp - Print regions as CUDA C++ -----------*- C++ -*-===//
#include "weft/Target/CUDA/EmitCUDA.h"

#include "weft/Conversion/Passes.h"
#include "weft/GPU/Passes.h"
#include "weft/Partition/Passes.h"

#include "mlir/Conversion/AffineToStandard/AffineToStandard.h"
#include "mlir/Conversion/SCFToGPU/SCFToGPUPass.h"
#include "mlir/Dialect/GPU/Transforms/Passes.h"
#include "mlir/Target/Cpp/CppEmitter.h"
#include "mlir/Transforms/Passes.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;

#include "weft_cuda_emulate_h.inc"
#include "weft_cuda_h.inc"

void weft::buildRegionToCUDAPipeline(OpPassManager &pm,
                                     const CUDAPipelineOptions &options) {
  GpuSelectNestsOptions select;
  select.report = options.report;
  pm.addPass(createGpuSelectNests(select));
  // A checked region whose other form runs nothing on the device needs no
  // check.
  pm.addPass(createDistFoldAliasChecks());
  GpuPlaceDataOptions place;
  place.report = options.report;
  pm.addPass(createGpuPlaceData(place));
  pm.addNestedPass<func::FuncOp>(createGpuMapLoops());
  pm.addPass(createLowerAffinePass());
  pm.addPass(createParallelLoopToGpuPass());
  pm.addPass(createGpuLauchSinkIndexComputationsPass());
  pm.addPass(createGpuKernelOutliningPass());
  pm.addPass(createLowerAffinePass());
  pm.addPass(createConvertGPUToEmitC());
  pm.addNestedPass<func::FuncOp>(createLinearizeMemRefAccesses());
  // CSE but no canonicalizer, as in the C back end (EmitRegionC.cpp).
  pm.addPass(createCSEPass());
  pm.addPass(createConvertLoopsToEmitC());
}

/// The runtime header with its emulation in place of the #include that
/// names it, so that an output builds alone.
static std::string runtimeHeader() {
  std::string header = weft_cuda_h;
  std::string include = "#include \"weft_cuda_emulate.h\"\n";
  size_t at = header.find(include);
  if (at != std::string::npos)
    header.replace(at, include.size(), weft_cuda_emulate_h);
  return header;
}

std::string weft::cudaPreamble() {
  return runtimeHeader() + "#include <math.h>\n"
                           "#include <stdint.h>\n"
                           // The C the rest of the file is written in, as C++.
                           "#define restrict __restrict__\n"
                           "#define _Bool bool\n";
}

LogicalResult
weft::emitCUDARegionFunctions(ModuleOp module,
                              const CUDAPipelineOptions &options,
                              llvm::StringMap<std::string> &functions) {
  PassManager pm(module.getContext());
  buildRegionToCUDAPipeline(pm, options);
  if (failed(pm.run(module)))
    return failure();
  // Kernels come before the host function that launches them
  // (convert-gpu-to-emitc put them there): each host function's text
  // starts with the kernels printed since the previous one.
  std::string kernels;
  for (auto func : module.getOps<emitc::FuncOp>()) {
    std::string text;
    llvm::raw_string_ostream os(text);
    if (failed(emitc::translateToCpp(func, os)))
      return failure();
    if (auto specifiers = func.getSpecifiers();
        specifiers &&
        llvm::is_contained(specifiers->getAsValueRange<StringAttr>(),
                           "__global__")) {
      kernels += text + "\n";
      continue;
    }
    functions[func.getName()] = kernels + text;
    kernels.clear();
  }
  return success();
}
