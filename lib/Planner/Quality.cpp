//===- Quality.cpp - Per-layer quantisation sensitivity -------------------===//
#include "weft/Planner/Quality.h"

#include "weft/CostModel/Memory.h"
#include "weft/Planner/Safetensors.h"

#include "llvm/Support/MemoryBuffer.h"

#include <algorithm>
#include <cmath>
#include <cstring>

using namespace llvm;
using weft::cost::ModelDesc;

namespace weft::plan {

double bitNoise(int bits) {
  if (bits >= 16)
    return 0; // fp16 weights are the reference, not a quantisation
  double levels = std::ldexp(1.0, bits) - 1;
  return 1.0 / (levels * levels);
}

double QualityModel::loss(ArrayRef<int> bitsPerLayer) const {
  double sum = 0;
  for (auto [l, b] : enumerate(bitsPerLayer))
    sum += layerLoss(int64_t(l), b);
  return sum;
}

double QualityModel::uniformLoss(int bits) const {
  double sum = 0;
  for (double s : sensitivity)
    sum += s * bitNoise(bits);
  return sum;
}

static void normalise(QualityModel &q) {
  double at4 = q.uniformLoss(4);
  for (double &s : q.sensitivity)
    s = at4 > 0 ? s / at4 : 0;
}

QualityModel qualityPrior(const ModelDesc &m) {
  QualityModel q;
  q.source = "prior";
  q.sensitivity.assign(m.layers, 1.0);
  q.sensitivity.front() = 2.0;
  q.sensitivity.back() = 2.0;
  normalise(q);
  return q;
}

namespace {

/// Sequential reader over the fp32 tensors after the llama2.c header. Every
/// take checks its size against what is left (overflow-safe) and names the
/// tensor and its byte offset when the file is too short.
struct TensorReader {
  const float *data;
  uint64_t size, pos = 0;
  std::string path, error;
  /// `count` is a product of header fields; its factors are multiplied
  /// with overflow checks.
  ArrayRef<float> take(const char *name, std::initializer_list<int64_t> dims) {
    if (!error.empty())
      return {};
    uint64_t n = 1;
    bool overflow = false;
    for (int64_t d : dims)
      overflow |= d < 0 || __builtin_mul_overflow(n, uint64_t(d), &n);
    if (overflow || n > size - pos) {
      constexpr uint64_t header = 7 * sizeof(int32_t);
      error = path + ": weights: " + name + " needs " +
              (overflow ? std::string("more than 2^64")
                        : std::to_string(n * sizeof(float))) +
              " bytes at offset " +
              std::to_string(header + pos * sizeof(float)) +
              ", the file has " +
              std::to_string(header + size * sizeof(float)) +
              " (shorter than the header's shapes require)";
      return {};
    }
    ArrayRef<float> r(data + pos, size_t(n));
    pos += n;
    return r;
  }
};

double meanSquare(ArrayRef<float> v) {
  double s = 0;
  for (float x : v)
    s += double(x) * x;
  return v.empty() ? 0 : s / v.size();
}

/// rows x cols matrix (llama2.c: one output row of `cols` inputs at a
/// time): rows*cols*inputVar * mean over groups of range^2 / 12.
double matrixNoise(ArrayRef<float> w, int64_t rows, int64_t cols,
                   double inputVar) {
  int64_t group = std::min<int64_t>(cost::kGroupSize, cols);
  double sum = 0;
  int64_t groups = 0;
  for (int64_t r = 0; r < rows; ++r)
    for (int64_t c = 0; c < cols; c += group) {
      auto g = w.slice(r * cols + c, std::min(group, cols - c));
      auto [lo, hi] = std::minmax_element(g.begin(), g.end());
      sum += double(*hi - *lo) * double(*hi - *lo);
      ++groups;
    }
  return double(rows) * cols * inputVar * (sum / groups) / 12;
}

} // namespace

namespace {

/// How one architecture names the matrices of layer l, and the norm in
/// front of each ("" = no norm, input variance 1).
struct MatrixName {
  const char *matrix;
  const char *norm;
};

struct LayerNaming {
  std::vector<std::string> prefixes; // "{}" is replaced by the layer index
  std::vector<MatrixName> matrices;
};

LayerNaming namingFor(StringRef arch) {
  if (arch == "opt")
    return {{"model.decoder.layers.{}.", "decoder.layers.{}."},
            {{"self_attn.q_proj.weight", "self_attn_layer_norm.weight"},
             {"self_attn.k_proj.weight", "self_attn_layer_norm.weight"},
             {"self_attn.v_proj.weight", "self_attn_layer_norm.weight"},
             {"self_attn.out_proj.weight", ""},
             {"fc1.weight", "final_layer_norm.weight"},
             {"fc2.weight", ""}}};
  if (arch == "bloom")
    return {
        {"transformer.h.{}.", "h.{}."},
        {{"self_attention.query_key_value.weight", "input_layernorm.weight"},
         {"self_attention.dense.weight", ""},
         {"mlp.dense_h_to_4h.weight", "post_attention_layernorm.weight"},
         {"mlp.dense_4h_to_h.weight", ""}}};
  return {{"model.layers.{}."},
          {{"self_attn.q_proj.weight", "input_layernorm.weight"},
           {"self_attn.k_proj.weight", "input_layernorm.weight"},
           {"self_attn.v_proj.weight", "input_layernorm.weight"},
           {"self_attn.o_proj.weight", ""},
           {"mlp.gate_proj.weight", "post_attention_layernorm.weight"},
           {"mlp.up_proj.weight", "post_attention_layernorm.weight"},
           {"mlp.down_proj.weight", ""}}};
}

} // namespace

Expected<QualityModel> qualityFromSafetensors(const ModelDesc &m,
                                              const SafetensorsSet &w) {
  LayerNaming naming = namingFor(m.arch);
  QualityModel q;
  q.source = "weights";
  for (int64_t l = 0; l < m.layers; ++l) {
    // The first prefix under which this layer's first matrix exists.
    std::string prefix;
    for (const std::string &pattern : naming.prefixes) {
      std::string candidate = pattern;
      candidate.replace(candidate.find("{}"), 2, std::to_string(l));
      if (w.has(candidate + naming.matrices[0].matrix)) {
        prefix = candidate;
        break;
      }
    }
    if (prefix.empty())
      return createStringError(inconvertibleErrorCode(),
                               "weights: no tensors for layer " + Twine(l) +
                                   " (expected names like '" +
                                   naming.prefixes[0] +
                                   naming.matrices[0].matrix + "')");
    double s = 0;
    for (const MatrixName &mn : naming.matrices) {
      std::string name = prefix + mn.matrix;
      const TensorInfo *t = w.info(name);
      if (!t || t->shape.size() != 2)
        return createStringError(inconvertibleErrorCode(),
                                 "weights: tensor '" + name +
                                     "' missing or not a matrix");
      auto data = w.read(name);
      if (!data)
        return data.takeError();
      // The reader checked dtype x shape against the bytes; an empty matrix
      // has no groups to measure.
      uint64_t values = 0;
      if (t->shape[0] <= 0 || t->shape[1] <= 0 ||
          __builtin_mul_overflow(uint64_t(t->shape[0]), uint64_t(t->shape[1]),
                                 &values) ||
          values != data->size())
        return createStringError(inconvertibleErrorCode(),
                                 "weights: tensor '" + name + "' has shape [" +
                                     Twine(t->shape[0]) + ", " +
                                     Twine(t->shape[1]) + "] and " +
                                     Twine(data->size()) + " values");
      double inputVar = 1.0;
      if (*mn.norm) {
        auto norm = w.read(prefix + mn.norm);
        if (!norm)
          return norm.takeError();
        inputVar = meanSquare(*norm);
      }
      // HF linear weights are [out, in]: one output row of inputs at a time.
      s += matrixNoise(*data, t->shape[0], t->shape[1], inputVar);
    }
    q.sensitivity.push_back(s);
  }
  normalise(q);
  return q;
}

Expected<QualityModel> qualityFromLlama2c(const ModelDesc &m, StringRef path) {
  auto buf = MemoryBuffer::getFile(path, false, false);
  if (!buf)
    return createStringError(buf.getError(), path + ": cannot read");
  StringRef bytes = (*buf)->getBuffer();
  constexpr size_t header = 7 * sizeof(int32_t);
  if (bytes.size() < header)
    return createStringError(inconvertibleErrorCode(),
                             path + ": header: file too short");
  // Copy into aligned storage: the mapped file is only 4-byte aligned after
  // the header by accident.
  std::vector<float> all((bytes.size() - header) / sizeof(float));
  if (!all.empty()) // memcpy from or to null is undefined, even for 0 bytes
    memcpy(all.data(), bytes.data() + header, all.size() * sizeof(float));
  TensorReader rd{all.data(), all.size(), 0, path.str(), ""};
  int64_t L = m.layers, d = m.hidden, kv = m.kvDim(), f = m.intermediate;
  ArrayRef<float> emb = rd.take("token_embedding", {m.vocab, d}),
                  rmsAtt = rd.take("rms_att", {L, d}),
                  wq = rd.take("wq", {L, d, d}),
                  wk = rd.take("wk", {L, kv, d}),
                  wv = rd.take("wv", {L, kv, d}),
                  wo = rd.take("wo", {L, d, d}),
                  rmsFfn = rd.take("rms_ffn", {L, d}),
                  w1 = rd.take("w1", {L, f, d}),
                  w2 = rd.take("w2", {L, d, f}),
                  w3 = rd.take("w3", {L, f, d});
  (void)emb;
  if (!rd.error.empty())
    return createStringError(inconvertibleErrorCode(), rd.error);
  if (L <= 0 || d <= 0 || kv <= 0 || f <= 0)
    return createStringError(inconvertibleErrorCode(),
                             path + ": header: empty layers");
  QualityModel q;
  q.source = "weights";
  for (int64_t l = 0; l < L; ++l) {
    double attVar = meanSquare(rmsAtt.slice(l * d, d));
    double ffnVar = meanSquare(rmsFfn.slice(l * d, d));
    double s = matrixNoise(wq.slice(l * d * d, d * d), d, d, attVar) +
               matrixNoise(wk.slice(l * kv * d, kv * d), kv, d, attVar) +
               matrixNoise(wv.slice(l * kv * d, kv * d), kv, d, attVar) +
               matrixNoise(wo.slice(l * d * d, d * d), d, d, 1.0) +
               matrixNoise(w1.slice(l * f * d, f * d), f, d, ffnVar) +
               matrixNoise(w2.slice(l * d * f, d * f), d, f, 1.0) +
               matrixNoise(w3.slice(l * f * d, f * d), f, d, ffnVar);
    q.sensitivity.push_back(s);
  }
  normalise(q);
  return q;
}

} // namespace weft::plan
