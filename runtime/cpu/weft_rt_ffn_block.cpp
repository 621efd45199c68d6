//===- weft_rt_ffn_block.cpp - Whole feed-forward blocks ------------------===//
#include "weft_rt_ffn_block.h"

#include "weft_rt_ffn.h"

#include <cmath>

namespace weft::rt {

void addBias(float *y, const float *bias, int m, int n) {
  for (int t = 0; t < m; ++t)
    addInPlace(y + int64_t(t) * n, bias, n);
}

void ffnGated(const Linear &gate, const Linear &up, const Linear &down,
              const float *x, float *out, int m, FfnScratch &s) {
  gate.apply(x, s.a.data(), m);
  up.apply(x, s.b.data(), m);
  swiglu(s.a.data(), s.b.data(), int64_t(m) * gate.rows);
  down.apply(s.a.data(), out, m);
}

void ffnPlain(const Linear &fc1, const float *b1, const Linear &fc2,
              const float *b2, Activation act, const float *x, float *out,
              int m, FfnScratch &s) {
  const int64_t n = int64_t(m) * fc1.rows;
  fc1.apply(x, s.a.data(), m);
  if (b1)
    addBias(s.a.data(), b1, m, fc1.rows);
  switch (act) {
  case Activation::GELU:
    gelu(s.a.data(), n);
    break;
  case Activation::ReLU:
    relu(s.a.data(), n);
    break;
  case Activation::SiLU:
    for (int64_t i = 0; i < n; ++i)
      s.a[i] = s.a[i] / (1.0f + std::exp(-s.a[i]));
    break;
  }
  fc2.apply(s.a.data(), out, m);
  if (b2)
    addBias(out, b2, m, fc2.rows);
}

} // namespace weft::rt
