//===- weft_rt_hf_config.h - HuggingFace config.json ------------*- C++ -*-===//
//
// The one reader of HuggingFace model configs: the planner maps it to its
// cost-model description (lib/Planner/ModelImport.cpp), the checkpoint
// reader to the runtime's LlamaConfig (weft_rt_checkpoint.h).
//
//===----------------------------------------------------------------------===//
#ifndef WEFT_RT_HF_CONFIG_H
#define WEFT_RT_HF_CONFIG_H

#include "weft_rt_json.h"
#include "weft_rt_model.h"

#include <cstdint>
#include <string>

namespace weft::rt {

/// What a config.json says about a model. Architecture conventions fill
/// what the config leaves out; the config's own flags override them.
struct HfConfig {
  std::string arch; ///< model_type, lower case: llama mistral qwen2 mixtral
                    ///< opt bloom
  std::string name; ///< _name_or_path, else model_type
  int64_t hidden = 0, intermediate = 0, layers = 0, heads = 0, kvHeads = 0;
  int64_t vocab = 0, maxPositions = 0;
  bool tiedEmbeddings = false;
  bool gatedFFN = true;   ///< SwiGLU: gate, up and down projections
  bool layerNorm = false; ///< LayerNorm (weight and bias) instead of RMSNorm
  bool attnBias = false, mlpBias = false;
  double normEps = 1e-6;
  double ropeTheta = 10000; ///< 0: no rotary embedding (OPT, BLOOM)
  bool ropeScaling = false; ///< rope_scaling is set
  /// The FFN's activation: silu (LLaMA family's hidden_act), relu or gelu
  /// (OPT's activation_function), gelu_tanh (BLOOM).
  std::string activation = "silu";
  std::string dtype = "f32"; ///< torch_dtype: f32, f16 or bf16
  // OPT's options.
  bool layerNormBefore = true, layerNormAffine = true;
  int64_t wordEmbedProjDim = 0;
  bool isLlamaFamily() const {
    return arch == "llama" || arch == "mistral" || arch == "qwen2" ||
           arch == "mixtral";
  }
};

/// Reads a config object. On failure returns false with *problem =
/// "<field>: <what is wrong>".
bool parseHfConfig(const JsonValue &json, HfConfig &out, std::string *problem);

/// Reads the config file `path`; errors read "<path>: <field>: <what>".
bool readHfConfig(const std::string &path, HfConfig &out, std::string *error);

/// Whether the checkpoint reader knows the tensors of `modelType`: the
/// LLaMA family's (llama, mistral, qwen2) and OPT's.
bool hasWeightReader(const std::string &modelType);

/// The runtime's view of the tensors of a checkpoint with config `hf`: the
/// LLaMA family's (llama, mistral, qwen2) or OPT's. Refuses, naming the
/// field, what has other tensors: other model types, and OPT with
/// projected embeddings or post-LayerNorm (opt-350m), without biases or
/// without LayerNorm weights.
bool hfTensorLayout(const HfConfig &hf, LlamaConfig &out, std::string *problem);

/// What the serving runtime cannot compose in a model it can read (naming
/// the field), or "": model types other than llama, mistral and opt,
/// rope_scaling, activations other than silu (LLaMA) and relu or gelu
/// (OPT).
std::string hfServingProblem(const HfConfig &hf);

} // namespace weft::rt

#endif
