//===- weft_rt_checkpoint.h - Model checkpoints, tensor by tensor -*- C++
//-*-===//
//
// A checkpoint is a llama2.c file or a HuggingFace directory (config.json
// and *.safetensors shards). HF LLaMA-family tensors are
// model.embed_tokens.weight, model.layers.N.{input_layernorm,
// self_attn.{q,k,v,o}_proj, post_attention_layernorm,
// mlp.{gate,up,down}_proj}.weight, model.norm.weight and lm_head.weight
// (absent when tied); HF OPT (OPTForCausalLM) tensors are
// model.decoder.{embed_tokens, embed_positions}.weight,
// model.decoder.layers.N.{self_attn.{q,k,v,out}_proj, self_attn_layer_norm,
// fc1, fc2, final_layer_norm}.{weight,bias} and
// model.decoder.final_layer_norm.{weight,bias} ("decoder." without
// "model." is accepted too). HuggingFace stores LLaMA's q/k rows in the
// "rotate half" order; reading converts them to the llama2.c pairing the
// runtime's RoPE uses, so every source gives the same tensors.
//
// Opening checks every tensor the config implies (present, shape, float
// dtype; for llama2.c, the file's size) before anything is read, so sizes
// come from the files, never from a config alone. Tensors are then read
// one at a time: what a reader holds is up to it.
//
//===----------------------------------------------------------------------===//
#ifndef WEFT_RT_CHECKPOINT_H
#define WEFT_RT_CHECKPOINT_H

#include "weft_rt_llama2c.h"
#include "weft_rt_model.h"
#include "weft_rt_safetensors.h"

#include <string>
#include <vector>

namespace weft::rt {

class Checkpoint {
public:
  /// Serve: the model must be one the runtime composes. Inspect: any model
  /// whose tensors the reader knows (the planner's quality indicator reads
  /// Qwen2's LLaMA-named matrices, say).
  enum class Use { Serve, Inspect };

  /// Opens and checks `path`; errors read "<file>: <what is wrong>".
  bool open(const std::string &path, std::string *error, Use use = Use::Serve);
  const LlamaConfig &config() const { return cfg; }
  /// Whether the model has tensor `t` (see modelTensors()).
  bool has(Tensor t) const;
  /// Reads tensor `t` of `layer` (ignored for model tensors) as fp32 in
  /// the runtime's layout into out[tensorShape(config(), t).elements()].
  /// Refuses values that are not finite.
  bool read(Tensor t, int layer, float *out, std::string *error) const;
  bool read(Tensor t, int layer, std::vector<float> &out,
            std::string *error) const;

private:
  bool openHf(std::string *error, Use use);
  bool openLlama2c(std::string *error);
  std::string hfName(Tensor t, int layer) const;

  std::string path;
  LlamaConfig cfg;
  bool isHf = false;
  SafetensorsDir files;             ///< HF
  std::string top;                  ///< HF OPT: "model.decoder." or "decoder."
  std::vector<Llama2cArray> layout; ///< llama2.c
};

/// Reads a whole checkpoint into memory, every tensor in its stacked array
/// (a tied classifier is a copy of the embedding).
bool readCheckpoint(const std::string &path, LlamaWeights &out,
                    std::string *error);

/// Row permutation between HuggingFace's q/k layout and llama2.c's, for a
/// [heads * headSize][cols] matrix: row h*hs + i (i < hs/2) of HF is row
/// h*hs + 2i of llama2.c, and row h*hs + hs/2 + i is row h*hs + 2i + 1.
void hfToLlama2cRows(const float *hf, float *out, int heads, int headSize,
                     int cols);

} // namespace weft::rt

#endif
