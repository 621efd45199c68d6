//===- RuntimeKernels.h - A model's stages as the runtime runs them -*- C++
//-*-===//
//
// The serving runtimes (runtime/serve) run a stage as a sequence of fused
// kernels: the embedding, whole decoder layers (norm, attention, residual,
// norm, FFN, residual), the final norm and the LM head, and store a layer's
// attention weights at one width and its FFN weights at one width. This is
// where the dataflow of the IR meets that: matchRuntimeStages recognises
// the kernels in each stage's ops, in order, reads the widths from the
// weights' types, and says at the op what the runtime cannot run. The
// lowering to EmitC and the stage-file writer both read its result.
//
//===----------------------------------------------------------------------===//
#ifndef WEFT_LLM_RUNTIMEKERNELS_H
#define WEFT_LLM_RUNTIMEKERNELS_H

#include "dialects/LLM/IR/LLMOps.h"

#include <string>
#include <vector>

namespace weft::llm {

/// One call into the runtime.
struct RuntimeKernel {
  enum class Kind { Embed, DecoderLayer, FinalNorm, LMHead } kind;
  mlir::Operation *op = nullptr;     ///< the embed, attention, norm or head op
  int64_t layer = -1;                ///< DecoderLayer
  int64_t attnBits = 0, ffnBits = 0; ///< DecoderLayer: storage widths
  int64_t headBits = 0;              ///< LMHead
};

/// One pipeline stage: its kernels in execution order and its layers
/// [firstLayer, endLayer) (empty ranges start where the last stage's
/// layers ended).
struct RuntimeStage {
  llvm::SmallVector<RuntimeKernel> kernels;
  int64_t firstLayer = 0, endLayer = 0;
};

/// The ops of each stage, in program order: the bodies of the stage
/// functions (func.func with `llm.stage`) once llm-split-stages ran, else
/// the ops of @forward grouped by their `llm.stage`. Stages must be
/// numbered 0, 1, ... in program order; errors at the op.
mlir::FailureOr<llvm::SmallVector<llvm::SmallVector<mlir::Operation *>>>
collectStageOps(ModelOp model);

/// The stages of `model` as the runtime runs them.
mlir::FailureOr<llvm::SmallVector<RuntimeStage>>
matchRuntimeStages(ModelOp model);

/// What the stage-file writer needs to write the weights of one stage, read
/// from quantised IR (llm-quantize): which parts the stage holds, and the
/// widths and group size of its layers and head, from the weights' types.
/// (Embeddings, norms and biases have one storage each, which llm-quantize
/// and the writer agree on.)
struct StageStorage {
  std::string model; ///< the model's symbol name (checked by serve)
  int stage = 0, numStages = 1;
  int firstLayer = 0, endLayer = 0;
  bool hasEmbedding = false, hasHead = false;
  std::vector<int> attnBits, ffnBits; ///< per layer of the stage
  int headBits = 16;
  int groupSize = 0; ///< of every group-wise tensor of the model (0: none)
};

/// The storage of every stage of a quantised model.
mlir::FailureOr<std::vector<StageStorage>> stageStorage(ModelOp model);

} // namespace weft::llm

#endif
