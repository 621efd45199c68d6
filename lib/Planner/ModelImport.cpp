//===- ModelImport.cpp - Read model descriptions --------------------------===//
#include "weft/Planner/ModelImport.h"
#include "weft/Planner/JSONFile.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"

#include <cmath>
#include <optional>

using namespace llvm;
using weft::cost::ModelDesc;

namespace weft::plan {
namespace {

Error fieldError(StringRef file, StringRef field, const Twine &msg) {
  return createStringError(inconvertibleErrorCode(),
                           file + ": " + field + ": " + msg);
}

/// The first of `names` present in `o` as a positive integer.
Expected<int64_t> positiveInt(const json::Object &o, StringRef file,
                              ArrayRef<StringRef> names,
                              std::optional<int64_t> fallback = {}) {
  for (StringRef n : names) {
    const json::Value *v = o.get(n);
    if (!v || v->kind() == json::Value::Null)
      continue;
    std::optional<int64_t> i = integerOf(*v);
    if (!i || *i <= 0)
      return fieldError(file, n, "expected a positive integer");
    return *i;
  }
  if (fallback)
    return *fallback;
  return fieldError(file, names.front(), "missing");
}

/// The first of `names` present in `o` as a positive, finite number.
Expected<double> positiveNumber(const json::Object &o, StringRef file,
                                ArrayRef<StringRef> names, double fallback) {
  for (StringRef n : names) {
    const json::Value *v = o.get(n);
    if (!v || v->kind() == json::Value::Null)
      continue;
    std::optional<double> d = v->getAsNumber();
    if (!d || !(*d > 0) || !std::isfinite(*d))
      return fieldError(file, n, "expected a positive number");
    return *d;
  }
  return fallback;
}

bool flag(const json::Object &o, StringRef name, bool fallback) {
  if (std::optional<bool> b = o.getBoolean(name))
    return *b;
  return fallback;
}

/// Sizes beyond any real model would overflow the 64-bit byte counts of the
/// memory model; reject them as bad input.
Error checkLimits(const ModelDesc &m, StringRef file) {
  constexpr int64_t kMaxDim = 1 << 22, kMaxLayers = 1 << 14;
  std::pair<const char *, int64_t> dims[] = {
      {"hidden_size", m.hidden},
      {"intermediate_size", m.intermediate},
      {"num_attention_heads", m.heads},
      {"vocab_size", m.vocab}};
  for (auto [name, value] : dims)
    if (value > kMaxDim)
      return fieldError(file, name,
                        "too large (at most " + Twine(kMaxDim) + ")");
  if (m.layers > kMaxLayers)
    return fieldError(file, "num_hidden_layers",
                      "too large (at most " + Twine(kMaxLayers) + ")");
  return Error::success();
}

} // namespace

Expected<ModelDesc> modelFromHFConfig(const json::Value &v, StringRef file) {
  const json::Object *o = v.getAsObject();
  if (!o)
    return fieldError(file, "(top level)", "expected a JSON object");
  ModelDesc m;
  std::optional<StringRef> type = o->getString("model_type");
  if (!type)
    return fieldError(file, "model_type", "missing");
  m.arch = type->lower();
  m.name = o->getString("_name_or_path").value_or(*type).str();
  bool isOpt = m.arch == "opt", isBloom = m.arch == "bloom";
  bool isLlamaLike = m.arch == "llama" || m.arch == "mistral" ||
                     m.arch == "qwen2" || m.arch == "mixtral";
  if (!isOpt && !isBloom && !isLlamaLike)
    return fieldError(file, "model_type",
                      "unsupported '" + *type +
                          "' (supported: llama, mistral, qwen2, opt, bloom)");

  auto hidden = positiveInt(*o, file, {"hidden_size", "n_embed"});
  auto layers = positiveInt(*o, file, {"num_hidden_layers", "n_layer"});
  auto heads = positiveInt(*o, file, {"num_attention_heads", "n_head"});
  auto vocab = positiveInt(*o, file, {"vocab_size"});
  if (!hidden || !layers || !heads || !vocab)
    return joinErrors(joinErrors(hidden.takeError(), layers.takeError()),
                      joinErrors(heads.takeError(), vocab.takeError()));
  m.hidden = *hidden;
  m.layers = *layers;
  m.heads = *heads;
  m.vocab = *vocab;
  if (m.hidden % m.heads)
    return fieldError(file, "num_attention_heads",
                      "does not divide hidden size " + Twine(m.hidden));
  auto kv = positiveInt(*o, file, {"num_key_value_heads"}, m.heads);
  if (!kv)
    return kv.takeError();
  if (m.heads % *kv)
    return fieldError(file, "num_key_value_heads",
                      "must divide num_attention_heads " + Twine(m.heads));
  m.kvHeads = *kv;
  auto ffn = isOpt ? positiveInt(*o, file, {"ffn_dim"})
             : isBloom
                 ? positiveInt(*o, file, {"intermediate_size"}, 4 * m.hidden)
                 : positiveInt(*o, file, {"intermediate_size"});
  if (!ffn)
    return ffn.takeError();
  m.intermediate = *ffn;
  auto seq =
      positiveInt(*o, file, {"max_position_embeddings", "seq_length"}, 2048);
  if (!seq)
    return seq.takeError();
  m.maxSeq = *seq;

  // Architecture conventions, overridable by the config's own flags.
  m.gatedFFN = isLlamaLike;
  m.layerNorm = isOpt || isBloom;
  m.tiedEmbeddings = flag(*o, "tie_word_embeddings", !isLlamaLike);
  if (isOpt) {
    m.attnBias = m.mlpBias = flag(*o, "enable_bias", true);
  } else if (isBloom) {
    m.attnBias = m.mlpBias = true;
  } else {
    m.attnBias = flag(*o, "attention_bias", m.arch == "qwen2");
    m.mlpBias = flag(*o, "mlp_bias", false);
  }
  // What the llm IR states beyond the shapes.
  Expected<double> eps = positiveNumber(
      *o, file, {"rms_norm_eps", "layer_norm_epsilon", "layer_norm_eps"},
      isLlamaLike ? 1e-6 : 1e-5);
  if (!eps)
    return eps.takeError();
  m.normEps = *eps;
  Expected<double> theta = positiveNumber(*o, file, {"rope_theta"}, 10000);
  if (!theta)
    return theta.takeError();
  m.ropeTheta = isLlamaLike ? *theta : 0;
  if (isOpt)
    m.activation = o->getString("activation_function").value_or("relu").str();
  else if (isBloom)
    m.activation = "gelu_tanh";
  else
    m.activation = o->getString("hidden_act").value_or("silu").str();
  StringRef dtype = o->getString("torch_dtype").value_or("float32");
  m.dtype = dtype == "float16" ? "f16" : dtype == "bfloat16" ? "bf16" : "f32";
  if (Error e = checkLimits(m, file))
    return std::move(e);
  return m;
}

Expected<ModelDesc> modelFromLlama2c(StringRef path) {
  auto buf = MemoryBuffer::getFile(path, /*IsText=*/false,
                                   /*RequiresNullTerminator=*/false);
  if (!buf)
    return createStringError(buf.getError(), path + ": cannot read");
  StringRef data = (*buf)->getBuffer();
  if (data.size() < 7 * sizeof(int32_t))
    return fieldError(path, "header", "shorter than 7 int32 values");
  int32_t h[7];
  memcpy(h, data.data(), sizeof(h));
  const char *names[] = {"dim",        "hidden_dim", "n_layers", "n_heads",
                         "n_kv_heads", "vocab_size", "seq_len"};
  for (int i = 0; i < 7; ++i)
    if (h[i] == 0 || (i != 5 && h[i] < 0))
      return fieldError(path, names[i],
                        "invalid value " + Twine(h[i]) +
                            " (not a llama2.c checkpoint?)");
  ModelDesc m;
  m.name = sys::path::stem(path).str();
  m.arch = "llama2c";
  m.hidden = h[0];
  m.intermediate = h[1];
  m.layers = h[2];
  m.heads = h[3];
  m.kvHeads = h[4];
  m.vocab = h[5] < 0 ? -int64_t(h[5]) : h[5];
  m.tiedEmbeddings = h[5] > 0; // negative vocab: separate classifier
  m.maxSeq = h[6];
  if (m.hidden % m.heads || m.heads % m.kvHeads)
    return fieldError(path, "n_heads", "inconsistent head counts");
  if (Error e = checkLimits(m, path))
    return std::move(e);
  return m;
}

Expected<ImportedModel> importModel(StringRef path) {
  ImportedModel r;
  SmallString<256> file(path);
  if (sys::fs::is_directory(path)) {
    sys::path::append(file, "config.json");
    std::error_code ec;
    for (sys::fs::directory_iterator it(path, ec), end; it != end && !ec;
         it.increment(ec))
      if (sys::path::extension(it->path()) == ".safetensors")
        r.safetensors.push_back(it->path());
    llvm::sort(r.safetensors); // shards in order
  }
  r.source = file.str().str();
  if (!sys::fs::exists(file))
    return createStringError(inconvertibleErrorCode(), file + ": no such file");
  if (sys::path::extension(file) == ".bin") {
    auto m = modelFromLlama2c(file);
    if (!m)
      return m.takeError();
    r.desc = *m;
    r.llama2cWeights = r.source;
    return r;
  }
  Expected<json::Value> v = readJSONFile(file);
  if (!v)
    return v.takeError();
  auto m = modelFromHFConfig(*v, file);
  if (!m)
    return m.takeError();
  r.desc = *m;
  return r;
}

} // namespace weft::plan
