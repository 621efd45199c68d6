// RUN: bash %S/../run-seq.sh %s %t
// RUN: WEFT_TARGET=cuda WEFT_RTOL=1e-12 bash %S/../run-seq.sh %s %t.cuda
// RUN: WEFT_TARGET=cuda WEFT_RTOL=1e-12 bash %S/../run-seq.sh %s %t.cuda-odd -DN=97 -DM=9
// RUN: WEFT_TARGET=cuda WEFT_FLAGS=--fp-reductions=ordered bash %S/../run-seq.sh %s %t.cuda-ordered
// RUN: WEFT_TARGET=cuda WEFT_RTOL=1e-12 WEFT_FLAGS=--gpu=T4 bash %S/../run-seq.sh %s %t.cuda-stride -DM=700 -DN=300
// RUN: weft compile --target=cuda --gpu-choice=always --report %s -o %t.report.cu 2>&1 | FileCheck %s
// RUN: grep -v '^// KERNEL' %t.report.cu | FileCheck %s --check-prefix=KERNEL
// RUN: weft compile --target=cuda --gpu-choice=always --fp-reductions=ordered --report %s -o %t.ordered.cu 2>&1 | FileCheck %s --check-prefix=ORDERED
// CHECK: column-reductions.c:[[#@LINE+69]]:3: remark: distributed into 2 loops over the parts of its body, so that the loop at line [[#@LINE+71]] with it is a 2-D band
// CHECK: column-reductions.c:[[#@LINE+74]]:3: remark: distributed into 3 loops over the parts of its body, so that the loop at line [[#@LINE+76]] with it is a 2-D band
// CHECK: column-reductions.c:[[#@LINE+67]]:3: remark: runs on the device: the iterations of its 2 outer loops are the threads of a 2-D grid, the loop at line [[#@LINE+67]] along threadIdx.x {{.*}}; the threads of a column combine z (add): each block's partial results of a column in shared memory, then one atomic update per column of the block
// CHECK: column-reductions.c:[[#@LINE+72]]:3: remark: runs on the device: the iterations {{.*}} the threads of a column combine mean (add)
// CHECK: column-reductions.c:[[#@LINE+78]]:3: remark: runs on the device: the iterations {{.*}} the threads of a column combine v (add)
// CHECK: column-reductions.c:[[#@LINE+83]]:3: remark: runs on the device: the iterations {{.*}} the threads of a column combine c (add)
// CHECK: column-reductions.c:[[#@LINE+88]]:3: remark: runs on the device: the iterations {{.*}} the threads of a column combine top (max), f (add)
// CHECK: column-reductions.c:[[#@LINE+97]]:3: remark: runs on the device: its iterations are the threads of a 1-D grid; gpu-choice=always
// CHECK: column-reductions.c:[[#@LINE+103]]:5: remark: runs on the device: the iterations {{.*}} the threads of a column combine z (add)
// KERNEL: __shared__ double mean_partials[256];
// KERNEL: for (int64_t i = (int64_t)blockIdx.y * 8 + (int64_t)threadIdx.y; i < 37; i += 40) {
// KERNEL: mean_partial += B[i * 70 + j];
// KERNEL: int64_t thread = (int64_t)threadIdx.y * 32 + (int64_t)threadIdx.x;
// KERNEL-NEXT: mean_partials[thread] = mean_partial;
// KERNEL-NEXT: __syncthreads();
// KERNEL: mean_partials[thread] += mean_partials[thread + 128];
// KERNEL: mean_partials[thread] += mean_partials[thread + 64];
// KERNEL: mean_partials[thread] += mean_partials[thread + 32];
// KERNEL-NEXT: }
// KERNEL-NEXT: double mean_partial_1 = mean_partials[thread];
// KERNEL-NEXT: if ((j < 70) & ((int64_t)threadIdx.y == 0)) {
// KERNEL-NEXT: weft_cuda_atomic_add(mean, j, mean_partial_1);
// KERNEL: WEFT_CUDA_LAUNCH(weft_main_scop0_kernel_2, 3, 5, 1, 32, 8, 1, d_B, d_mean);
// ORDERED-NOT: 2-D grid
// ORDERED-NOT: threads of a column combine
/* Column reductions (docs/cuda.md, "Column reductions"): each element of a
   row sums down a column, `z[j] += A[i][j] * y[i]`. On the device `j` stays
   along x (coalesced reads of A) and `i` joins it along y: the 8 threads of
   a column of each 32 x 8 block combine their partial results in shared
   memory, then add them to z[j] atomically. Sizes are not multiples of the
   blocks; loops start past 0; one column reduction is a triangle, one runs
   in a time loop, one combines integers with max, one floats; a column's
   mean is cut from its initialisation and its division; a filter's three
   taps keep a thread per element. At 700 x 300 for a T4 (320 blocks at
   most: 10 blocks of columns leave 32 of the 88 along i), each thread
   strides over i (docs/cuda.md, "Grid-stride loops"). mpi-cuda:
   test/E2E/mpi-cuda/column-reductions.c. */
#include <stdio.h>

#ifndef N
#define N 70
#endif
#ifndef M
#define M 37
#endif

static double A[M][N], B[M][N], L[M][M], y[M], z[N], mean[N], c[M], v[N];
static double w[M], h[N];
static float F[M][N], g[M], f[N];
static int K[M][N], top[N];

int main(void) {
  int i, j, k;
  for (i = 0; i < M; i++) {
    for (j = 0; j < N; j++) {
      A[i][j] = (double)((i * 7 + j * 13) % 17) / 16.0 - 0.5;
      B[i][j] = (double)((i * 3 + j * 5) % 11) / 8.0;
      F[i][j] = (float)((i + 2 * j) % 7) - 3.0f;
      K[i][j] = (i * 31 + j * 17) % 101 - 50;
    }
    for (j = 0; j < M; j++)
      L[i][j] = (double)((i + j) % 5) / 4.0;
    y[i] = (double)(i % 9) / 8.0 - 0.25;
    g[i] = (float)(i % 4) - 1.5f;
    w[i] = 1.0;
  }

#pragma scop
  /* atax's second product, with the element's initialisation. */
  for (j = 0; j < N; j++) {
    z[j] = 0.0;
    for (i = 0; i < M; i++)
      z[j] = z[j] + A[i][j] * y[i];
  }
  /* A column's mean (covariance): initialisation, sum, division. */
  for (j = 0; j < N; j++) {
    mean[j] = 0.0;
    for (i = 0; i < M; i++)
      mean[j] += B[i][j];
    mean[j] /= (double)M;
  }
  /* Columns and rows starting past 0. */
  for (j = 1; j < N; j++) {
    v[j] = 0.0;
    for (i = 2; i < M; i++)
      v[j] += A[i][j] * B[i][j];
  }
  /* A triangle: column j sums its elements from the diagonal down. */
  for (j = 0; j < M; j++) {
    c[j] = 0.0;
    for (i = j; i < M; i++)
      c[j] += L[i][j] * y[i];
  }
  /* Integer maximum and float sum of each column. */
  for (j = 0; j < N; j++) {
    top[j] = -1000;
    f[j] = 0.0f;
    for (i = 0; i < M; i++) {
      top[j] = K[i][j] > top[j] ? K[i][j] : top[j];
      f[j] += F[i][j] * g[i];
    }
  }
  /* A filter's three taps: three threads of a column of 8 would idle the
     rest, so one thread per element runs them. */
  for (j = 0; j < N - 2; j++) {
    h[j] = 0.0;
    for (k = 0; k < 3; k++)
      h[j] += mean[j + k] * (double)(k + 1);
  }
  /* In a time loop: the column sums feed the next step. */
  for (k = 0; k < 3; k++) {
    for (j = 0; j < N; j++) {
      z[j] = 0.0;
      for (i = 0; i < M; i++)
        z[j] += B[i][j] * w[i];
    }
    for (i = 0; i < M; i++)
      w[i] = w[i] * 0.5 + z[k + 1] / M;
  }
#pragma endscop

  for (j = 0; j < N; j++)
    printf("%d %.15g %.15g %.15g %d %.7g %.15g\n", j, z[j], mean[j], v[j],
           top[j], f[j], h[j]);
  for (i = 0; i < M; i++)
    printf("%d %.15g %.15g\n", i, c[i], w[i]);
  return 0;
}

