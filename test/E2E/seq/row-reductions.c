// RUN: bash %S/../run-seq.sh %s %t
// RUN: WEFT_TARGET=cuda WEFT_RTOL=1e-12 bash %S/../run-seq.sh %s %t.cuda
// RUN: WEFT_TARGET=cuda WEFT_RTOL=1e-12 bash %S/../run-seq.sh %s %t.cuda-odd -DN=97 -DM=9
// RUN: WEFT_TARGET=cuda WEFT_FLAGS=--fp-reductions=ordered bash %S/../run-seq.sh %s %t.cuda-ordered
// RUN: WEFT_TARGET=cuda WEFT_RTOL=1e-12 WEFT_FLAGS=--gpu=T4 bash %S/../run-seq.sh %s %t.cuda-stride -DM=700 -DN=300
// RUN: weft compile --target=cuda --gpu-choice=always --report %s -o %t.report.cu 2>&1 | FileCheck %s
// RUN: grep -v '^// KERNEL' %t.report.cu | FileCheck %s --check-prefix=KERNEL
// RUN: weft compile --target=cuda --gpu-choice=always --fp-reductions=ordered --report %s -o %t.ordered.cu 2>&1 | FileCheck %s --check-prefix=ORDERED
// CHECK: row-reductions.c:[[#@LINE+62]]:3: remark: distributed into 2 loops over the parts of its body, so that the loop at line [[#@LINE+64]] with it is a 2-D band
// CHECK: row-reductions.c:[[#@LINE+61]]:3: remark: runs on the device: the iterations of its 2 outer loops are the threads of a 2-D grid, the loop at line [[#@LINE+63]] along threadIdx.x {{.*}}; the threads of a row combine y (add): each block's partial results of a row in warp shuffles, then one atomic update per row of the block
// CHECK: remark: runs on the device: the iterations {{.*}} the threads of a row combine s (add), t (add)
// CHECK: remark: runs on the device: the iterations {{.*}} the threads of a row combine u (add)
// CHECK: remark: runs on the device: the iterations {{.*}} the threads of a row combine top (max), f (add)
// CHECK: remark: runs on the device: the iterations {{.*}}; its threads combine total (add): each block's partial results in warp shuffles, then across warps in shared memory
// CHECK: row-reductions.c:[[#@LINE+91]]:3: remark: runs on the device: the iterations {{.*}} the threads of a column combine z (add)
// KERNEL-NOT: __shared__ double y_partials
// KERNEL: double y_shuffled = __shfl_down_sync(0xffffffffu, y_partial, 16, 32);
// KERNEL: double y_shuffled_4 = __shfl_down_sync(0xffffffffu, y_partial_4, 1, 32);
// KERNEL-NEXT: double y_partial_5 = y_partial_4 + y_shuffled_4;
// KERNEL-NOT: __syncthreads
// KERNEL: if ((i < 37) & ((int64_t)threadIdx.x == 0)) {
// KERNEL-NEXT: weft_cuda_atomic_add(y, i, y_partial_5);
// ORDERED-NOT: 2-D grid
// ORDERED-NOT: threads of a row combine
/* Row reductions (docs/cuda.md, "Row reductions"): each element of a row
   sums along the row, `y[i] += A[i][j] * x[j]`. On the device a row of
   threads along j (coalesced reads of A) combines its partial results,
   then adds them to y[i] atomically. Sizes are not multiples of the 32 x 8
   blocks; loops start past 0; one row reduction is a triangle, one runs in
   a time loop, one combines integers with max, one floats; a transposed
   one (`z[j] += A[i][j] * y[i]`) is a column reduction (its own test). At 700 x 300
   for a T4 (320 blocks at most: 88 blocks of rows leave 3 of the 10
   along j), each thread strides over j (docs/cuda.md, "Grid-stride
   loops"), also in the sum of the whole matrix. mpi-cuda:
   test/E2E/mpi-cuda/row-reductions.c. */
#include <stdio.h>

#ifndef N
#define N 70
#endif
#ifndef M
#define M 37
#endif

static double A[M][N], B[M][N], L[M][M], x[N], y[M], s[M], t[M], u[M], z[N];
static double w[N];
static float F[M][N], g[N], f[M];
static int K[M][N], top[M];

int main(void) {
  int i, j, k;
  double total;
  for (i = 0; i < M; i++) {
    for (j = 0; j < N; j++) {
      A[i][j] = (double)((i * 7 + j * 13) % 17) / 16.0 - 0.5;
      B[i][j] = (double)((i * 3 + j * 5) % 11) / 8.0;
      F[i][j] = (float)((i + 2 * j) % 7) - 3.0f;
      K[i][j] = (i * 31 + j * 17) % 101 - 50;
    }
    for (j = 0; j < M; j++)
      L[i][j] = (double)((i + j) % 5) / 4.0;
  }
  for (j = 0; j < N; j++) {
    x[j] = (double)(j % 9) / 8.0 - 0.25;
    g[j] = (float)(j % 4) - 1.5f;
    w[j] = 1.0;
  }

#pragma scop
  /* gemv, with the element's initialisation in the row loop. */
  for (i = 0; i < M; i++) {
    y[i] = 0.0;
    for (j = 0; j < N; j++)
      y[i] = y[i] + A[i][j] * x[j];
  }
  /* Two rows at once (gesummv), rows and columns starting past 0. */
  for (i = 1; i < M; i++) {
    s[i] = 0.0;
    t[i] = 0.0;
    for (j = 2; j < N; j++) {
      s[i] = A[i][j] * x[j] + s[i];
      t[i] = B[i][j] * x[j] + t[i];
    }
  }
  /* A triangle: row i sums its first i + 1 elements. */
  for (i = 0; i < M; i++) {
    u[i] = 0.0;
    for (j = 0; j <= i; j++)
      u[i] += L[i][j] * y[j];
  }
  /* Integer maximum and float sum of each row. */
  for (i = 0; i < M; i++) {
    top[i] = -1000;
    f[i] = 0.0f;
    for (j = 0; j < N; j++) {
      top[i] = K[i][j] > top[i] ? K[i][j] : top[i];
      f[i] += F[i][j] * g[j];
    }
  }
  /* The whole matrix into one element: every thread of a block combines. */
  total = 0.0;
  for (i = 0; i < M; i++)
    for (j = 0; j < N; j++)
      total += A[i][j] * B[i][j];
  /* Transposed: z[j] sums a column, a column reduction. */
  for (j = 0; j < N; j++) {
    z[j] = 0.0;
    for (i = 0; i < M; i++)
      z[j] += A[i][j] * y[i];
  }
  /* In a time loop: the row sums feed the next step. */
  for (k = 0; k < 3; k++) {
    for (i = 0; i < M; i++) {
      s[i] = 0.0;
      for (j = 0; j < N; j++)
        s[i] += B[i][j] * w[j];
    }
    for (j = 0; j < N; j++)
      w[j] = w[j] * 0.5 + s[k + 1] / N;
  }
#pragma endscop

  for (i = 0; i < M; i++)
    printf("%d %.15g %.15g %.15g %.15g %d %.7g\n", i, y[i], s[i], t[i], u[i],
           top[i], f[i]);
  for (j = 0; j < N; j++)
    printf("%d %.15g %.15g\n", j, z[j], w[j]);
  printf("%.15g\n", total);
  return 0;
}
