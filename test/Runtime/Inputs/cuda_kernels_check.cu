//===- cuda_kernels_check.cu - CUDA kernels against the CPU runtime -------===//
//
// Runs every CUDA kernel on random data and compares it with the CPU
// runtime (itself tested against naive loops). Prints one line per check
// and "all N CUDA checks passed" at the end; exits non-zero on a mismatch.
//
//===----------------------------------------------------------------------===//
#include "weft_rt_cpu.h"
#include "weft_rt_cuda.h"

#include <cmath>
#include <cstdio>
#include <random>
#include <vector>

namespace cpu = weft::rt;
namespace gpu = weft::rt::cuda;

static int failures = 0, checks = 0;

#define CUDA_OK(expr)                                                          \
  do {                                                                         \
    cudaError_t e_ = (expr);                                                   \
    if (e_ != cudaSuccess) {                                                   \
      std::printf("FAIL %s: %s\n", #expr, cudaGetErrorString(e_));             \
      std::exit(1);                                                            \
    }                                                                          \
  } while (0)

static std::vector<float> randomVector(size_t n, unsigned seed) {
  std::mt19937 gen(seed);
  std::normal_distribution<float> dist(0.0f, 1.0f);
  std::vector<float> v(n);
  for (float &x : v)
    x = dist(gen);
  return v;
}

template <typename T> static T *toDevice(const std::vector<T> &v) {
  T *d = nullptr;
  CUDA_OK(cudaMalloc(&d, v.size() * sizeof(T) + 16));
  CUDA_OK(
      cudaMemcpy(d, v.data(), v.size() * sizeof(T), cudaMemcpyHostToDevice));
  return d;
}

static std::vector<float> toHost(const float *d, size_t n) {
  std::vector<float> v(n);
  CUDA_OK(cudaDeviceSynchronize());
  CUDA_OK(cudaMemcpy(v.data(), d, n * sizeof(float), cudaMemcpyDeviceToHost));
  return v;
}

static void compare(const char *name, const std::vector<float> &got,
                    const std::vector<float> &want, double tolerance) {
  double err = 0, scale = 1e-30;
  for (size_t i = 0; i < want.size(); ++i) {
    err = std::fmax(err, std::fabs(double(got[i]) - want[i]));
    scale = std::fmax(scale, std::fabs(double(want[i])));
  }
  bool ok = err / scale <= tolerance;
  ++checks;
  failures += !ok;
  std::printf("%s %-40s rel err %.3g\n", ok ? "ok  " : "FAIL", name,
              err / scale);
}

int main() {
  cublasHandle_t handle;
  if (cublasCreate(&handle) != CUBLAS_STATUS_SUCCESS) {
    std::printf("FAIL cublasCreate\n");
    return 1;
  }
  const int m = 5, n = 77, k = 172;
  auto x = randomVector(size_t(m) * k, 1), w = randomVector(size_t(n) * k, 2);
  float *dx = toDevice(x), *dy = nullptr;
  CUDA_OK(cudaMalloc(&dy, sizeof(float) * m * n));
  __half *workspace = nullptr, *dequant = nullptr;
  CUDA_OK(cudaMalloc(&workspace, sizeof(__half) * m * k));
  CUDA_OK(cudaMalloc(&dequant, sizeof(__half) * n * k));

  // fp16 weights, GEMV (m = 1, 2) and cuBLAS GEMM (m = 5).
  std::vector<uint16_t> w16(w.size());
  cpu::floatToHalfArray(w.data(), w16.data(), w.size());
  __half *dw16 = reinterpret_cast<__half *>(toDevice(w16));
  for (int rows : {1, 2, m}) {
    std::vector<float> want(size_t(rows) * n);
    cpu::gemmF16(x.data(), w16.data(), want.data(), rows, n, k);
    CUDA_OK(gpu::gemmF16(handle, dx, dw16, dy, rows, n, k, workspace, 0));
    compare(rows <= 2 ? "gemmF16 gemv" : "gemmF16 cublas",
            toHost(dy, want.size()), want, rows <= 2 ? 1e-5 : 2e-3);
  }

  // Quantized weights: the CPU arrays copied unchanged.
  for (int bits : {8, 4, 3}) {
    cpu::QuantMatrix q;
    cpu::quantizeRTN(w.data(), n, k, bits, 32, q, nullptr);
    gpu::QuantWeight dq{toDevice(q.codes),
                        reinterpret_cast<const __half *>(toDevice(q.scales)),
                        toDevice(q.zeros),
                        n,
                        k,
                        bits,
                        32};
    for (int rows : {1, 2, m}) {
      std::vector<float> want(size_t(rows) * n);
      cpu::gemmQuant(x.data(), q.view(), want.data(), rows);
      CUDA_OK(gpu::gemmQuant(handle, dx, dq, dy, rows, dequant, workspace, 0));
      char name[64];
      std::snprintf(name, sizeof name, "gemmQuant int%d m=%d", bits, rows);
      compare(name, toHost(dy, want.size()), want, rows <= 2 ? 1e-5 : 2e-3);
    }
  }

  // Norms and activations.
  auto g = randomVector(size_t(m) * k, 3);
  float *dg = toDevice(g);
  std::vector<float> want(x.size());
  cpu::rmsNorm(x.data(), g.data(), want.data(), m, k, 1e-5f);
  CUDA_OK(gpu::rmsNorm(dx, dg, dy, m, k, 1e-5f, 0));
  compare("rmsNorm", toHost(dy, want.size()), want, 1e-5);
  cpu::layerNorm(x.data(), g.data(), g.data(), want.data(), m, k, 1e-5f);
  CUDA_OK(gpu::layerNorm(dx, dg, dg, dy, m, k, 1e-5f, 0));
  compare("layerNorm", toHost(dy, want.size()), want, 1e-5);
  for (const char *act : {"swiglu", "gelu", "relu", "add"}) {
    want = x;
    float *d = toDevice(x);
    std::string a = act;
    if (a == "swiglu") {
      cpu::swiglu(want.data(), g.data(), want.size());
      CUDA_OK(gpu::swiglu(d, dg, want.size(), 0));
    } else if (a == "gelu") {
      cpu::gelu(want.data(), want.size());
      CUDA_OK(gpu::gelu(d, want.size(), 0));
    } else if (a == "relu") {
      cpu::relu(want.data(), want.size());
      CUDA_OK(gpu::relu(d, want.size(), 0));
    } else {
      cpu::addInPlace(want.data(), g.data(), want.size());
      CUDA_OK(gpu::addInPlace(d, dg, want.size(), 0));
    }
    compare(act, toHost(d, want.size()), want, 1e-5);
  }

  // RoPE, KV cache and GQA attention: prefill 6 rows then decode 1.
  const int heads = 8, kvHeads = 2, hs = 16, dim = heads * hs,
            kvDim = kvHeads * hs, total = 7;
  auto q = randomVector(size_t(total) * dim, 4);
  auto kk = randomVector(size_t(total) * kvDim, 5);
  auto vv = randomVector(size_t(total) * kvDim, 6);
  std::vector<float> ropeWant = q;
  cpu::rope(ropeWant.data(), total, heads, hs, 3);
  float *dq = toDevice(q);
  CUDA_OK(gpu::rope(dq, total, heads, hs, 3, 10000.0f, 0));
  compare("rope", toHost(dq, q.size()), ropeWant, 1e-5);
  CUDA_OK(cudaMemcpy(dq, q.data(), q.size() * 4, cudaMemcpyHostToDevice));
  std::vector<float> keys(size_t(total) * kvDim), values(keys.size()),
      att(q.size());
  float *dk = toDevice(kk), *dv = toDevice(vv), *dkeys = toDevice(keys),
        *dvalues = toDevice(values), *datt = toDevice(att);
  for (auto [pos, rows] : {std::pair<int, int>{0, 6}, {6, 1}}) {
    cpu::kvCacheAppend(keys.data(), values.data(), &kk[pos * kvDim],
                       &vv[pos * kvDim], pos, rows, kvDim);
    cpu::attention(&q[pos * dim], keys.data(), values.data(), &att[pos * dim],
                   rows, pos, heads, kvHeads, hs);
    CUDA_OK(gpu::kvCacheAppend(dkeys, dvalues, dk + pos * kvDim,
                               dv + pos * kvDim, pos, rows, kvDim, 0));
    CUDA_OK(gpu::attention(dq + pos * dim, dkeys, dvalues, datt + pos * dim,
                           rows, pos, heads, kvHeads, hs, 0));
  }
  compare("kvCacheAppend + attention (GQA)", toHost(datt, att.size()), att,
          1e-5);

  // Greedy selection, with a tie that must pick the lower index.
  std::vector<float> logits = randomVector(1000, 7);
  logits[417] = logits[911] = 50.0f;
  int *dresult = nullptr, result = -1;
  CUDA_OK(cudaMalloc(&dresult, sizeof(int)));
  CUDA_OK(gpu::argmax(toDevice(logits), 1000, dresult, 0));
  CUDA_OK(cudaMemcpy(&result, dresult, sizeof(int), cudaMemcpyDeviceToHost));
  compare("argmax", {float(result)}, {float(cpu::argmax(logits.data(), 1000))},
          0.0);

  if (failures) {
    std::printf("%d of %d CUDA checks failed\n", failures, checks);
    return 1;
  }
  std::printf("all %d CUDA checks passed\n", checks);
  return 0;
}
