//===- ReferenceOpt.cpp - Independent fp32 OPT forward for tests ----------===//
#include "ReferenceOpt.h"

#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>

namespace weft::rt::test {

namespace {
std::string slurp(const std::string &path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

/// The text right after `"key":` in a flat JSON object ("" when absent).
std::string jsonValue(const std::string &json, const std::string &key) {
  size_t at = json.find("\"" + key + "\"");
  if (at == std::string::npos)
    return "";
  at = json.find(':', at);
  if (at == std::string::npos)
    return "";
  ++at;
  while (at < json.size() && json[at] == ' ')
    ++at;
  size_t end = json.find_first_of(",}", at);
  return json.substr(at, end - at);
}

/// All F32 tensors of the safetensors files in `dir`, by name.
bool readTensors(const std::string &dir,
                 std::map<std::string, std::vector<float>> &out,
                 std::string &error) {
  for (const auto &e : std::filesystem::directory_iterator(dir)) {
    if (e.path().extension() != ".safetensors")
      continue;
    std::string bytes = slurp(e.path().string());
    uint64_t n = 0;
    if (bytes.size() < 8) {
      error = "short file " + e.path().string();
      return false;
    }
    std::memcpy(&n, bytes.data(), 8);
    std::string header = bytes.substr(8, n);
    const char *data = bytes.data() + 8 + n;
    // Entries look like "name":{"dtype":"F32","shape":[..],
    // "data_offsets":[begin,end]}.
    size_t at = 0;
    while ((at = header.find("\"dtype\"", at)) != std::string::npos) {
      size_t nameEnd = header.rfind("\":{", at);
      size_t nameBegin = header.rfind('"', nameEnd - 1);
      std::string name = header.substr(nameBegin + 1, nameEnd - nameBegin - 1);
      const std::string f32 = "\"dtype\":\"F32\"";
      if (header.compare(at, f32.size(), f32) != 0) {
        error = name + ": the reference reads F32 tensors only";
        return false;
      }
      size_t offsets = header.find("\"data_offsets\":[", at) + 16;
      char *rest;
      uint64_t begin = std::strtoull(header.c_str() + offsets, &rest, 10);
      uint64_t end = std::strtoull(rest + 1, nullptr, 10);
      std::vector<float> v((end - begin) / 4);
      std::memcpy(v.data(), data + begin, end - begin);
      out[name] = std::move(v);
      at = offsets;
    }
  }
  return true;
}

void layerNorm(float *out, const float *x, const float *w, const float *b,
               int n) {
  float mean = 0, var = 0;
  for (int i = 0; i < n; i++)
    mean += x[i];
  mean /= n;
  for (int i = 0; i < n; i++)
    var += (x[i] - mean) * (x[i] - mean);
  var /= n;
  float inv = 1.0f / std::sqrt(var + 1e-5f);
  for (int i = 0; i < n; i++)
    out[i] = (x[i] - mean) * inv * w[i] + b[i];
}

// out[d] = W[d][n] x[n] + b[d]
void linear(float *out, const float *x, const std::vector<float> &w,
            const std::vector<float> &b, int n, int d) {
  for (int i = 0; i < d; i++) {
    float val = b.empty() ? 0.0f : b[i];
    for (int j = 0; j < n; j++)
      val += w[long(i) * n + j] * x[j];
    out[i] = val;
  }
}
} // namespace

bool ReferenceOpt::load(const std::string &dir, std::string &error) {
  std::string config = slurp(dir + "/config.json");
  auto number = [&](const char *key) {
    return std::atoi(jsonValue(config, key).c_str());
  };
  dim = number("hidden_size");
  ffn = number("ffn_dim");
  layers = number("num_hidden_layers");
  heads = number("num_attention_heads");
  vocab = number("vocab_size");
  maxPos = number("max_position_embeddings");
  gelu = jsonValue(config, "activation_function") == "\"gelu\"";
  if (dim <= 0 || heads <= 0 || dim % heads || layers <= 0 || vocab <= 0) {
    error = dir + "/config.json: not an OPT config the reference reads";
    return false;
  }
  std::map<std::string, std::vector<float>> t;
  if (!readTensors(dir, t, error))
    return false;
  bool ok = true;
  auto take = [&](const std::string &name, std::vector<float> &dst,
                  size_t size) {
    auto it = t.find(name);
    if (it == t.end() || it->second.size() != size) {
      error = dir + ": missing or mis-sized tensor " + name;
      ok = false;
      return;
    }
    dst = it->second;
  };
  const std::string top = "model.decoder.";
  const size_t D = dim, F = ffn;
  take(top + "embed_tokens.weight", emb, vocab * D);
  take(top + "embed_positions.weight", posEmb, (maxPos + 2) * D);
  take(top + "final_layer_norm.weight", lnfw, D);
  take(top + "final_layer_norm.bias", lnfb, D);
  lmHead = emb;
  if (t.count("lm_head.weight"))
    take("lm_head.weight", lmHead, vocab * D);
  layer.assign(layers, Layer());
  for (int l = 0; l < layers && ok; l++) {
    std::string p = top + "layers." + std::to_string(l) + ".";
    Layer &L = layer[l];
    take(p + "self_attn_layer_norm.weight", L.ln1w, D);
    take(p + "self_attn_layer_norm.bias", L.ln1b, D);
    take(p + "self_attn.q_proj.weight", L.wq, D * D);
    take(p + "self_attn.q_proj.bias", L.bq, D);
    take(p + "self_attn.k_proj.weight", L.wk, D * D);
    take(p + "self_attn.k_proj.bias", L.bk, D);
    take(p + "self_attn.v_proj.weight", L.wv, D * D);
    take(p + "self_attn.v_proj.bias", L.bv, D);
    take(p + "self_attn.out_proj.weight", L.wo, D * D);
    take(p + "self_attn.out_proj.bias", L.bo, D);
    take(p + "final_layer_norm.weight", L.ln2w, D);
    take(p + "final_layer_norm.bias", L.ln2b, D);
    take(p + "fc1.weight", L.w1, F * D);
    take(p + "fc1.bias", L.b1, F);
    take(p + "fc2.weight", L.w2, D * F);
    take(p + "fc2.bias", L.b2, D);
  }
  keyCache.assign(size_t(layers) * maxPos * D, 0.0f);
  valueCache.assign(keyCache.size(), 0.0f);
  pos = 0;
  return ok;
}

std::vector<float> ReferenceOpt::step(int token) {
  const int hs = dim / heads;
  const float scaling = 1.0f / std::sqrt(float(hs));
  std::vector<float> x(dim), h(dim), q(dim), att(dim), o(dim), f(ffn),
      scores(pos + 1), logits(vocab);
  for (int i = 0; i < dim; i++) // HF's OPT position offset is 2
    x[i] = emb[long(token) * dim + i] + posEmb[long(pos + 2) * dim + i];
  for (int l = 0; l < layers; l++) {
    const Layer &L = layer[l];
    float *k = &keyCache[(long(l) * maxPos + pos) * dim];
    float *v = &valueCache[(long(l) * maxPos + pos) * dim];
    layerNorm(h.data(), x.data(), L.ln1w.data(), L.ln1b.data(), dim);
    linear(q.data(), h.data(), L.wq, L.bq, dim, dim);
    for (float &qi : q) // HF scales q after its bias
      qi *= scaling;
    linear(k, h.data(), L.wk, L.bk, dim, dim);
    linear(v, h.data(), L.wv, L.bv, dim, dim);
    for (int hd = 0; hd < heads; hd++) {
      float maxVal = -INFINITY;
      for (int t = 0; t <= pos; t++) {
        const float *kt = &keyCache[(long(l) * maxPos + t) * dim + hd * hs];
        float s = 0;
        for (int i = 0; i < hs; i++)
          s += q[hd * hs + i] * kt[i];
        scores[t] = s;
        maxVal = std::fmax(maxVal, s);
      }
      float sum = 0;
      for (int t = 0; t <= pos; t++) {
        scores[t] = std::exp(scores[t] - maxVal);
        sum += scores[t];
      }
      for (int i = 0; i < hs; i++) {
        float acc = 0;
        for (int t = 0; t <= pos; t++)
          acc += scores[t] / sum *
                 valueCache[(long(l) * maxPos + t) * dim + hd * hs + i];
        att[hd * hs + i] = acc;
      }
    }
    linear(o.data(), att.data(), L.wo, L.bo, dim, dim);
    for (int i = 0; i < dim; i++)
      x[i] += o[i];
    layerNorm(h.data(), x.data(), L.ln2w.data(), L.ln2b.data(), dim);
    linear(f.data(), h.data(), L.w1, L.b1, dim, ffn);
    for (float &fi : f) // exact (erf) GELU, as HF's "gelu"
      fi = gelu ? 0.5f * fi * (1.0f + std::erf(fi / std::sqrt(2.0f)))
                : std::fmax(fi, 0.0f);
    linear(o.data(), f.data(), L.w2, L.b2, ffn, dim);
    for (int i = 0; i < dim; i++)
      x[i] += o[i];
  }
  layerNorm(h.data(), x.data(), lnfw.data(), lnfb.data(), dim);
  linear(logits.data(), h.data(), lmHead, {}, dim, vocab);
  pos++;
  return logits;
}

} // namespace weft::rt::test
