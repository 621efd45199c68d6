// '#pragma weft grid(R, C)' sets the shape of a region's 2-D grid when the
// number of ranks fits it (R * C ranks, or a multiple of the given extent
// with '*'); otherwise the grid takes its usual shape, so the program is
// right on every rank count. A grid of one extent keeps the region's nests
// on 1-D blocks.
// REQUIRES: mpicc, mpirun
// RUN: weft compile --report %s -o %t.c 2>&1 | FileCheck %s
// RUN: weft compile --emit=mlir %s -o - | FileCheck %s --check-prefix=SHAPE
// RUN: bash %S/../run-mpi.sh %s %t 1 2 3 4 6
// SHAPE: dist.grid_shape #dist.grid<[?, ?]> prefer [1, 0]
// SHAPE: dist.grid_shape #dist.grid<[?, ?]> prefer [2, 2]
// SHAPE-NOT: dist.grid_shape
#include <stdio.h>

// One row of ranks: every rank owns a block of columns.
// CHECK: grid-directive.c:[[@LINE+7]]:3: remark: distributed over a 2-D grid: {{.*}} as '#pragma weft' asks
// CHECK: grid-directive.c:[[@LINE+3]]:1: remark: the 2-D grid has 1 x * ranks as '#pragma weft grid' asks, when the number of ranks fits (else the most nearly square shape)
static void columns(int n, int m, double A[n][m], double B[n][m]) {
  int i, j;
#pragma scop
#pragma weft grid(1, *)
#pragma weft distribute(i: block, j: block)
  for (i = 1; i < n - 1; i++)
    for (j = 1; j < m - 1; j++)
      B[i][j] = A[i - 1][j] + A[i + 1][j] - A[i][j - 1] * A[i][j + 1];
#pragma endscop
}

// 2 x 2 at 4 ranks; other counts take the usual shape.
// CHECK: grid-directive.c:[[@LINE+3]]:1: remark: the 2-D grid has 2 x 2 ranks as '#pragma weft grid' asks
static void square(int tsteps, int n, int m, double A[n][m], double B[n][m]) {
  int t, i, j;
#pragma scop
#pragma weft grid(2, 2)
  for (t = 0; t < tsteps; t++) {
#pragma weft distribute(i: block, j: block)
    for (i = 1; i < n - 1; i++)
      for (j = 1; j < m - 1; j++)
        B[i][j] = 0.25 * (A[i - 1][j] + A[i + 1][j] + A[i][j - 1] + A[i][j + 1]);
#pragma weft distribute(i: block, j: block)
    for (i = 1; i < n - 1; i++)
      for (j = 1; j < m - 1; j++)
        A[i][j] = B[i][j];
  }
#pragma endscop
}

// A 1-D grid: the partitioner does not offer the 2-D choice.
// CHECK: grid-directive.c:[[@LINE+6]]:5: remark: distributed: blocks of its iterations on each rank (predicted region time at 4 ranks {{.*}} s; {{.*}} s if replicated){{$}}
static void rows(int tsteps, int n, int m, double A[n][m], double B[n][m]) {
  int t, i, j;
#pragma scop
#pragma weft grid(*)
  for (t = 0; t < tsteps; t++) {
    for (i = 1; i < n - 1; i++)
      for (j = 1; j < m - 1; j++)
        B[i][j] = 0.2 * (A[i][j] + A[i - 1][j] + A[i + 1][j] + A[i][j - 1] + A[i][j + 1]);
    for (i = 1; i < n - 1; i++)
      for (j = 1; j < m - 1; j++)
        A[i][j] = B[i][j];
  }
#pragma endscop
}

#define N 19
#define M 23
static double A[N][M], B[N][M];

int main(void) {
  for (int i = 0; i < N; i++)
    for (int j = 0; j < M; j++) {
      A[i][j] = ((i * 3 + j * 5) % 7) / 4.0;
      B[i][j] = 0.0;
    }
  columns(N, M, A, B);
  square(3, N, M, B, A);
  rows(2, N, M, A, B);
  for (int i = 0; i < N; i++)
    for (int j = 0; j < M; j++)
      printf("%.15g%c", A[i][j] + 3.0 * B[i][j], j == M - 1 ? '\n' : ' ');
  return 0;
}
