//===- QGemmTest.cpp - Quantized GEMV/GEMM against dequantize + fp32 ------===//
#include "RuntimeTestUtil.h"
#include "weft_rt_linear.h"
#include "weft_rt_qgemm.h"

#include <gtest/gtest.h>

using namespace weft::rt;
using namespace weft::rt::test;

// Both the in-register GEMV (m <= 2) and the tiled GEMM (m > 2) must equal
// a naive GEMM on the dequantized weights, for groups that do not divide K.
TEST(QGemm, MatchesDequantizedNaiveGemm) {
  for (int bits : {3, 4, 8, 2, 5})
    for (int m : {1, 2, 3, 9})
      for (int n : {1, 7, 33})
        for (int k : {1, 7, 33, 65, 172}) {
          auto w = randomVector(size_t(n) * k, 41);
          auto x = randomVector(size_t(m) * k, 42);
          QuantMatrix q;
          ASSERT_TRUE(quantizeRTN(w.data(), n, k, bits, 16, q, nullptr));
          std::vector<float> deq(w.size());
          dequantizeRows(q.view(), 0, n, deq.data());
          std::vector<float> y(size_t(m) * n);
          gemmQuant(x.data(), q.view(), y.data(), m);
          EXPECT_LT(maxRelError(y, naiveGemm(x, deq, m, n, k)), 1e-5)
              << "bits " << bits << " " << m << "x" << n << "x" << k;
        }
}

TEST(QGemm, LargeThreadedShapes) {
  int n = 515, k = 520;
  auto w = randomVector(size_t(n) * k, 43);
  for (int m : {1, 17}) {
    auto x = randomVector(size_t(m) * k, 44);
    for (int bits : {3, 4, 8}) {
      QuantMatrix q;
      ASSERT_TRUE(quantizeRTN(w.data(), n, k, bits, 32, q, nullptr));
      std::vector<float> deq(w.size()), y(size_t(m) * n);
      dequantizeRows(q.view(), 0, n, deq.data());
      gemmQuant(x.data(), q.view(), y.data(), m);
      EXPECT_LT(maxRelError(y, naiveGemm(x, deq, m, n, k)), 1e-5);
    }
  }
}

TEST(Linear, EveryFormatApproximatesFp32) {
  int n = 33, k = 65, m = 3;
  auto w = randomVector(size_t(n) * k, 45);
  auto x = randomVector(size_t(m) * k, 46);
  auto ref = naiveGemm(x, w, m, n, k);
  double previous = 0;
  for (int bits : {32, 16, 8, 4, 3}) {
    Linear lin;
    std::string error;
    ASSERT_TRUE(makeLinear(w.data(), n, k, bits, 32, lin, &error)) << error;
    std::vector<float> y(size_t(m) * n);
    lin.apply(x.data(), y.data(), m);
    double err = maxRelError(y, ref);
    EXPECT_GE(err, previous * 0.5) << bits; // fewer bits, no better
    EXPECT_LT(err, bits == 32 ? 1e-5 : bits == 16 ? 1e-3 : 0.5) << bits;
    previous = err;
  }
  Linear bad;
  std::string error;
  EXPECT_FALSE(makeLinear(w.data(), n, k, 12, 32, bad, &error));
  EXPECT_FALSE(error.empty());
}
