//===- RuntimeTestUtil.h - Helpers for the CPU runtime unit tests ---------===//
//
// Naive reference loops (double accumulation, no blocking) and seeded
// random data, so every optimized kernel is checked against the obvious
// formula.
//
//===----------------------------------------------------------------------===//
#ifndef WEFT_TEST_RUNTIME_TESTUTIL_H
#define WEFT_TEST_RUNTIME_TESTUTIL_H

#include <cmath>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

namespace weft::rt::test {

inline std::vector<float> randomVector(size_t n, uint32_t seed,
                                       float scale = 1.0f) {
  std::mt19937 gen(seed);
  std::normal_distribution<float> dist(0.0f, scale);
  std::vector<float> v(n);
  for (float &x : v)
    x = dist(gen);
  return v;
}

/// y[m][n] = x[m][k] * w[n][k]^T.
inline std::vector<float> naiveGemm(const std::vector<float> &x,
                                    const std::vector<float> &w, int m, int n,
                                    int k) {
  std::vector<float> y(size_t(m) * n);
  for (int t = 0; t < m; ++t)
    for (int j = 0; j < n; ++j) {
      double sum = 0;
      for (int i = 0; i < k; ++i)
        sum += double(x[size_t(t) * k + i]) * w[size_t(j) * k + i];
      y[size_t(t) * n + j] = float(sum);
    }
  return y;
}

/// max |a - b| / max(max |b|, tiny): error relative to the reference's scale.
inline double maxRelError(const std::vector<float> &a,
                          const std::vector<float> &b) {
  double err = 0, scale = 1e-30;
  for (size_t i = 0; i < a.size() && i < b.size(); ++i) {
    err = std::fmax(err, std::fabs(double(a[i]) - b[i]));
    scale = std::fmax(scale, std::fabs(double(b[i])));
  }
  return a.size() == b.size() ? err / scale : INFINITY;
}

/// Odd sizes that exercise remainders of every blocking in the kernels.
inline const std::vector<int> &oddSizes() {
  static const std::vector<int> sizes = {1, 7, 33, 65};
  return sizes;
}

/// Directory for files a test writes.
inline std::string tempPath(const std::string &name) {
  const char *dir = std::getenv("TMPDIR");
  return std::string(dir ? dir : "/tmp") + "/weft-rt-test-" + name;
}

} // namespace weft::rt::test

#endif
