//===- GemmTest.cpp - fp32 / fp16 GEMM against a naive loop ---------------===//
#include "RuntimeTestUtil.h"
#include "weft_rt_gemm.h"
#include "weft_rt_half.h"

#include <gtest/gtest.h>

using namespace weft::rt;
using namespace weft::rt::test;

TEST(Gemm, F32MatchesNaiveOnOddSizes) {
  for (int m : {1, 2, 5})
    for (int n : oddSizes())
      for (int k : oddSizes()) {
        auto x = randomVector(size_t(m) * k, 1);
        auto w = randomVector(size_t(n) * k, 2);
        std::vector<float> y(size_t(m) * n);
        gemmF32(x.data(), w.data(), y.data(), m, n, k);
        EXPECT_LT(maxRelError(y, naiveGemm(x, w, m, n, k)), 1e-5)
            << m << "x" << n << "x" << k;
      }
}

TEST(Gemm, F32LargeEnoughToRunThreaded) {
  int m = 3, n = 515, k = 257;
  auto x = randomVector(size_t(m) * k, 3);
  auto w = randomVector(size_t(n) * k, 4);
  std::vector<float> y(size_t(m) * n);
  gemmF32(x.data(), w.data(), y.data(), m, n, k);
  EXPECT_LT(maxRelError(y, naiveGemm(x, w, m, n, k)), 1e-5);
}

TEST(Gemm, StridedWritesOnlyItsSlice) {
  int m = 3, n = 7, k = 9, ldy = 12;
  auto x = randomVector(size_t(m) * k, 5);
  auto w = randomVector(size_t(n) * k, 6);
  std::vector<float> y(size_t(m) * ldy, -42.0f);
  gemmF32Strided(x.data(), w.data(), y.data(), m, n, k, ldy);
  auto ref = naiveGemm(x, w, m, n, k);
  for (int t = 0; t < m; ++t)
    for (int j = 0; j < ldy; ++j) {
      float got = y[size_t(t) * ldy + j];
      if (j < n)
        EXPECT_NEAR(got, ref[size_t(t) * n + j], 1e-4);
      else
        EXPECT_EQ(got, -42.0f);
    }
}

TEST(Gemm, F16MatchesNaiveOnRoundedWeights) {
  for (int m : {1, 4})
    for (int n : oddSizes())
      for (int k : oddSizes()) {
        auto x = randomVector(size_t(m) * k, 7);
        auto w = randomVector(size_t(n) * k, 8);
        std::vector<uint16_t> wh(w.size());
        floatToHalfArray(w.data(), wh.data(), w.size());
        std::vector<float> rounded(w.size());
        halfToFloatArray(wh.data(), rounded.data(), w.size());
        std::vector<float> y(size_t(m) * n);
        gemmF16(x.data(), wh.data(), y.data(), m, n, k);
        EXPECT_LT(maxRelError(y, naiveGemm(x, rounded, m, n, k)), 1e-5);
      }
}
