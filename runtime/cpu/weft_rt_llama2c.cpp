//===- weft_rt_llama2c.cpp - llama2.c checkpoint reader -------------------===//
#include "weft_rt_llama2c.h"

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <type_traits>
#include <utility>

namespace weft::rt {

namespace {
constexpr int kHeaderInts = 7;
/// Upper bound on any header field: keeps every size computation far from
/// int64 overflow and rejects garbage headers early.
constexpr int64_t kMaxField = 1 << 20;

struct FileCloser {
  void operator()(std::FILE *f) const { std::fclose(f); }
};
using File = std::unique_ptr<std::FILE, FileCloser>;

/// One array of the file, in file order; `skip` arrays (RoPE tables) are
/// read past and written as their computed values.
template <typename Vector> struct Section {
  const char *name;
  Vector *data;
  int64_t count;
};

/// W is LlamaWeights or const LlamaWeights (reading or writing).
template <typename W> auto sections(W &w, int64_t *ropeFloats) {
  using Vector = std::remove_reference_t<decltype((w.wq))>;
  using S = Section<Vector>;
  const LlamaConfig &c = w.config;
  int64_t L = c.layers, D = c.dim, H = c.hiddenDim, KV = c.kvDim();
  *ropeFloats = int64_t(c.seqLen) * (c.headSize() / 2);
  std::vector<S> s = {
      S{"token_embedding", &w.tokenEmbedding, int64_t(c.vocabSize) * D},
      S{"rms_att", &w.rmsAtt, L * D},
      S{"wq", &w.wq, L * D * D},
      S{"wk", &w.wk, L * KV * D},
      S{"wv", &w.wv, L * KV * D},
      S{"wo", &w.wo, L * D * D},
      S{"rms_ffn", &w.rmsFfn, L * D},
      S{"w1", &w.w1, L * H * D},
      S{"w2", &w.w2, L * D * H},
      S{"w3", &w.w3, L * H * D},
      S{"rms_final", &w.rmsFinal, D}};
  return s;
}

bool fail(std::string *error, const std::string &path,
          const std::string &what) {
  if (error)
    *error = path + ": " + what;
  return false;
}
} // namespace

std::string checkLlamaConfig(const LlamaConfig &c) {
  const std::pair<const char *, int> fields[] = {{"dim", c.dim},
                                                 {"hidden_dim", c.hiddenDim},
                                                 {"n_layers", c.layers},
                                                 {"n_heads", c.heads},
                                                 {"n_kv_heads", c.kvHeads},
                                                 {"vocab_size", c.vocabSize},
                                                 {"seq_len", c.seqLen}};
  for (const auto &[name, value] : fields)
    if (value <= 0 || value > kMaxField)
      return std::string("header field ") + name + " = " +
             std::to_string(value) + " is outside [1, " +
             std::to_string(kMaxField) + "]";
  if (c.dim % c.heads != 0)
    return "dim " + std::to_string(c.dim) + " is not a multiple of n_heads " +
           std::to_string(c.heads);
  if (c.heads % c.kvHeads != 0)
    return "n_heads " + std::to_string(c.heads) +
           " is not a multiple of n_kv_heads " + std::to_string(c.kvHeads);
  if (c.isOpt() && c.kvHeads != c.heads)
    return "OPT has multi-head attention: n_kv_heads " +
           std::to_string(c.kvHeads) + " differs from n_heads " +
           std::to_string(c.heads);
  if (!c.isOpt() && c.headSize() % 2 != 0)
    return "head size " + std::to_string(c.headSize()) +
           " is odd; rotary embeddings need pairs";
  // From a config or a stage file: NaN, infinite or absurd values would
  // only show as garbage tokens.
  if (!(c.rmsEps > 0 && c.rmsEps < 1))
    return "norm epsilon " + std::to_string(c.rmsEps) + " is outside (0, 1)";
  if (!(c.ropeTheta > 0 && c.ropeTheta < 1e30f))
    return "rope_theta " + std::to_string(c.ropeTheta) +
           " is not a positive number below 1e30";
  return "";
}

int64_t llama2cFileBytes(const LlamaConfig &config) {
  // Each count is a product of header fields (each at most 2^20); the sum
  // in bytes can pass 2^63, so every step is overflow-checked.
  LlamaWeights probe;
  probe.config = config;
  int64_t rope = 0, floats = 0;
  bool overflow = false;
  for (const auto &s : sections(probe, &rope))
    overflow |= __builtin_add_overflow(floats, s.count, &floats);
  overflow |= __builtin_add_overflow(floats, 2 * rope, &floats);
  if (!config.tiedClassifier)
    overflow |= __builtin_add_overflow(
        floats, int64_t(config.vocabSize) * config.dim, &floats);
  int64_t bytes = 0;
  overflow |= __builtin_mul_overflow(floats, int64_t(sizeof(float)), &bytes);
  overflow |= __builtin_add_overflow(bytes, int64_t(kHeaderInts * 4), &bytes);
  return overflow ? -1 : bytes;
}

bool readLlama2c(const std::string &path, LlamaWeights &out,
                 std::string *error) {
  File file(std::fopen(path.c_str(), "rb"));
  if (!file)
    return fail(error, path, "cannot open the file");
  int64_t size = -1;
  if (std::fseek(file.get(), 0, SEEK_END) == 0)
    size = std::ftell(file.get());
  if (size < 0 || std::fseek(file.get(), 0, SEEK_SET) != 0)
    return fail(error, path, "cannot seek (not a regular file?)");
  int32_t header[kHeaderInts];
  if (size < int64_t(sizeof header) ||
      std::fread(header, sizeof header, 1, file.get()) != 1) {
    return fail(error, path,
                "file has " + std::to_string(size) +
                    " bytes, too short for the 28-byte header");
  }
  LlamaConfig &c = out.config;
  c.dim = header[0];
  c.hiddenDim = header[1];
  c.layers = header[2];
  c.heads = header[3];
  c.kvHeads = header[4];
  // A negative vocab_size flags an untied classifier (INT32_MIN: invalid).
  c.vocabSize = header[5] == INT32_MIN ? 0 : std::abs(header[5]);
  c.seqLen = header[6];
  c.tiedClassifier = header[5] > 0;
  std::string problem = checkLlamaConfig(c);
  if (!problem.empty()) {
    return fail(error, path, "not a llama2.c checkpoint: " + problem);
  }
  int64_t expected = llama2cFileBytes(c);
  if (expected < 0)
    return fail(error, path,
                "header (dim " + std::to_string(c.dim) + ", hidden_dim " +
                    std::to_string(c.hiddenDim) + ", layers " +
                    std::to_string(c.layers) + ", vocab " +
                    std::to_string(c.vocabSize) +
                    ") implies more than 2^63 bytes; the file has " +
                    std::to_string(size));
  if (size != expected) {
    return fail(
        error, path,
        (size < expected ? "truncated: " : "unexpected trailing data: ") +
            std::string("header (dim ") + std::to_string(c.dim) + ", layers " +
            std::to_string(c.layers) + ", vocab " +
            std::to_string(c.vocabSize) + ") needs " +
            std::to_string(expected) + " bytes, file has " +
            std::to_string(size));
  }
  int64_t rope = 0;
  auto readArray = [&](const char *name, std::vector<float> &data,
                       int64_t count) {
    data.resize(size_t(count));
    if (std::fread(data.data(), sizeof(float), size_t(count), file.get()) !=
        size_t(count))
      return fail(error, path, std::string("read error in ") + name);
    for (int64_t i = 0; i < count; ++i)
      if (!std::isfinite(data[i]))
        return fail(error, path,
                    std::string(name) + "[" + std::to_string(i) +
                        "] is not a finite number");
    return true;
  };
  for (const auto &s : sections(out, &rope))
    if (!readArray(s.name, *s.data, s.count))
      return false;
  std::fseek(file.get(), 2 * rope * int64_t(sizeof(float)), SEEK_CUR);
  if (c.tiedClassifier)
    out.wcls = out.tokenEmbedding;
  else if (!readArray("wcls", out.wcls, int64_t(c.vocabSize) * c.dim))
    return false;
  return true;
}

bool writeLlama2c(const std::string &path, const LlamaWeights &weights,
                  std::string *error) {
  const LlamaWeights &w = weights;
  const LlamaConfig &c = w.config;
  std::string problem = checkLlamaConfig(c);
  if (!problem.empty())
    return fail(error, path, "cannot write: " + problem);
  File file(std::fopen(path.c_str(), "wb"));
  if (!file)
    return fail(error, path, "cannot create the file");
  int32_t header[kHeaderInts] = {
      c.dim,   c.hiddenDim, c.layers,
      c.heads, c.kvHeads,   c.tiedClassifier ? c.vocabSize : -c.vocabSize,
      c.seqLen};
  bool ok = std::fwrite(header, sizeof header, 1, file.get()) == 1;
  int64_t rope = 0;
  auto writeArray = [&](const float *data, int64_t count) {
    ok = ok && std::fwrite(data, sizeof(float), size_t(count), file.get()) ==
                   size_t(count);
  };
  for (const auto &s : sections(w, &rope)) {
    if (int64_t(s.data->size()) != s.count)
      return fail(error, path,
                  std::string("cannot write: ") + s.name + " has " +
                      std::to_string(s.data->size()) + " values, expected " +
                      std::to_string(s.count));
    writeArray(s.data->data(), s.count);
  }
  // freq_cis_real / freq_cis_imag as llama2.c's export writes them.
  std::vector<float> real(static_cast<size_t>(rope)),
      imag(static_cast<size_t>(rope));
  int half = c.headSize() / 2;
  for (int p = 0; p < c.seqLen; ++p)
    for (int i = 0; i < half; ++i) {
      float freq = 1.0f / std::pow(10000.0f, float(2 * i) / c.headSize());
      real[size_t(p) * half + i] = std::cos(p * freq);
      imag[size_t(p) * half + i] = std::sin(p * freq);
    }
  writeArray(real.data(), rope);
  writeArray(imag.data(), rope);
  if (!c.tiedClassifier) {
    if (int64_t(w.wcls.size()) != int64_t(c.vocabSize) * c.dim)
      return fail(error, path, "cannot write: wcls has the wrong size");
    writeArray(w.wcls.data(), int64_t(c.vocabSize) * c.dim);
  }
  if (!ok)
    return fail(error, path, "write error");
  return true;
}

} // namespace weft::rt
