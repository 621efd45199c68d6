//===- QGemmTest.cpp - Quantized GEMV/GEMM against dequantize + fp32 ------===//
#include "RuntimeTestUtil.h"
#include "weft_rt_linear.h"
#include "weft_rt_parallel.h"
#include "weft_rt_qgemm.h"

#include <gtest/gtest.h>

#include <cstring>

using namespace weft::rt;
using namespace weft::rt::test;

// Small (decode) and large (prefill) M must both equal
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

// Serving compares greedy tokens of micro-batched programs with single
// sequences, so a row's result must not depend on the other rows of the
// batch: row r alone (m = 1), inside m = 5 and inside m = 67 (several row
// chunks, threaded) must be bit-identical, for every weight format and for
// any thread count.
TEST(Linear, RowResultIsBitIdenticalForAnyBatchSize) {
  const int n = 37, r = 2;
  for (int k : {100, 1000}) { // 1000: m = 67 spans two row chunks
    auto w = randomVector(size_t(n) * k, 47);
    auto big = randomVector(size_t(67) * k, 48);
    for (int bits : {32, 16, 8, 5, 4, 3, 2}) {
      Linear lin;
      std::string error;
      ASSERT_TRUE(makeLinear(w.data(), n, k, bits, 32, lin, &error)) << error;
      const float *row = big.data() + size_t(r) * k; // row r of every batch
      std::vector<float> one(n);
      lin.apply(row, one.data(), 1);
      std::vector<float> five(size_t(5) * n), all(size_t(67) * n);
      lin.apply(big.data(), five.data(), 5);
      int before = maxThreads();
      for (int threads : {1, 2}) {
        setMaxThreads(threads);
        lin.apply(big.data(), all.data(), 67);
        for (int j = 0; j < n; ++j) {
          EXPECT_EQ(std::memcmp(&one[j], &five[size_t(r) * n + j], 4), 0)
              << "bits " << bits << " k " << k << " j " << j << ": "
              << one[j] << " vs " << five[size_t(r) * n + j];
          EXPECT_EQ(std::memcmp(&one[j], &all[size_t(r) * n + j], 4), 0)
              << "bits " << bits << " k " << k << " j " << j << " threads "
              << threads << ": " << one[j] << " vs "
              << all[size_t(r) * n + j];
        }
      }
      setMaxThreads(before);
    }
  }
}
