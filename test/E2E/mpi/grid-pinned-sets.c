// A 2-D grid pinned by a directive after a column sum and a time loop over a
// private array: many groups of blocks read what the first nest writes.
// Found by fuzzing, where its communication analysis ran out of the ISL
// quota for grids (17 s, then 4 s against the 6 million operation quota,
// while ISL's loops enumerated the message sets to measure them); measured
// by their constraints instead, the grid is kept (test/Partition/dist-grid.mlir
// tests both limits) and the program stays right.
// REQUIRES: mpicc, mpirun
// RUN: weft compile --report %s -o %t.c 2>&1 | FileCheck %s
// RUN: bash %S/../run-mpi.sh %s %t 1 3 4
// CHECK-NOT: 1-D blocks instead
// CHECK: grid-pinned-sets.c:[[@LINE+20]]:3: remark: distributed over a 2-D grid: blocks of its iterations and of the inner loop's on each rank as '#pragma weft' asks
// CHECK-NOT: 1-D blocks instead
#include <stdio.h>
#define N 5
#define M 3
static int P0[M][N];
static void kernel(int tsteps, int n, int m, double B[m][n], int IE[n][m], int isv[n], int itv[m]) {
  int i, j, t;
#pragma scop
  for (i = 0; i < m; i++)
    for (j = 0; j < n; j++)
      P0[i][j] = (IE[j][i] + 3 * i) % 1000;
  for (t = 0; t < tsteps; t++) {
    for (i = 0; i < m; i++)
      itv[i] = (P0[i][0] + 2 * P0[i][n - 1] + i) % 1000;
  }
  for (i = 1; i < m - 1; i++)
    for (j = 0; j < n; j++)
      isv[j] += P0[i][j] * 2;
#pragma weft distribute(i: block, j: block)
  for (i = 0; i < m; i++)
    for (j = 2; j < n - 2; j++)
      B[i][j] = B[i][j] + 0.5 * P0[i][j + 2] - 0.25 * P0[i][j - 2];
#pragma endscop
}
static double B[M][N];
static int IE[N][M];
static int isv[N], itv[M];
int main(void) {
  int i, j;
  for (i = 0; i < M; i++) for (j = 0; j < N; j++) B[i][j] = (double)((i * 7 + j * 3) % 11) / 5.0;
  for (i = 0; i < N; i++) for (j = 0; j < M; j++) IE[i][j] = (i * 7 + j * 3 + 9) % 13;
  kernel(3, N, M, B, IE, isv, itv);
  for (i = 0; i < M; i++) { for (j = 0; j < N; j++) printf("%.15g ", B[i][j]); printf("\n"); }
  for (i = 0; i < N; i++) printf("%d ", isv[i]);
  for (i = 0; i < M; i++) printf("%d ", itv[i]);
  printf("\n");
  return 0;
}
