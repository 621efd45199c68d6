//===- EmitRegionC.cpp - Print imported regions as C ------------*- C++ -*-===//
#include "weft/Target/C/EmitC.h"
#include "weft/Conversion/Passes.h"

#include "mlir/Conversion/AffineToStandard/AffineToStandard.h"
#include "mlir/Target/Cpp/CppEmitter.h"
#include "mlir/Transforms/Passes.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;

void weft::buildRegionToEmitCPipeline(OpPassManager &pm) {
  pm.addPass(createLowerAffinePass());
  pm.addNestedPass<func::FuncOp>(createLinearizeMemRefAccesses());
  pm.addPass(createCanonicalizerPass());
  pm.addPass(createConvertLoopsToEmitC());
}

LogicalResult weft::emitRegionFunctions(ModuleOp module,
                                        llvm::StringMap<std::string> &functions,
                                        std::string &preamble) {
  PassManager pm(module.getContext());
  buildRegionToEmitCPipeline(pm);
  if (failed(pm.run(module)))
    return failure();
  for (auto func : module.getOps<emitc::FuncOp>()) {
    std::string text;
    llvm::raw_string_ostream os(text);
    if (failed(emitc::translateToCpp(func, os)))
      return failure();
    functions[func.getName()] = std::move(text);
  }
  preamble = "#include <math.h>\n#include <stdbool.h>\n#include <stdint.h>\n";
  return success();
}
