//===- weft_rt_checkpoint.cpp - Model checkpoints, tensor by tensor -------===//
#include "weft_rt_checkpoint.h"

#include "weft_rt_file.h"
#include "weft_rt_hf_config.h"

#include <cmath>
#include <cstring>
#include <filesystem>

namespace weft::rt {

namespace {
/// HuggingFace's name of each tensor (after the layer's or the model's
/// prefix), LLaMA family and OPT; null where the architecture has none.
struct HfName {
  Tensor tensor;
  const char *llama, *opt;
};
constexpr HfName kHfNames[] = {
    {Tensor::TokenEmbedding, "embed_tokens.weight", "embed_tokens.weight"},
    {Tensor::PositionEmbedding, nullptr, "embed_positions.weight"},
    {Tensor::AttnNorm, "input_layernorm.weight", "self_attn_layer_norm.weight"},
    {Tensor::AttnNormBias, nullptr, "self_attn_layer_norm.bias"},
    {Tensor::Wq, "self_attn.q_proj.weight", "self_attn.q_proj.weight"},
    {Tensor::Bq, nullptr, "self_attn.q_proj.bias"},
    {Tensor::Wk, "self_attn.k_proj.weight", "self_attn.k_proj.weight"},
    {Tensor::Bk, nullptr, "self_attn.k_proj.bias"},
    {Tensor::Wv, "self_attn.v_proj.weight", "self_attn.v_proj.weight"},
    {Tensor::Bv, nullptr, "self_attn.v_proj.bias"},
    {Tensor::Wo, "self_attn.o_proj.weight", "self_attn.out_proj.weight"},
    {Tensor::Bo, nullptr, "self_attn.out_proj.bias"},
    {Tensor::FfnNorm, "post_attention_layernorm.weight",
     "final_layer_norm.weight"},
    {Tensor::FfnNormBias, nullptr, "final_layer_norm.bias"},
    {Tensor::W1, "mlp.gate_proj.weight", "fc1.weight"},
    {Tensor::B1, nullptr, "fc1.bias"},
    {Tensor::W2, "mlp.down_proj.weight", "fc2.weight"},
    {Tensor::B2, nullptr, "fc2.bias"},
    {Tensor::W3, "mlp.up_proj.weight", nullptr},
    {Tensor::FinalNorm, "norm.weight", "final_layer_norm.weight"},
    {Tensor::FinalNormBias, nullptr, "final_layer_norm.bias"},
    {Tensor::Classifier, "lm_head.weight", "lm_head.weight"},
};
constexpr bool indexedByTensor() {
  for (size_t i = 0; i < std::size(kHfNames); ++i)
    if (size_t(kHfNames[i].tensor) != i)
      return false;
  return std::size(kHfNames) == size_t(Tensor::Classifier) + 1;
}
static_assert(indexedByTensor(), "one HF name per Tensor, in enum order");
} // namespace

void hfToLlama2cRows(const float *hf, float *out, int heads, int headSize,
                     int cols) {
  const int half = headSize / 2;
  for (int h = 0; h < heads; ++h)
    for (int i = 0; i < half; ++i) {
      const int64_t base = int64_t(h) * headSize;
      std::memcpy(out + (base + 2 * i) * cols, hf + (base + i) * cols,
                  sizeof(float) * cols);
      std::memcpy(out + (base + 2 * i + 1) * cols,
                  hf + (base + half + i) * cols, sizeof(float) * cols);
    }
}

bool Checkpoint::open(const std::string &p, std::string *error, Use use) {
  path = p;
  files = SafetensorsDir();
  layout.clear();
  std::error_code ec;
  isHf = std::filesystem::is_directory(path, ec);
  if (!isHf && std::filesystem::path(path).extension() == ".json")
    return fileError(
        error, path,
        "a config has no weights: give a llama2.c checkpoint or the "
        "directory with config.json and *.safetensors");
  return isHf ? openHf(error, use) : openLlama2c(error);
}

bool Checkpoint::openLlama2c(std::string *error) {
  int64_t size = 0;
  if (!readLlama2cHeader(path, cfg, &size, error))
    return false;
  std::string problem = checkLlama2cSize(cfg, size);
  if (!problem.empty())
    return fileError(error, path, problem);
  layout = llama2cLayout(cfg);
  return true;
}

bool Checkpoint::openHf(std::string *error, Use use) {
  const std::string configPath = path + "/config.json";
  HfConfig hf;
  if (!readHfConfig(configPath, hf, error))
    return false;
  std::string problem;
  if (!hfTensorLayout(hf, cfg, &problem))
    return fileError(error, configPath, problem);
  if (use == Use::Serve && !(problem = hfServingProblem(hf)).empty())
    return fileError(error, configPath, problem);
  if (!files.open(path, error))
    return false;
  // Checkpoints saved from OPTModel lack the "model." prefix.
  top = cfg.isOpt() && !files.holderOf("model.decoder.embed_tokens.weight")
            ? "decoder."
        : cfg.isOpt() ? "model.decoder."
                      : "model.";
  // Every tensor must exist with its shape before anything is read.
  for (Tensor t : modelTensors(cfg)) {
    TensorShape s = tensorShape(cfg, t);
    for (int l = 0; l < (isPerLayer(t) ? cfg.layers : 1); ++l)
      if (!files.check(hfName(t, l), s.rows, s.cols, error))
        return false;
  }
  return true;
}

std::string Checkpoint::hfName(Tensor t, int layer) const {
  const HfName &n = kHfNames[size_t(t)];
  const char *name = cfg.isOpt() ? n.opt : n.llama;
  if (t == Tensor::Classifier)
    return name; // outside the model's prefix in both
  if (isPerLayer(t))
    return top + "layers." + std::to_string(layer) + "." + name;
  return top + name;
}

bool Checkpoint::has(Tensor t) const {
  for (Tensor m : modelTensors(cfg))
    if (m == t)
      return true;
  return false;
}

bool Checkpoint::read(Tensor t, int layer, float *out,
                      std::string *error) const {
  const TensorShape s = tensorShape(cfg, t);
  if (!has(t) || (isPerLayer(t) && (layer < 0 || layer >= cfg.layers)))
    return fileError(error, path,
                     std::string("the model has no ") + tensorName(t) +
                         (isPerLayer(t) ? " in layer " + std::to_string(layer)
                                        : std::string()));
  if (!isPerLayer(t))
    layer = 0;
  std::string name;
  int64_t first = 0; ///< index of out[0] in the array messages name
  if (isHf) {
    name = hfName(t, layer);
    const int permuteHeads = cfg.isOpt()       ? 0
                             : t == Tensor::Wq ? cfg.heads
                             : t == Tensor::Wk ? cfg.kvHeads
                                               : 0;
    if (permuteHeads) {
      std::vector<float> hf(size_t(s.elements()));
      if (!files.read(name, hf.data(), s.rows, s.cols, error))
        return false;
      hfToLlama2cRows(hf.data(), out, permuteHeads, cfg.headSize(),
                      int(s.cols));
    } else if (!files.read(name, out, s.rows, s.cols, error)) {
      return false;
    }
  } else {
    const Llama2cArray *array = nullptr;
    for (const Llama2cArray &a : layout)
      if (a.isTensor && a.tensor == t)
        array = &a;
    name = array->name;
    first = int64_t(layer) * s.elements();
    File f(std::fopen(path.c_str(), "rb"));
    if (!f ||
        std::fseek(f.get(), long(array->offset + first * 4), SEEK_SET) != 0 ||
        std::fread(out, sizeof(float), size_t(s.elements()), f.get()) !=
            size_t(s.elements()))
      return fileError(error, path, "read error in " + name);
  }
  for (int64_t i = 0; i < s.elements(); ++i)
    if (!std::isfinite(out[i]))
      return fileError(error, path,
                       name + "[" + std::to_string(first + i) +
                           "] is not a finite number");
  return true;
}

bool Checkpoint::read(Tensor t, int layer, std::vector<float> &out,
                      std::string *error) const {
  out.resize(size_t(tensorShape(cfg, t).elements()));
  return read(t, layer, out.data(), error);
}

bool readCheckpoint(const std::string &path, LlamaWeights &out,
                    std::string *error) {
  out = LlamaWeights();
  Checkpoint ckpt;
  if (!ckpt.open(path, error))
    return false;
  out.config = ckpt.config();
  const LlamaConfig &c = out.config;
  for (Tensor t : modelTensors(c)) {
    const int64_t n = tensorShape(c, t).elements();
    const int layers = isPerLayer(t) ? c.layers : 1;
    std::vector<float> &array = stackedArray(out, t);
    array.resize(size_t(n * layers));
    for (int l = 0; l < layers; ++l)
      if (!ckpt.read(t, l, array.data() + l * n, error))
        return false;
  }
  if (c.tiedClassifier)
    out.wcls = out.tokenEmbedding;
  return true;
}

} // namespace weft::rt
