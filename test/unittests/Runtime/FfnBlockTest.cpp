//===- FfnBlockTest.cpp - Whole FFN blocks against naive formulas ---------===//
#include "RuntimeTestUtil.h"
#include "weft_rt_ffn_block.h"

#include <gtest/gtest.h>

using namespace weft::rt;
using namespace weft::rt::test;

namespace {
Linear linear(const std::vector<float> &w, int rows, int cols) {
  Linear l;
  EXPECT_TRUE(makeLinear(w.data(), rows, cols, 32, 32, l, nullptr));
  return l;
}

double silu(double v) { return v / (1 + std::exp(-v)); }
double gelu(double v) {
  return 0.5 * v *
         (1 + std::tanh(std::sqrt(2 / M_PI) * (v + 0.044715 * v * v * v)));
}
} // namespace

TEST(FfnBlock, GatedSwiGLUMatchesFormula) {
  const int dim = 7, hidden = 33, m = 3;
  auto x = randomVector(size_t(m) * dim, 101);
  auto wg = randomVector(size_t(hidden) * dim, 102);
  auto wu = randomVector(size_t(hidden) * dim, 103);
  auto wd = randomVector(size_t(dim) * hidden, 104);
  auto g = naiveGemm(x, wg, m, hidden, dim),
       u = naiveGemm(x, wu, m, hidden, dim);
  for (size_t i = 0; i < g.size(); ++i)
    g[i] = float(silu(g[i]) * u[i]);
  auto want = naiveGemm(g, wd, m, dim, hidden);
  FfnScratch scratch(hidden, m);
  std::vector<float> out(size_t(m) * dim);
  ffnGated(linear(wg, hidden, dim), linear(wu, hidden, dim),
           linear(wd, dim, hidden), x.data(), out.data(), m, scratch);
  EXPECT_LT(maxRelError(out, want), 1e-5);
}

TEST(FfnBlock, PlainWithBiasesMatchesFormula) {
  const int dim = 9, hidden = 65, m = 2;
  auto x = randomVector(size_t(m) * dim, 105);
  auto w1 = randomVector(size_t(hidden) * dim, 106);
  auto w2 = randomVector(size_t(dim) * hidden, 107);
  auto b1 = randomVector(hidden, 108), b2 = randomVector(dim, 109);
  for (Activation act : {Activation::GELU, Activation::ReLU, Activation::SiLU})
    for (bool biases : {true, false}) {
      auto h = naiveGemm(x, w1, m, hidden, dim);
      for (size_t i = 0; i < h.size(); ++i) {
        double v = h[i] + (biases ? b1[i % hidden] : 0.0f);
        h[i] = float(act == Activation::GELU   ? gelu(v)
                     : act == Activation::ReLU ? std::fmax(v, 0.0)
                                               : silu(v));
      }
      auto want = naiveGemm(h, w2, m, dim, hidden);
      if (biases)
        for (size_t i = 0; i < want.size(); ++i)
          want[i] += b2[i % dim];
      FfnScratch scratch(hidden, m);
      std::vector<float> out(size_t(m) * dim);
      ffnPlain(linear(w1, hidden, dim), biases ? b1.data() : nullptr,
               linear(w2, dim, hidden), biases ? b2.data() : nullptr, act,
               x.data(), out.data(), m, scratch);
      EXPECT_LT(maxRelError(out, want), 1e-5)
          << int(act) << " biases " << biases;
    }
}
