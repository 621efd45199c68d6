// Hand-written kernels for runtime/cuda/hpc: shared-memory tiles with
// barriers, block reduction trees with atomics, 3-D indices and box copies,
// each checked against the host. Built by nvcc for real GPUs and by
// `g++ -x c++ -fopenmp -DWEFT_CUDA_EMULATE` for the emulation; the error
// cases run when named on the command line and must stop the program.
#include "weft_cuda.h"

#include <math.h>

enum { kTile = 16, kReduceBlock = 128 };

// C = A * B (n x n), through kTile x kTile tiles of A and B in shared memory.
__global__ void matmulTiled(const double *A, const double *B, double *C,
                            int n) {
  __shared__ double a[kTile][kTile];
  __shared__ double b[kTile][kTile];
  int row = blockIdx.y * kTile + threadIdx.y;
  int col = blockIdx.x * kTile + threadIdx.x;
  double sum = 0.0;
  for (int t = 0; t < n; t += kTile) {
    int ac = t + threadIdx.x, br = t + threadIdx.y;
    a[threadIdx.y][threadIdx.x] = row < n && ac < n ? A[row * n + ac] : 0.0;
    b[threadIdx.y][threadIdx.x] = br < n && col < n ? B[br * n + col] : 0.0;
    __syncthreads();
    for (int k = 0; k < kTile; ++k)
      sum += a[threadIdx.y][k] * b[k][threadIdx.x];
    __syncthreads();
  }
  if (row < n && col < n)
    C[row * n + col] = sum;
}

// *sum += x[0..n) (a tree over the block in shared memory, then one atomic
// per block); *count += the number of elements over `threshold`; *largest =
// max over the integer parts.
__global__ void reduceBlocks(const double *x, int n, double threshold,
                             double *sum, int *count, int *largest) {
  __shared__ double partial[kReduceBlock];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  double v = i < n ? x[i] : 0.0;
  partial[threadIdx.x] = v;
  if (i < n && v > threshold)
    atomicAdd(count, 1);
  if (i < n)
    atomicMax(largest, (int)v);
  __syncthreads();
  for (int stride = blockDim.x / 2; stride > 0; stride /= 2) {
    if ((int)threadIdx.x < stride)
      partial[threadIdx.x] += partial[threadIdx.x + stride];
    __syncthreads();
  }
  if (threadIdx.x == 0)
    atomicAdd(sum, partial[0]);
}

// out[global linear id] = that id, over a 3-D grid of 3-D blocks.
__global__ void linearIds(long long *out) {
  long long x = blockIdx.x * blockDim.x + threadIdx.x;
  long long y = blockIdx.y * blockDim.y + threadIdx.y;
  long long z = blockIdx.z * blockDim.z + threadIdx.z;
  long long width = (long long)gridDim.x * blockDim.x;
  long long height = (long long)gridDim.y * blockDim.y;
  long long id = (z * height + y) * width + x;
  out[id] = id;
}

// A barrier only some threads reach (those past `n` return first): on a
// GPU undefined, in the emulation an error.
__global__ void divergentBarrier(double *x, int n) {
  __shared__ double s[64];
  int i = threadIdx.x;
  if (i >= n)
    return;
  s[i] = x[i];
  __syncthreads();
  x[i] = s[n - 1 - i];
}

// Each thread reads its neighbour's element of shared memory without a
// barrier (a missing __syncthreads): the emulation runs the threads of even
// blocks in ascending order and of odd ones in descending order, so the
// neighbour has written it in block 0 and not yet in block 1.
__global__ void missingBarrier(int *out) {
  __shared__ int s[32];
  int t = threadIdx.x;
  s[t] = blockIdx.x * 100 + t;
  out[blockIdx.x * 32 + t] = t > 0 ? s[t - 1] : -1;
}

// Barriers at which the threads vote: three in a row, each counted apart
// (a block of 96 threads, a third of which vote yes in the first; below
// 50 times the block's index in the second; below its index in the third).
__global__ void barrierVotes(int *out) {
  int t = threadIdx.x, b = blockIdx.x;
  int count = __syncthreads_count(t % 3 == 0);
  int all = __syncthreads_and(t < b * 50);
  int any = __syncthreads_or(t < b);
  if (t == 0) {
    out[b * 3] = count;
    out[b * 3 + 1] = all != 0;
    out[b * 3 + 2] = any != 0;
  }
}

__global__ void scale(double *x, int n, double factor) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    x[i] *= factor;
}

static int failures = 0;
static void expect(bool ok, const char *what) {
  printf("%s: %s\n", what, ok ? "ok" : "WRONG");
  failures += !ok;
}

static void checkMatmul() {
  const int n = 45; // not a multiple of the tile
  double *A = (double *)malloc(sizeof(double) * n * n);
  double *B = (double *)malloc(sizeof(double) * n * n);
  double *C = (double *)malloc(sizeof(double) * n * n);
  for (int i = 0; i < n * n; ++i) {
    A[i] = (i % 7) * 0.25 - 0.5;
    B[i] = (i % 5) * 0.125 + 1.0;
  }
  double *dA = weft_cuda_alloc<double>(n * n);
  double *dB = weft_cuda_alloc<double>(n * n);
  double *dC = weft_cuda_alloc<double>(n * n);
  WEFT_CUDA_CHECK(cudaMemcpy(dA, A, sizeof(double) * n * n,
                             cudaMemcpyHostToDevice));
  WEFT_CUDA_CHECK(cudaMemcpy(dB, B, sizeof(double) * n * n,
                             cudaMemcpyHostToDevice));
  int blocks = (n + kTile - 1) / kTile;
  WEFT_CUDA_LAUNCH(matmulTiled, blocks, blocks, 1, kTile, kTile, 1, dA, dB, dC,
                   n);
  WEFT_CUDA_CHECK(cudaMemcpy(C, dC, sizeof(double) * n * n,
                             cudaMemcpyDeviceToHost));
  double worst = 0.0;
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j) {
      double ref = 0.0;
      for (int k = 0; k < n; ++k)
        ref += A[i * n + k] * B[k * n + j];
      worst = fmax(worst, fabs(C[i * n + j] - ref) / fmax(1.0, fabs(ref)));
    }
  expect(worst < 1e-12, "matmul with shared-memory tiles");
  weft_cuda_free(dA);
  weft_cuda_free(dB);
  weft_cuda_free(dC);
  free(A);
  free(B);
  free(C);
}

static void checkReduction() {
  const int n = 1000; // 8 blocks, the last one partly empty
  double *x = (double *)malloc(sizeof(double) * n);
  double refSum = 0.0;
  int refCount = 0, refLargest = -1;
  for (int i = 0; i < n; ++i) {
    x[i] = (i * 37 % 101) * 0.5;
    refSum += x[i];
    refCount += x[i] > 25.0;
    refLargest = (int)x[i] > refLargest ? (int)x[i] : refLargest;
  }
  double *dx = weft_cuda_alloc<double>(n);
  double *dSum = weft_cuda_alloc<double>(1);
  int *dCount = weft_cuda_alloc<int>(1);
  int *dLargest = weft_cuda_alloc<int>(1);
  double zero = 0.0;
  int izero = 0, minusOne = -1;
  WEFT_CUDA_CHECK(cudaMemcpy(dx, x, sizeof(double) * n,
                             cudaMemcpyHostToDevice));
  WEFT_CUDA_CHECK(
      cudaMemcpy(dSum, &zero, sizeof zero, cudaMemcpyHostToDevice));
  WEFT_CUDA_CHECK(
      cudaMemcpy(dCount, &izero, sizeof izero, cudaMemcpyHostToDevice));
  WEFT_CUDA_CHECK(cudaMemcpy(dLargest, &minusOne, sizeof minusOne,
                             cudaMemcpyHostToDevice));
  WEFT_CUDA_LAUNCH(reduceBlocks, (n + kReduceBlock - 1) / kReduceBlock, 1, 1,
                   kReduceBlock, 1, 1, dx, n, 25.0, dSum, dCount, dLargest);
  double sum;
  int count, largest;
  WEFT_CUDA_CHECK(cudaMemcpy(&sum, dSum, sizeof sum, cudaMemcpyDeviceToHost));
  WEFT_CUDA_CHECK(
      cudaMemcpy(&count, dCount, sizeof count, cudaMemcpyDeviceToHost));
  WEFT_CUDA_CHECK(
      cudaMemcpy(&largest, dLargest, sizeof largest, cudaMemcpyDeviceToHost));
  expect(fabs(sum - refSum) <= 1e-9 * refSum, "block tree sum + atomicAdd");
  expect(count == refCount, "atomicAdd count");
  expect(largest == refLargest, "atomicMax");
  weft_cuda_free(dx);
  weft_cuda_free(dSum);
  weft_cuda_free(dCount);
  weft_cuda_free(dLargest);
  free(x);
}

static void checkIndices() {
  const int total = (3 * 4) * (2 * 3) * (2 * 2);
  long long *d = weft_cuda_alloc<long long>(total);
  WEFT_CUDA_LAUNCH(linearIds, 3, 2, 2, 4, 3, 2, d);
  long long out[total];
  WEFT_CUDA_CHECK(cudaMemcpy(out, d, sizeof out, cudaMemcpyDeviceToHost));
  bool ok = true;
  for (int i = 0; i < total; ++i)
    ok &= out[i] == i;
  expect(ok, "3-D grid of 3-D blocks");
  weft_cuda_free(d);
}

static void checkBoxCopies() {
  // A [4][5][6] array: the box [1,3) x [1,4) x [2,5) goes to the device,
  // is scaled there, and comes back; nothing else may change.
  enum { E0 = 4, E1 = 5, E2 = 6, N = E0 * E1 * E2 };
  double host[N], expected[N];
  for (int i = 0; i < N; ++i)
    host[i] = expected[i] = i;
  for (int i = 1; i < 3; ++i)
    for (int j = 1; j < 4; ++j)
      for (int k = 2; k < 5; ++k)
        expected[(i * E1 + j) * E2 + k] *= 3.0;
  double *d = weft_cuda_alloc<double>(N);
  WEFT_CUDA_CHECK(cudaMemset(d, 0, sizeof(double) * N));
  weft_cuda_copy_box(d, host, sizeof(double), E1, E2, 1, 3, 1, 4, 2, 5, 1);
  WEFT_CUDA_LAUNCH(scale, (N + 63) / 64, 1, 1, 64, 1, 1, d, (int)N, 3.0);
  weft_cuda_copy_box(host, d, sizeof(double), E1, E2, 1, 3, 1, 4, 2, 5, 0);
  // Whole planes: one contiguous copy each way.
  weft_cuda_copy_box(d, host, sizeof(double), E1, E2, 2, 4, 0, E1, 0, E2, 1);
  weft_cuda_copy_box(host, d, sizeof(double), E1, E2, 2, 4, 0, E1, 0, E2, 0);
  // Empty boxes copy nothing.
  weft_cuda_copy_box(host, d, sizeof(double), E1, E2, 3, 3, 0, E1, 0, E2, 0);
  bool ok = true;
  for (int i = 0; i < N; ++i)
    ok &= host[i] == expected[i];
  expect(ok, "box copies");
  // A grid without blocks launches nothing.
  WEFT_CUDA_LAUNCH(scale, 0, 1, 1, 64, 1, 1, d, (int)N, 0.0);
  weft_cuda_sync();
  weft_cuda_free(d);
}

static void checkVotes() {
  int *d = weft_cuda_alloc<int>(9);
  WEFT_CUDA_LAUNCH(barrierVotes, 3, 1, 1, 96, 1, 1, d);
  int out[9];
  WEFT_CUDA_CHECK(cudaMemcpy(out, d, sizeof out, cudaMemcpyDeviceToHost));
  weft_cuda_free(d);
  const int expected[9] = {32, 0, 0, 32, 0, 1, 32, 1, 1};
  bool ok = true;
  for (int i = 0; i < 9; ++i)
    ok &= out[i] == expected[i];
  expect(ok, "__syncthreads_count/and/or");
}

#ifdef WEFT_CUDA_EMULATE
static void checkThreadOrder() {
  int *d = weft_cuda_alloc<int>(64);
  WEFT_CUDA_LAUNCH(missingBarrier, 2, 1, 1, 32, 1, 1, d);
  int out[64];
  WEFT_CUDA_CHECK(cudaMemcpy(out, d, sizeof out, cudaMemcpyDeviceToHost));
  weft_cuda_free(d);
  // Block 0 sees its neighbours' values; block 1 the values block 0 left.
  bool ascending = true, descending = true;
  for (int t = 1; t < 32; ++t) {
    ascending &= out[t] == t - 1;
    descending &= out[32 + t] == t - 1;
  }
  expect(ascending && descending, "threads of odd blocks in descending order");
}
#endif

// Each error case stops the program with a message (exit status 1).
static void runErrorCase(const char *name) {
  double *d = weft_cuda_alloc<double>(4);
  double host[4] = {0, 0, 0, 0};
  if (!strcmp(name, "block-too-large"))
    WEFT_CUDA_LAUNCH(scale, 1, 1, 1, 2048, 1, 1, d, 4, 1.0);
  else if (!strcmp(name, "grid-too-large"))
    WEFT_CUDA_LAUNCH(scale, 1, 70000, 1, 32, 1, 1, d, 4, 1.0);
  else if (!strcmp(name, "block-of-128"))
    WEFT_CUDA_LAUNCH(scale, 1, 1, 1, 128, 1, 1, d, 4, 1.0);
  else if (!strcmp(name, "host-pointer"))
    WEFT_CUDA_LAUNCH(scale, 1, 1, 1, 4, 1, 1, host, 4, 1.0);
  else if (!strcmp(name, "copy-direction"))
    WEFT_CUDA_CHECK(
        cudaMemcpy(d, host, sizeof host, cudaMemcpyDeviceToHost));
  else if (!strcmp(name, "copy-overrun"))
    WEFT_CUDA_CHECK(
        cudaMemcpy(d, host, 2 * sizeof host, cudaMemcpyHostToDevice));
  else if (!strcmp(name, "free-host"))
    weft_cuda_free(host);
  else if (!strcmp(name, "divergent-barrier"))
    WEFT_CUDA_LAUNCH(divergentBarrier, 1, 1, 1, 64, 1, 1, d, 4);
  weft_cuda_sync();
  printf("%s: not rejected\n", name);
}

int main(int argc, char **argv) {
  if (argc > 1) {
    runErrorCase(argv[1]);
    return 0;
  }
  checkMatmul();
  checkReduction();
  checkIndices();
  checkBoxCopies();
  checkVotes();
#ifdef WEFT_CUDA_EMULATE
  checkThreadOrder(); // the emulation's order; a GPU's is its own
#endif
  printf("%d failures\n", failures);
  return failures != 0;
}
