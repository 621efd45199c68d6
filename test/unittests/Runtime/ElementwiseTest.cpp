//===- ElementwiseTest.cpp - Norms, RoPE, activations, softmax ------------===//
#include "RuntimeTestUtil.h"
#include "weft_rt_ffn.h"
#include "weft_rt_norm.h"
#include "weft_rt_rope.h"

#include <gtest/gtest.h>

using namespace weft::rt;
using namespace weft::rt::test;

TEST(Norm, RmsNormMatchesFormula) {
  for (int n : oddSizes()) {
    int m = 3;
    auto x = randomVector(size_t(m) * n, 11);
    auto w = randomVector(n, 12);
    std::vector<float> out(x.size()), ref(x.size());
    for (int t = 0; t < m; ++t) {
      double ss = 0;
      for (int i = 0; i < n; ++i)
        ss += double(x[t * n + i]) * x[t * n + i];
      double inv = 1.0 / std::sqrt(ss / n + 1e-5);
      for (int i = 0; i < n; ++i)
        ref[t * n + i] = float(w[i] * x[t * n + i] * inv);
    }
    rmsNorm(x.data(), w.data(), out.data(), m, n, 1e-5f);
    EXPECT_LT(maxRelError(out, ref), 1e-5) << n;
    rmsNorm(x.data(), w.data(), x.data(), m, n, 1e-5f); // in place
    EXPECT_LT(maxRelError(x, ref), 1e-5) << n;
  }
}

TEST(Norm, LayerNormMatchesFormula) {
  for (int n : oddSizes()) {
    auto x = randomVector(2 * size_t(n), 13, 3.0f);
    auto w = randomVector(n, 14);
    auto b = randomVector(n, 15);
    std::vector<float> out(x.size()), ref(x.size());
    for (int t = 0; t < 2; ++t) {
      double mean = 0, var = 0;
      for (int i = 0; i < n; ++i)
        mean += x[t * n + i];
      mean /= n;
      for (int i = 0; i < n; ++i)
        var += (x[t * n + i] - mean) * (x[t * n + i] - mean);
      double inv = 1.0 / std::sqrt(var / n + 1e-5);
      for (int i = 0; i < n; ++i)
        ref[t * n + i] = float((x[t * n + i] - mean) * inv * w[i] + b[i]);
    }
    layerNorm(x.data(), w.data(), b.data(), out.data(), 2, n, 1e-5f);
    EXPECT_LT(maxRelError(out, ref), 1e-5) << n;
  }
}

TEST(Softmax, SumsToOneAndIsStableForLargeInputs) {
  std::vector<float> x = {1000.0f, 1001.0f, 999.0f, -1e30f};
  softmax(x.data(), int(x.size()));
  double e = std::exp(1.0), sum = 1 + e + 1 / e;
  EXPECT_NEAR(x[0], 1 / sum, 1e-6);
  EXPECT_NEAR(x[1], e / sum, 1e-6);
  EXPECT_NEAR(x[2], 1 / e / sum, 1e-6);
  EXPECT_EQ(x[3], 0.0f);
}

TEST(Rope, RotatesPairsLikeLlama2c) {
  int heads = 3, headSize = 6, m = 2, pos = 5;
  auto x = randomVector(size_t(m) * heads * headSize, 16);
  auto ref = x;
  for (int t = 0; t < m; ++t)
    for (int i = 0; i < heads * headSize; i += 2) {
      int d = i % headSize;
      double freq = 1.0 / std::pow(10000.0, double(d) / headSize);
      double angle = (pos + t) * freq;
      float *v = &ref[size_t(t) * heads * headSize + i];
      double a = v[0], b = v[1];
      v[0] = float(a * std::cos(angle) - b * std::sin(angle));
      v[1] = float(a * std::sin(angle) + b * std::cos(angle));
    }
  rope(x.data(), m, heads, headSize, pos);
  EXPECT_LT(maxRelError(x, ref), 1e-5);
}

TEST(Rope, PositionZeroIsIdentity) {
  auto x = randomVector(16, 17);
  auto before = x;
  rope(x.data(), 1, 2, 8, 0);
  EXPECT_EQ(x, before);
}

TEST(Ffn, ActivationsMatchFormulas) {
  for (int n : oddSizes()) {
    auto g = randomVector(n, 18, 3.0f), u = randomVector(n, 19);
    auto sw = g, ge = g, re = g;
    swiglu(sw.data(), u.data(), n);
    gelu(ge.data(), n);
    relu(re.data(), n);
    for (int i = 0; i < n; ++i) {
      double v = g[i];
      EXPECT_NEAR(sw[i], v / (1 + std::exp(-v)) * u[i], 1e-5);
      double gl =
          0.5 * v *
          (1 + std::tanh(std::sqrt(2 / M_PI) * (v + 0.044715 * v * v * v)));
      EXPECT_NEAR(ge[i], gl, 1e-5);
      EXPECT_EQ(re[i], v > 0 ? float(v) : 0.0f);
    }
    auto a = g;
    addInPlace(a.data(), u.data(), n);
    for (int i = 0; i < n; ++i)
      EXPECT_EQ(a[i], g[i] + u[i]);
  }
}
