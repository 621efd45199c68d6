// Warp shuffles (`__shfl_down_sync`, as gpu-reduce-blocks emits them) under
// the CUDA emulation: each lane gets the value `delta` lanes on within its
// segment of `width` lanes, else its own, in 2-D blocks whose warps span
// rows; a warp-then-block sum; and the shuffles the emulation cannot run
// (partial masks, partial warps, divergent lanes), which must stop the
// program. Built by nvcc for real GPUs too.
#include "weft_cuda.h"

#include <string.h>

enum { kX = 16, kY = 4, kThreads = kX * kY };

// out[t] = the shuffled value of thread t (linear in the block), for ints
// and doubles.
__global__ void shuffled(int delta, int width, int *outInt, double *outDouble) {
  int t = threadIdx.y * blockDim.x + threadIdx.x;
  int v = 1000 * (int)blockIdx.x + t;
  double d = 0.5 * v;
  outInt[blockIdx.x * kThreads + t] = __shfl_down_sync(0xffffffffu, v, delta, width);
  outDouble[blockIdx.x * kThreads + t] =
      __shfl_down_sync(0xffffffffu, d, delta, width);
}

// *sum += x[0..n): lanes combine in shuffles, warps through shared memory.
__global__ void warpSum(const long long *x, int n, long long *sum) {
  __shared__ long long warps[kThreads / 32];
  int t = threadIdx.y * blockDim.x + threadIdx.x;
  int i = blockIdx.x * kThreads + t;
  long long v = i < n ? x[i] : 0;
  for (int offset = 16; offset > 0; offset /= 2)
    v += __shfl_down_sync(0xffffffffu, v, offset, 32);
  if (t % 32 == 0)
    warps[t / 32] = v;
  __syncthreads();
  if (t == 0) {
    long long s = 0;
    for (int w = 0; w < kThreads / 32; ++w)
      s += warps[w];
    atomicAdd((unsigned long long *)sum, (unsigned long long)s);
  }
}

__global__ void partialMask(int *out) {
  out[threadIdx.x] = __shfl_down_sync(0xffffu, (int)threadIdx.x, 1, 32);
}

__global__ void divergent(int *out) {
  int v = threadIdx.x;
  if (threadIdx.x < 16)
    v = __shfl_down_sync(0xffffffffu, v, 1, 32);
  out[threadIdx.x] = v;
}

static int failures;
static void expect(bool ok, const char *what) {
  printf("%s: %s\n", what, ok ? "ok" : "FAILED");
  failures += !ok;
}

static void checkShuffled(int delta, int width) {
  const int blocks = 3, total = blocks * kThreads;
  int *dInt = weft_cuda_alloc<int>(total);
  double *dDouble = weft_cuda_alloc<double>(total);
  WEFT_CUDA_LAUNCH(shuffled, blocks, 1, 1, kX, kY, 1, delta, width, dInt,
                   dDouble);
  int outInt[total];
  double outDouble[total];
  WEFT_CUDA_CHECK(cudaMemcpy(outInt, dInt, sizeof outInt, cudaMemcpyDeviceToHost));
  WEFT_CUDA_CHECK(
      cudaMemcpy(outDouble, dDouble, sizeof outDouble, cudaMemcpyDeviceToHost));
  bool ok = true;
  for (int b = 0; b < blocks; ++b)
    for (int t = 0; t < kThreads; ++t) {
      int lane = t % 32;
      int from = lane % width + delta < width ? t + delta : t;
      ok &= outInt[b * kThreads + t] == 1000 * b + from;
      ok &= outDouble[b * kThreads + t] == 0.5 * (1000 * b + from);
    }
  char what[64];
  snprintf(what, sizeof what, "shuffle down %d, width %d", delta, width);
  expect(ok, what);
  weft_cuda_free(dInt);
  weft_cuda_free(dDouble);
}

static void checkWarpSum() {
  const int n = 1000;
  long long x[n], expected = 0, sum = 0;
  for (int i = 0; i < n; ++i)
    expected += x[i] = (long long)i * i - 7;
  long long *dx = weft_cuda_alloc<long long>(n);
  long long *dSum = weft_cuda_alloc<long long>(1);
  WEFT_CUDA_CHECK(cudaMemcpy(dx, x, sizeof x, cudaMemcpyHostToDevice));
  WEFT_CUDA_CHECK(cudaMemcpy(dSum, &sum, sizeof sum, cudaMemcpyHostToDevice));
  WEFT_CUDA_LAUNCH(warpSum, (n + kThreads - 1) / kThreads, 1, 1, kX, kY, 1, dx,
                   n, dSum);
  WEFT_CUDA_CHECK(cudaMemcpy(&sum, dSum, sizeof sum, cudaMemcpyDeviceToHost));
  expect(sum == expected, "warp shuffles + shared memory sum");
  weft_cuda_free(dx);
  weft_cuda_free(dSum);
}

int main(int argc, char **argv) {
  int *d = weft_cuda_alloc<int>(32);
  if (argc > 1 && !strcmp(argv[1], "partial-mask"))
    WEFT_CUDA_LAUNCH(partialMask, 1, 1, 1, 32, 1, 1, d);
  else if (argc > 1 && !strcmp(argv[1], "partial-warp"))
    WEFT_CUDA_LAUNCH(divergent, 1, 1, 1, 16, 1, 1, d);
  else if (argc > 1 && !strcmp(argv[1], "divergent"))
    WEFT_CUDA_LAUNCH(divergent, 1, 1, 1, 32, 1, 1, d);
  if (argc > 1) {
    weft_cuda_sync();
    printf("%s: not rejected\n", argv[1]);
    return 0;
  }
  weft_cuda_free(d);
  checkShuffled(16, 32);
  checkShuffled(1, 32);
  checkShuffled(3, 8);
  checkShuffled(2, 4);
  checkWarpSum();
  printf("%d failures\n", failures);
  return failures != 0;
}
