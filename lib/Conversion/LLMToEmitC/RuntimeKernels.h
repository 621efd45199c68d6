//===- RuntimeKernels.h - What the serving runtime runs of a stage -*- C++
//-*-===//
//
// The serving runtimes (runtime/serve) run a stage as a sequence of fused
// kernels: the embedding, whole decoder layers (norm, attention, residual,
// norm, FFN, residual), the final norm and the LM head. matchRuntimeKernels
// recognises that composition in the dataflow ops of a stage, in order, and
// says what it is when an op has no kernel.
//
//===----------------------------------------------------------------------===//
#ifndef WEFT_CONVERSION_LLMTOEMITC_RUNTIMEKERNELS_H
#define WEFT_CONVERSION_LLMTOEMITC_RUNTIMEKERNELS_H

#include "dialects/LLM/IR/LLMOps.h"

namespace weft::llm {

/// One call into the runtime.
struct RuntimeKernel {
  enum class Kind { Embed, DecoderLayer, FinalNorm, LMHead } kind;
  mlir::Operation *op = nullptr; ///< the embed, attention, norm or head op
  int64_t layer = -1;            ///< DecoderLayer
  AttentionOp attention;         ///< DecoderLayer
  FFNOp ffn;                     ///< DecoderLayer
};

/// The kernels of `ops` (a stage's ops in program order, terminators
/// excluded), or an error at the first op that has none.
mlir::FailureOr<llvm::SmallVector<RuntimeKernel>>
matchRuntimeKernels(llvm::ArrayRef<mlir::Operation *> ops);

} // namespace weft::llm

#endif
