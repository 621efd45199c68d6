//===- weft_rt_hf_llama.h - HuggingFace LLaMA checkpoints --------*- C++
//-*-===//
//
// A HuggingFace LLaMA directory holds config.json and one or more
// *.safetensors files with tensors named model.embed_tokens.weight,
// model.layers.N.{input_layernorm, self_attn.{q,k,v,o}_proj,
// post_attention_layernorm, mlp.{gate,up,down}_proj}.weight, model.norm.weight
// and lm_head.weight (absent when tied). HuggingFace stores q/k rows in the
// "rotate half" order; reading converts them to the llama2.c pairing the
// runtime's RoPE uses, so both sources give the same LlamaWeights.
//
//===----------------------------------------------------------------------===//
#ifndef WEFT_RT_HF_LLAMA_H
#define WEFT_RT_HF_LLAMA_H

#include "weft_rt_llama2c.h"

#include <string>

namespace weft::rt {

/// Reads the model shape from a HuggingFace config.json (hidden_size,
/// intermediate_size, num_hidden_layers, num_attention_heads,
/// num_key_value_heads, vocab_size, max_position_embeddings, rms_norm_eps,
/// rope_theta, tie_word_embeddings). Errors read "<path>: <what>".
bool readHfLlamaConfig(const std::string &path, LlamaConfig &out,
                       std::string *error);

/// Reads config.json and the weights of all *.safetensors files in `dir`
/// (F32, F16 or BF16), checking every tensor's shape.
bool readHfLlama(const std::string &dir, LlamaWeights &out, std::string *error);

/// Row permutation between HuggingFace's q/k layout and llama2.c's, for a
/// [heads * headSize][cols] matrix: row h*hs + i (i < hs/2) of HF is row
/// h*hs + 2i of llama2.c, and row h*hs + hs/2 + i is row h*hs + 2i + 1.
void hfToLlama2cRows(const float *hf, float *out, int heads, int headSize,
                     int cols);

} // namespace weft::rt

#endif
