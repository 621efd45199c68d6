//===- HfWriter.h - Write HuggingFace LLaMA directories for tests -*- C++ -*-===//
//
// Test-only writer of config.json + F32 safetensors shards, independent of
// the runtime's reader.
//
//===----------------------------------------------------------------------===//
#ifndef WEFT_TEST_RUNTIME_HFWRITER_H
#define WEFT_TEST_RUNTIME_HFWRITER_H

#include "weft_rt_llama2c.h"

#include <cstdint>
#include <fstream>
#include <string>
#include <vector>

namespace weft::rt::test {
struct NamedTensor {
  std::string name;
  std::vector<int64_t> shape;
  std::vector<float> data;
};

/// Writes F32 tensors as a safetensors file.
inline void writeSafetensors(const std::string &path,
                             const std::vector<NamedTensor> &tensors) {
  std::string header = "{", data;
  for (const NamedTensor &t : tensors) {
    std::string shape;
    for (int64_t d : t.shape)
      shape += (shape.empty() ? "" : ",") + std::to_string(d);
    size_t begin = data.size();
    data.append(reinterpret_cast<const char *>(t.data.data()),
                t.data.size() * 4);
    header += (header.size() > 1 ? "," : "") + std::string("\"") + t.name +
              "\":{\"dtype\":\"F32\",\"shape\":[" + shape +
              "],\"data_offsets\":[" + std::to_string(begin) + "," +
              std::to_string(data.size()) + "]}";
  }
  header += "}";
  std::ofstream out(path, std::ios::binary);
  uint64_t length = header.size();
  out.write(reinterpret_cast<const char *>(&length), 8);
  out << header << data;
}

/// llama2.c q/k rows -> HuggingFace's rotate-half order (what HF's
/// conversion script does), written independently of the runtime.
inline std::vector<float> toHfRows(const float *meta, int heads, int hs, int cols) {
  std::vector<float> hf(size_t(heads) * hs * cols);
  for (int h = 0; h < heads; ++h)
    for (int i = 0; i < hs / 2; ++i)
      for (int c = 0; c < cols; ++c) {
        hf[(size_t(h) * hs + i) * cols + c] =
            meta[(size_t(h) * hs + 2 * i) * cols + c];
        hf[(size_t(h) * hs + hs / 2 + i) * cols + c] =
            meta[(size_t(h) * hs + 2 * i + 1) * cols + c];
      }
  return hf;
}

inline std::vector<float> slice(const std::vector<float> &v, int64_t index,
                         int64_t size) {
  return {v.begin() + index * size, v.begin() + (index + 1) * size};
}

/// Writes `w` as a HuggingFace directory `dir` (which must exist) split over
/// two shards; `extraConfig` is appended to config.json's object.
inline void writeHfDirectory(const LlamaWeights &w, const std::string &dir,
                         const std::string &extraConfig = "") {
  const LlamaConfig &c = w.config;
  std::ofstream(dir + "/config.json")
      << "{\"architectures\": [\"LlamaForCausalLM\"], \"model_type\": \"llama\", \"hidden_size\": "
      << c.dim << ", \"intermediate_size\": " << c.hiddenDim
      << ", \"num_hidden_layers\": " << c.layers
      << ", \"num_attention_heads\": " << c.heads
      << ", \"num_key_value_heads\": " << c.kvHeads
      << ", \"vocab_size\": " << c.vocabSize
      << ", \"max_position_embeddings\": " << c.seqLen
      << ", \"rms_norm_eps\": 1e-05, \"rope_theta\": 10000.0"
      << ", \"tie_word_embeddings\": " << (c.tiedClassifier ? "true" : "false")
      << extraConfig << "}";
  int64_t D = c.dim, KV = c.kvDim(), H = c.hiddenDim, hs = c.headSize();
  std::vector<NamedTensor> first = {
      {"model.embed_tokens.weight", {c.vocabSize, D}, w.tokenEmbedding},
      {"model.norm.weight", {D}, w.rmsFinal}};
  if (!c.tiedClassifier)
    first.push_back({"lm_head.weight", {c.vocabSize, D}, w.wcls});
  std::vector<NamedTensor> second;
  for (int l = 0; l < c.layers; ++l) {
    std::string p = "model.layers." + std::to_string(l) + ".";
    second.push_back({p + "self_attn.q_proj.weight",
                      {D, D},
                      toHfRows(&w.wq[l * D * D], c.heads, int(hs), int(D))});
    second.push_back({p + "self_attn.k_proj.weight",
                      {KV, D},
                      toHfRows(&w.wk[l * KV * D], c.kvHeads, int(hs), int(D))});
    second.push_back(
        {p + "self_attn.v_proj.weight", {KV, D}, slice(w.wv, l, KV * D)});
    second.push_back(
        {p + "self_attn.o_proj.weight", {D, D}, slice(w.wo, l, D * D)});
    second.push_back(
        {p + "mlp.gate_proj.weight", {H, D}, slice(w.w1, l, H * D)});
    second.push_back(
        {p + "mlp.down_proj.weight", {D, H}, slice(w.w2, l, D * H)});
    second.push_back({p + "mlp.up_proj.weight", {H, D}, slice(w.w3, l, H * D)});
    second.push_back(
        {p + "input_layernorm.weight", {D}, slice(w.rmsAtt, l, D)});
    second.push_back(
        {p + "post_attention_layernorm.weight", {D}, slice(w.rmsFfn, l, D)});
  }
  writeSafetensors(dir + "/model-00001-of-00002.safetensors", first);
  writeSafetensors(dir + "/model-00002-of-00002.safetensors", second);
}

/// Writes OPT weights (LlamaWeights with config.arch == Opt, laid out as
/// weft_rt_llama2c.h describes) as a HuggingFace OPTForCausalLM directory
/// `dir` (which must exist) over two shards; `extraConfig` is appended to
/// config.json's object.
inline void writeHfOptDirectory(const LlamaWeights &w, const std::string &dir,
                                const std::string &extraConfig = "") {
  const LlamaConfig &c = w.config;
  std::ofstream(dir + "/config.json")
      << "{\"architectures\": [\"OPTForCausalLM\"], \"model_type\": \"opt\""
      << ", \"_name_or_path\": \"opt_test\", \"hidden_size\": " << c.dim
      << ", \"ffn_dim\": " << c.hiddenDim
      << ", \"num_hidden_layers\": " << c.layers
      << ", \"num_attention_heads\": " << c.heads
      << ", \"vocab_size\": " << c.vocabSize
      << ", \"max_position_embeddings\": " << c.seqLen
      << ", \"word_embed_proj_dim\": " << c.dim
      << ", \"do_layer_norm_before\": true, \"enable_bias\": true"
      << ", \"activation_function\": \"" << (c.geluFfn ? "gelu" : "relu")
      << "\", \"tie_word_embeddings\": true" << extraConfig << "}";
  const int64_t D = c.dim, H = c.hiddenDim;
  const std::string top = "model.decoder.";
  std::vector<NamedTensor> first = {
      {top + "embed_tokens.weight", {c.vocabSize, D}, w.tokenEmbedding},
      {top + "embed_positions.weight", {c.seqLen + 2, D}, w.positionEmbedding},
      {top + "final_layer_norm.weight", {D}, w.rmsFinal},
      {top + "final_layer_norm.bias", {D}, w.normFinalBias}};
  std::vector<NamedTensor> second;
  for (int l = 0; l < c.layers; ++l) {
    std::string p = top + "layers." + std::to_string(l) + ".";
    const struct {
      const char *name;
      const std::vector<float> &v;
      int64_t rows, cols;
    } parts[] = {{"self_attn_layer_norm.weight", w.rmsAtt, D, 0},
                 {"self_attn_layer_norm.bias", w.normAttBias, D, 0},
                 {"self_attn.q_proj.weight", w.wq, D, D},
                 {"self_attn.q_proj.bias", w.bq, D, 0},
                 {"self_attn.k_proj.weight", w.wk, D, D},
                 {"self_attn.k_proj.bias", w.bk, D, 0},
                 {"self_attn.v_proj.weight", w.wv, D, D},
                 {"self_attn.v_proj.bias", w.bv, D, 0},
                 {"self_attn.out_proj.weight", w.wo, D, D},
                 {"self_attn.out_proj.bias", w.bo, D, 0},
                 {"final_layer_norm.weight", w.rmsFfn, D, 0},
                 {"final_layer_norm.bias", w.normFfnBias, D, 0},
                 {"fc1.weight", w.w1, H, D},
                 {"fc1.bias", w.b1, H, 0},
                 {"fc2.weight", w.w2, D, H},
                 {"fc2.bias", w.b2, D, 0}};
    for (const auto &part : parts) {
      int64_t n = part.rows * (part.cols ? part.cols : 1);
      std::vector<int64_t> shape = {part.rows};
      if (part.cols)
        shape.push_back(part.cols);
      second.push_back({p + part.name, shape, slice(part.v, l, n)});
    }
  }
  writeSafetensors(dir + "/model-00001-of-00002.safetensors", first);
  writeSafetensors(dir + "/model-00002-of-00002.safetensors", second);
}
} // namespace weft::rt::test

#endif
