//===- weft_rt_llama2c.cpp - llama2.c checkpoint files --------------------===//
#include "weft_rt_llama2c.h"

#include "weft_rt_file.h"

#include <cmath>
#include <cstdint>
#include <cstdlib>

namespace weft::rt {

namespace {
constexpr int kHeaderInts = 7;
constexpr int64_t kHeaderBytes = kHeaderInts * 4;

/// Floats in one RoPE table (llama2.c writes two, which readers skip).
int64_t ropeFloats(const LlamaConfig &c) {
  return int64_t(c.seqLen) * (c.headSize() / 2);
}
} // namespace

bool readLlama2cHeader(const std::string &path, LlamaConfig &c,
                       int64_t *fileBytes, std::string *error) {
  int64_t size = 0;
  File file = openForReading(path, &size, error);
  if (!file)
    return false;
  int32_t header[kHeaderInts];
  if (size < kHeaderBytes ||
      std::fread(header, sizeof header, 1, file.get()) != 1)
    return fileError(error, path,
                     "file has " + std::to_string(size) +
                         " bytes, too short for the 28-byte header");
  c = LlamaConfig();
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
  if (!problem.empty())
    return fileError(error, path, "not a llama2.c checkpoint: " + problem);
  if (fileBytes)
    *fileBytes = size;
  return true;
}

std::vector<Llama2cArray> llama2cLayout(const LlamaConfig &c) {
  // Each count is a product of header fields (each at most 2^20); the sum
  // in bytes can pass 2^63, so every step is overflow-checked.
  std::vector<Llama2cArray> arrays;
  int64_t offset = kHeaderBytes;
  bool overflow = false;
  auto add = [&](const char *name, bool isTensor, Tensor t, int64_t count) {
    arrays.push_back({name, isTensor, t, offset, count});
    int64_t bytes = 0;
    overflow |= __builtin_mul_overflow(count, int64_t(sizeof(float)), &bytes);
    overflow |= __builtin_add_overflow(offset, bytes, &offset);
  };
  const std::pair<const char *, Tensor> tensors[] = {
      {"token_embedding", Tensor::TokenEmbedding},
      {"rms_att", Tensor::AttnNorm},
      {"wq", Tensor::Wq},
      {"wk", Tensor::Wk},
      {"wv", Tensor::Wv},
      {"wo", Tensor::Wo},
      {"rms_ffn", Tensor::FfnNorm},
      {"w1", Tensor::W1},
      {"w2", Tensor::W2},
      {"w3", Tensor::W3},
      {"rms_final", Tensor::FinalNorm}};
  for (auto [name, t] : tensors) {
    int64_t count = tensorShape(c, t).elements();
    if (isPerLayer(t))
      overflow |= __builtin_mul_overflow(count, int64_t(c.layers), &count);
    add(name, true, t, count);
  }
  add("freq_cis_real", false, Tensor::TokenEmbedding, ropeFloats(c));
  add("freq_cis_imag", false, Tensor::TokenEmbedding, ropeFloats(c));
  if (!c.tiedClassifier)
    add("wcls", true, Tensor::Classifier,
        tensorShape(c, Tensor::Classifier).elements());
  if (overflow)
    arrays.clear();
  return arrays;
}

int64_t llama2cFileBytes(const LlamaConfig &c) {
  std::vector<Llama2cArray> arrays = llama2cLayout(c);
  if (arrays.empty())
    return -1;
  const Llama2cArray &last = arrays.back();
  int64_t end = 0;
  if (__builtin_mul_overflow(last.count, int64_t(sizeof(float)), &end) ||
      __builtin_add_overflow(end, last.offset, &end))
    return -1;
  return end;
}

std::string checkLlama2cSize(const LlamaConfig &c, int64_t size) {
  int64_t expected = llama2cFileBytes(c);
  if (expected < 0)
    return "header (dim " + std::to_string(c.dim) + ", hidden_dim " +
           std::to_string(c.hiddenDim) + ", layers " +
           std::to_string(c.layers) + ", vocab " + std::to_string(c.vocabSize) +
           ") implies more than 2^63 bytes; the file has " +
           std::to_string(size);
  if (size > expected)
    return "unexpected trailing data: the header's shapes need " +
           std::to_string(expected) + " bytes, the file has " +
           std::to_string(size);
  for (const Llama2cArray &a : llama2cLayout(c))
    if (a.offset + a.count * int64_t(sizeof(float)) > size)
      return std::string("weights: ") + a.name + " needs " +
             std::to_string(a.count * int64_t(sizeof(float))) +
             " bytes at offset " + std::to_string(a.offset) +
             ", the file has " + std::to_string(size) +
             " (shorter than the header's shapes require)";
  return "";
}

bool writeLlama2c(const std::string &path, const LlamaWeights &w,
                  std::string *error) {
  const LlamaConfig &c = w.config;
  std::string problem = checkLlamaConfig(c);
  if (!problem.empty())
    return fileError(error, path, "cannot write: " + problem);
  std::vector<Llama2cArray> arrays = llama2cLayout(c);
  if (arrays.empty())
    return fileError(error, path, "cannot write: the model is too large");
  File file(std::fopen(path.c_str(), "wb"));
  if (!file)
    return fileError(error, path, "cannot create the file");
  int32_t header[kHeaderInts] = {
      c.dim,   c.hiddenDim, c.layers,
      c.heads, c.kvHeads,   c.tiedClassifier ? c.vocabSize : -c.vocabSize,
      c.seqLen};
  bool ok = std::fwrite(header, sizeof header, 1, file.get()) == 1;
  auto writeArray = [&](const float *data, int64_t count) {
    ok = ok && std::fwrite(data, sizeof(float), size_t(count), file.get()) ==
                   size_t(count);
  };
  // freq_cis_real / freq_cis_imag as llama2.c's export writes them.
  const int half = c.headSize() / 2;
  std::vector<float> rope[2] = {std::vector<float>(size_t(ropeFloats(c))),
                                std::vector<float>(size_t(ropeFloats(c)))};
  for (int p = 0; p < c.seqLen; ++p)
    for (int i = 0; i < half; ++i) {
      float freq = 1.0f / std::pow(10000.0f, float(2 * i) / c.headSize());
      rope[0][size_t(p) * half + i] = std::cos(p * freq);
      rope[1][size_t(p) * half + i] = std::sin(p * freq);
    }
  int table = 0;
  for (const Llama2cArray &a : arrays) {
    const std::vector<float> &data =
        a.isTensor ? stackedArray(w, a.tensor) : rope[table++];
    if (int64_t(data.size()) != a.count)
      return fileError(error, path,
                       std::string("cannot write: ") + a.name + " has " +
                           std::to_string(data.size()) + " values, expected " +
                           std::to_string(a.count));
    writeArray(data.data(), a.count);
  }
  if (!ok)
    return fileError(error, path, "write error");
  return true;
}

} // namespace weft::rt
