//===- weft_rt_hf_opt.h - HuggingFace OPT checkpoints ------------*- C++ -*-===//
//
// A HuggingFace OPT directory (OPTForCausalLM) holds config.json and
// *.safetensors files with tensors model.decoder.{embed_tokens,
// embed_positions}.weight, model.decoder.layers.N.{self_attn.{q,k,v,
// out}_proj, self_attn_layer_norm, fc1, fc2, final_layer_norm}.{weight,bias}
// and model.decoder.final_layer_norm.{weight,bias} ("decoder." without
// "model." is accepted too). The classifier is tied to the embedding unless
// config.json says tie_word_embeddings: false (then lm_head.weight).
// Reading gives LlamaWeights with config.arch == ModelArch::Opt, laid out as
// weft_rt_llama2c.h describes.
//
//===----------------------------------------------------------------------===//
#ifndef WEFT_RT_HF_OPT_H
#define WEFT_RT_HF_OPT_H

#include "weft_rt_llama2c.h"

#include <string>

namespace weft::rt {

/// Reads the model shape from an OPT config.json (hidden_size, ffn_dim,
/// num_hidden_layers, num_attention_heads, vocab_size,
/// max_position_embeddings, activation_function, tie_word_embeddings).
/// Refuses, naming the field, what the runtime does not compose:
/// do_layer_norm_before false and word_embed_proj_dim != hidden_size
/// (OPT-350m), enable_bias or layer_norm_elementwise_affine false, and
/// activations other than relu and gelu. Errors read "<path>: <what>".
bool readHfOptConfig(const std::string &path, LlamaConfig &out,
                     std::string *error);

/// Reads config.json and the weights of all *.safetensors files in `dir`
/// (F32, F16 or BF16), checking every tensor's shape.
bool readHfOpt(const std::string &dir, LlamaWeights &out, std::string *error);

} // namespace weft::rt

#endif
