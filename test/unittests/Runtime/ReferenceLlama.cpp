//===- ReferenceLlama.cpp - Independent fp32 LLaMA forward for tests ------===//
#include "ReferenceLlama.h"

#include <cmath>
#include <cstdio>

namespace weft::rt::test {

bool ReferenceLlama::load(const std::string &path, std::string &error) {
  std::FILE *f = std::fopen(path.c_str(), "rb");
  if (!f) {
    error = "cannot open " + path;
    return false;
  }
  int header[7];
  if (std::fread(header, sizeof(int), 7, f) != 7 || header[0] <= 0 ||
      header[3] <= 0 || header[4] <= 0 || header[0] % header[3] != 0 ||
      header[3] % header[4] != 0) {
    std::fclose(f);
    error = "bad header in " + path;
    return false;
  }
  bool ok = true;
  dim = header[0];
  hidden = header[1];
  layers = header[2];
  heads = header[3];
  kvHeads = header[4];
  vocab = std::abs(header[5]);
  seqLen = header[6];
  bool shared = header[5] > 0;
  int headSize = dim / heads, kvDim = kvHeads * headSize;
  auto read = [&](std::vector<float> &v, long n) {
    v.resize(n);
    ok = ok && std::fread(v.data(), sizeof(float), n, f) == size_t(n);
  };
  read(emb, long(vocab) * dim);
  read(rmsAtt, long(layers) * dim);
  read(wq, long(layers) * dim * dim);
  read(wk, long(layers) * kvDim * dim);
  read(wv, long(layers) * kvDim * dim);
  read(wo, long(layers) * dim * dim);
  read(rmsFfn, long(layers) * dim);
  read(w1, long(layers) * hidden * dim);
  read(w2, long(layers) * dim * hidden);
  read(w3, long(layers) * hidden * dim);
  read(rmsFinal, dim);
  std::vector<float> skipped;
  read(skipped, long(seqLen) * headSize); // freq_cis_real + freq_cis_imag
  if (shared)
    wcls = emb;
  else
    read(wcls, long(vocab) * dim);
  std::fclose(f);
  if (!ok)
    error = "short read in " + path;
  keyCache.assign(size_t(layers) * seqLen * kvDim, 0.0f);
  valueCache.assign(keyCache.size(), 0.0f);
  pos = 0;
  return ok;
}

static void rmsnorm(float *out, const float *x, const float *w, int n) {
  float ss = 0;
  for (int i = 0; i < n; i++)
    ss += x[i] * x[i];
  ss = 1.0f / std::sqrt(ss / n + 1e-5f);
  for (int i = 0; i < n; i++)
    out[i] = w[i] * (ss * x[i]);
}

// out[d] = W[d][n] x[n]
static void matmul(float *out, const float *x, const float *w, int n, int d) {
  for (int i = 0; i < d; i++) {
    float val = 0;
    for (int j = 0; j < n; j++)
      val += w[long(i) * n + j] * x[j];
    out[i] = val;
  }
}

std::vector<float> ReferenceLlama::step(int token) {
  int headSize = dim / heads, kvDim = kvHeads * headSize;
  int kvMul = heads / kvHeads;
  std::vector<float> x(emb.begin() + long(token) * dim,
                       emb.begin() + long(token + 1) * dim);
  std::vector<float> xb(dim), xb2(dim), q(dim), hb(hidden), hb2(hidden),
      att(seqLen), logits(vocab);
  for (int l = 0; l < layers; l++) {
    rmsnorm(xb.data(), x.data(), &rmsAtt[long(l) * dim], dim);
    float *k = &keyCache[(long(l) * seqLen + pos) * kvDim];
    float *v = &valueCache[(long(l) * seqLen + pos) * kvDim];
    matmul(q.data(), xb.data(), &wq[long(l) * dim * dim], dim, dim);
    matmul(k, xb.data(), &wk[long(l) * kvDim * dim], dim, kvDim);
    matmul(v, xb.data(), &wv[long(l) * kvDim * dim], dim, kvDim);
    for (int i = 0; i < dim; i += 2) { // RoPE on q (all) and k (first kvDim)
      int headDim = i % headSize;
      float freq = 1.0f / std::pow(10000.0f, headDim / float(headSize));
      float val = pos * freq, fcr = std::cos(val), fci = std::sin(val);
      for (int which = 0; which < (i < kvDim ? 2 : 1); which++) {
        float *vec = which == 0 ? q.data() : k;
        float v0 = vec[i], v1 = vec[i + 1];
        vec[i] = v0 * fcr - v1 * fci;
        vec[i + 1] = v0 * fci + v1 * fcr;
      }
    }
    for (int h = 0; h < heads; h++) {
      const float *qh = &q[long(h) * headSize];
      for (int t = 0; t <= pos; t++) {
        const float *kt = &keyCache[(long(l) * seqLen + t) * kvDim +
                                    long(h / kvMul) * headSize];
        float score = 0;
        for (int i = 0; i < headSize; i++)
          score += qh[i] * kt[i];
        att[t] = score / std::sqrt(float(headSize));
      }
      float maxVal = att[0];
      for (int t = 1; t <= pos; t++)
        maxVal = std::fmax(maxVal, att[t]);
      float sum = 0;
      for (int t = 0; t <= pos; t++) {
        att[t] = std::exp(att[t] - maxVal);
        sum += att[t];
      }
      float *out = &xb[long(h) * headSize];
      for (int i = 0; i < headSize; i++)
        out[i] = 0;
      for (int t = 0; t <= pos; t++) {
        const float *vt = &valueCache[(long(l) * seqLen + t) * kvDim +
                                      long(h / kvMul) * headSize];
        for (int i = 0; i < headSize; i++)
          out[i] += att[t] / sum * vt[i];
      }
    }
    matmul(xb2.data(), xb.data(), &wo[long(l) * dim * dim], dim, dim);
    for (int i = 0; i < dim; i++)
      x[i] += xb2[i];
    rmsnorm(xb.data(), x.data(), &rmsFfn[long(l) * dim], dim);
    matmul(hb.data(), xb.data(), &w1[long(l) * dim * hidden], dim, hidden);
    matmul(hb2.data(), xb.data(), &w3[long(l) * dim * hidden], dim, hidden);
    for (int i = 0; i < hidden; i++)
      hb[i] = hb[i] * (1.0f / (1.0f + std::exp(-hb[i]))) * hb2[i];
    matmul(xb.data(), hb.data(), &w2[long(l) * dim * hidden], hidden, dim);
    for (int i = 0; i < dim; i++)
      x[i] += xb[i];
  }
  rmsnorm(x.data(), x.data(), rmsFinal.data(), dim);
  matmul(logits.data(), x.data(), wcls.data(), dim, vocab);
  pos++;
  return logits;
}

} // namespace weft::rt::test
