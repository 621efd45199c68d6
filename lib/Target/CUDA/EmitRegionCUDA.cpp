//===- EmitRegionCUDA.cpp - Print regions as CUDA C++ -----------*- C++ -*-===//
#include "weft/Target/CUDA/EmitCUDA.h"

#include "mlir/Dialect/EmitC/IR/EmitC.h"
#include "weft/Target/C/TranslateToC.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;

#include "weft_cuda_emulate_h.inc"
#include "weft_cuda_h.inc"
#include "weft_cuda_timing_h.inc"

/// The runtime header with the headers it includes (the emulation, the
/// timing switch) in place of their #include lines, so that an output
/// builds alone.
static std::string runtimeHeader() {
  std::string header = weft_cuda_h;
  for (auto [name, text] :
       {std::pair{"weft_cuda_emulate.h", weft_cuda_emulate_h},
        std::pair{"weft_cuda_timing.h", weft_cuda_timing_h}}) {
    std::string include = std::string("#include \"") + name + "\"\n";
    size_t at = header.find(include);
    if (at != std::string::npos)
      header.replace(at, include.size(), text);
  }
  return header;
}

std::string weft::cudaPreamble() {
  return runtimeHeader() + "#include <math.h>\n"
                           "#include <stdint.h>\n"
                           // The C the rest of the file is written in, as C++.
                           "#define restrict __restrict__\n"
                           "#define _Bool bool\n"
                           // C's `register` (weft drops it where a region
                           // takes the variable's address, not when a macro
                           // spells it): C++17 ignores it, g++ warns.
                           "#pragma GCC diagnostic ignored \"-Wregister\"\n";
}

std::string weft::cudaMpiPreamble() {
  // The MPI runtime is C: its buffers come back as `void *`, which C++ does
  // not convert to the generated code's typed pointers implicitly. Inside
  // its own expansion a macro's name is not expanded again, so these call
  // the functions.
  return cudaPreamble() +
         "struct weft_void_pointer {\n"
         "  void *p;\n"
         "  template <typename T> operator T *() const { return (T *)p; }\n"
         "};\n"
         "#define weft_rt_buffer(...) "
         "(weft_void_pointer{weft_rt_buffer(__VA_ARGS__)})\n"
         "#define weft_rt_alloc(...) "
         "(weft_void_pointer{weft_rt_alloc(__VA_ARGS__)})\n";
}

LogicalResult
weft::emitCUDARegionFunctions(ModuleOp module,
                              llvm::StringMap<RegionFunctionC> &functions) {
  // Kernels come before the host function that launches them
  // (convert-gpu-to-emitc put them there): each host function's text
  // starts with the kernels printed since the previous one.
  std::string kernels;
  for (auto func : module.getOps<emitc::FuncOp>()) {
    std::string text;
    llvm::raw_string_ostream os(text);
    if (failed(translateToC(func, os)))
      return failure();
    if (auto specifiers = func.getSpecifiers();
        specifiers &&
        llvm::is_contained(specifiers->getAsValueRange<StringAttr>(),
                           "__global__")) {
      kernels += text + "\n";
      continue;
    }
    functions[func.getName()] = {kernels + text, regionCallArgs(func)};
    kernels.clear();
  }
  return success();
}
