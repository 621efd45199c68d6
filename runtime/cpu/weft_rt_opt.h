//===- weft_rt_opt.h - OPT decoder built from the runtime kernels -*- C++ -*-===//
//
// HuggingFace OPTForCausalLM with do_layer_norm_before (every OPT size but
// 350m): per layer LayerNorm -> Q/K/V with biases -> causal multi-head
// attention -> output projection + bias -> residual -> LayerNorm ->
// fc2(act(fc1 x + b1)) + b2 -> residual. Positions are a learned table
// added at embedding time (row = position + 2); the head is a final
// LayerNorm and the (tied) classifier. Weights use the LlamaLayer fields
// as weft_rt_llama2c.h describes for OPT.
//
//===----------------------------------------------------------------------===//
#ifndef WEFT_RT_OPT_H
#define WEFT_RT_OPT_H

#include "weft_rt_llama.h"

namespace weft::rt {

/// One OPT decoder layer on a micro-batch x[m][dim], like
/// llamaDecoderLayerBatched: projections, norms and the FFN as GEMMs over
/// all rows; KV append and causal attention per sequence.
void optDecoderLayerBatched(const LlamaConfig &config, const LlamaLayer &layer,
                            float *x, const LlamaSeqSpan *spans, int numSpans,
                            LlamaScratch &scratch);

/// Adds the learned positions of `rows` tokens at positions pos ..
/// pos+rows-1 to x[rows][dim]; `table` is the fp16 position embedding
/// [seqLen + kOptPositionOffset][dim].
void optAddPositions(const LlamaConfig &config, const uint16_t *table, int pos,
                     int rows, float *x);

} // namespace weft::rt

#endif
