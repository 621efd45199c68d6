// The vendor library's matrix product, for scripts/gpu-check.sh: issue 18
// measures weft's gemm against cuBLAS on the same GPU, in the same run.
//
//   gpu-check-cublas NI NJ NK [CALLS]
//
// Times CALLS (default 10) calls of cublasDgemm, C (NI x NJ) = alpha A (NI x
// NK) B (NK x NJ) + beta C, doubles as PolyBench's gemm, after one call
// that is not timed, with CUDA events around the calls (device time, no
// copies), and prints one line:
//
//   cublas dgemm NI NJ NK: SECONDS s a call, GFLOPS GFLOP/s
//
// (2 NI NJ NK flops a call.) Exits 1 with a message on any CUDA or cuBLAS
// error, 2 on bad arguments.
#include <cublas_v2.h>
#include <cuda_runtime.h>

#include <cstdio>
#include <cstdlib>

static void check(cudaError_t e, const char *what) {
  if (e != cudaSuccess) {
    std::fprintf(stderr, "gpu-check-cublas: %s: %s\n", what,
                 cudaGetErrorString(e));
    std::exit(1);
  }
}

static void check(cublasStatus_t s, const char *what) {
  if (s != CUBLAS_STATUS_SUCCESS) {
    std::fprintf(stderr, "gpu-check-cublas: %s: cuBLAS status %d\n", what,
                 (int)s);
    std::exit(1);
  }
}

// Deterministic operands, as PolyBench's init_array does on the host.
__global__ void fill(double *a, long n, double scale) {
  long i = (long)blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    a[i] = (double)(i % 97) * scale;
}

static long positive(const char *text) {
  char *end = nullptr;
  long v = std::strtol(text, &end, 10);
  if (!*text || *end || v < 1 || v > 1000000) {
    std::fprintf(stderr, "gpu-check-cublas: '%s' is not a size from 1 to "
                         "1000000\n", text);
    std::exit(2);
  }
  return v;
}

int main(int argc, char **argv) {
  if (argc < 4 || argc > 5) {
    std::fprintf(stderr, "usage: gpu-check-cublas NI NJ NK [CALLS]\n");
    return 2;
  }
  long ni = positive(argv[1]), nj = positive(argv[2]), nk = positive(argv[3]);
  long calls = argc == 5 ? positive(argv[4]) : 10;
  double *a, *b, *c;
  check(cudaMalloc(&a, sizeof(double) * ni * nk), "cudaMalloc");
  check(cudaMalloc(&b, sizeof(double) * nk * nj), "cudaMalloc");
  check(cudaMalloc(&c, sizeof(double) * ni * nj), "cudaMalloc");
  fill<<<(ni * nk + 255) / 256, 256>>>(a, ni * nk, 1.0 / 97);
  fill<<<(nk * nj + 255) / 256, 256>>>(b, nk * nj, 2.0 / 97);
  fill<<<(ni * nj + 255) / 256, 256>>>(c, ni * nj, 0.5 / 97);
  check(cudaGetLastError(), "fill");
  cublasHandle_t handle;
  check(cublasCreate(&handle), "cublasCreate");
  const double alpha = 1.5, beta = 1.2;
  // Row-major C = A B is column-major C^T = B^T A^T: B first.
  auto call = [&] {
    check(cublasDgemm(handle, CUBLAS_OP_N, CUBLAS_OP_N, (int)nj, (int)ni,
                      (int)nk, &alpha, b, (int)nj, a, (int)nk, &beta, c,
                      (int)nj),
          "cublasDgemm");
  };
  call();
  check(cudaDeviceSynchronize(), "the first call");
  cudaEvent_t start, stop;
  check(cudaEventCreate(&start), "cudaEventCreate");
  check(cudaEventCreate(&stop), "cudaEventCreate");
  check(cudaEventRecord(start), "cudaEventRecord");
  for (long k = 0; k < calls; ++k)
    call();
  check(cudaEventRecord(stop), "cudaEventRecord");
  check(cudaEventSynchronize(stop), "the timed calls");
  float ms = 0;
  check(cudaEventElapsedTime(&ms, start, stop), "cudaEventElapsedTime");
  double seconds = ms / 1e3 / calls;
  double gflops = 2.0 * ni * nj * nk / seconds / 1e9;
  std::printf("cublas dgemm %ld %ld %ld: %.6g s a call, %.6g GFLOP/s\n", ni,
              nj, nk, seconds, gflops);
  cublasDestroy(handle);
  cudaFree(a);
  cudaFree(b);
  cudaFree(c);
  return 0;
}
