// Loop nests split over a 2-D grid of ranks (rows x columns: 1 x 1, 2 x 1,
// 3 x 1, 2 x 2, 3 x 2, 3 x 3) print what the sequential program prints,
// with sizes no grid extent divides and arrays that are not square: halos
// along both axes, 9-point stencils (corner neighbours), transposed reads,
// a 2-D nest feeding a 1-D one and back, a 3-D nest split on its outer two
// loops, min/max bounds and a pinned 2-D distribution.
// REQUIRES: mpicc, mpirun
// RUN: weft compile --report %s -o %t.c 2>&1 | FileCheck %s
// RUN: bash %S/../run-mpi.sh %s %t 1 2 3 4 6 9
#include <stdio.h>

// The stencil's sweeps are split over the grid by the partitioner's choice
// (sizes unknown at compile time), the other nests as directives ask.
// CHECK: grid-2d.c:27:5: remark: distributed over a 2-D grid: {{.*}} (predicted region time at 4 ranks
// CHECK: grid-2d.c:32:5: remark: distributed over a 2-D grid: {{.*}} (predicted region time at 4 ranks
// CHECK: grid-2d.c:46:3: remark: distributed over a 2-D grid: {{.*}} as '#pragma weft' asks
// CHECK: grid-2d.c:50:3: remark: distributed over a 2-D grid: {{.*}} as '#pragma weft' asks
// CHECK: grid-2d.c:53:3: remark: distributed: blocks of its iterations on each rank
// CHECK: grid-2d.c:59:3: remark: distributed over a 2-D grid: {{.*}} as '#pragma weft' asks
// CHECK: grid-2d.c:71:5: remark: distributed over a 2-D grid: {{.*}} as '#pragma weft' asks
// CHECK: grid-2d.c:79:5: remark: distributed over a 2-D grid: {{.*}} as '#pragma weft' asks
static void jacobi(int tsteps, int n, int m, double A[n][m], double B[n][m]) {
  int t, i, j;
#pragma scop
  for (t = 0; t < tsteps; t++) {
    /* Nine points: the corners come from the diagonal neighbours. */
    for (i = 1; i < n - 1; i++)
      for (j = 1; j < m - 1; j++)
        B[i][j] = 0.1 * (A[i][j] + A[i - 1][j - 1] + A[i - 1][j + 1] +
                         A[i + 1][j - 1] + A[i + 1][j + 1] + A[i][j - 1] +
                         A[i][j + 1] + A[i - 1][j] + A[i + 1][j]);
    for (i = 1; i < n - 1; i++)
      for (j = 1; j < m - 1; j++)
        A[i][j] = B[i][j] + 0.01 * (i - j);
  }
#pragma endscop
}

// A transposed read, a nest over a column band (min/max bounds), a 1-D
// row sum of a 2-D result, then a 2-D nest reading the sums.
static void mixed(int n, int m, double A[n][m], double T[m][n], double C[n][m],
                  double s[n]) {
  int i, j;
#pragma scop
#pragma weft distribute(i: block, j: block)
  for (i = 0; i < m; i++)
    for (j = 0; j < n; j++)
      T[i][j] = A[j][i] * 2.0 + i;
#pragma weft distribute(i: block, j: block)
  for (i = 0; i < n; i++)
    for (j = (2 > n - 20 ? 2 : n - 20); j < (m - 1 < n + 3 ? m - 1 : n + 3); j++)
      C[i][j] = T[j][i] - T[j - 1][i] + A[i][j + 1];
  for (i = 0; i < n; i++) {
    s[i] = 0.0;
    for (j = 0; j < m; j++)
      s[i] += C[i][j] * (j + 1);
  }
#pragma weft distribute(i: block, j: block)
  for (i = 1; i < n; i++)
    for (j = 0; j < m; j++)
      C[i][j] = s[i - 1] + s[i] * C[i][j];
#pragma endscop
}

// A 3-D heat step: its outer two loops over the grid, the third local.
static void heat(int tsteps, int n, double A[n][n][n], double B[n][n][n]) {
  int t, i, j, k;
#pragma scop
  for (t = 0; t < tsteps; t++) {
#pragma weft distribute(i: block, j: block)
    for (i = 1; i < n - 1; i++)
      for (j = 1; j < n - 1; j++)
        for (k = 1; k < n - 1; k++)
          B[i][j][k] = 0.125 * (A[i + 1][j][k] - 2.0 * A[i][j][k] + A[i - 1][j][k]) +
                       0.125 * (A[i][j + 1][k] - 2.0 * A[i][j][k] + A[i][j - 1][k]) +
                       0.125 * (A[i][j][k + 1] - 2.0 * A[i][j][k] + A[i][j][k - 1]) +
                       A[i][j][k];
#pragma weft distribute(i: block, j: block)
    for (i = 1; i < n - 1; i++)
      for (j = 1; j < n - 1; j++)
        for (k = 1; k < n - 1; k++)
          A[i][j][k] = B[i][j][k];
  }
#pragma endscop
}

#define N 23
#define M 17
#define H 11

static double A[N][M], B[N][M], T[M][N], C[N][M], s[N];
static double HA[H][H][H], HB[H][H][H];

int main(void) {
  int i, j, k;
  for (i = 0; i < N; i++)
    for (j = 0; j < M; j++) {
      A[i][j] = (double)((i * 7 + j * 3) % 11) / 5.0;
      B[i][j] = 0.0;
      C[i][j] = 1.0 + i - j;
    }
  for (i = 0; i < H; i++)
    for (j = 0; j < H; j++)
      for (k = 0; k < H; k++)
        HA[i][j][k] = HB[i][j][k] = (double)((i + 2 * j + 3 * k) % 7);
  jacobi(5, N, M, A, B);
  mixed(N, M, A, T, C, s);
  heat(4, H, HA, HB);
  for (i = 0; i < N; i++) {
    for (j = 0; j < M; j++)
      printf("%.15g %.15g ", A[i][j], C[i][j]);
    printf("| %.15g\n", s[i]);
  }
  for (i = 0; i < M; i++)
    for (j = 0; j < N; j++)
      printf("%.15g%c", T[i][j], j == N - 1 ? '\n' : ' ');
  for (i = 0; i < H; i++)
    for (j = 0; j < H; j++)
      for (k = 0; k < H; k++)
        printf("%.15g%c", HA[i][j][k], k == H - 1 ? '\n' : ' ');
  return 0;
}
