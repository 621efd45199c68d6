// RUN: WEFT_TARGET=cuda bash %S/../run-seq.sh %s %t
// RUN: WEFT_TARGET=cuda bash %S/../run-seq.sh %s %t.small -DN=5 -DM=3
// RUN: WEFT_TARGET=cuda bash %S/../run-seq.sh %s %t.even -DN=128 -DM=64
// RUN: WEFT_TARGET=cuda bash %S/../run-seq.sh %s %t.odd -DN=131 -DM=33
// RUN: weft compile --target=cuda --report %s -o %t.cu 2>&1 | FileCheck %s
/* Products over triangles staged in shared memory (docs/cuda.md, "Shared-
   memory tiles"): the grid covers the triangle's box, whose blocks load
   tiles of its rows and columns; the triangle's condition only keeps the
   computation and the stores inside, and blocks with no element skip the
   tiles. gpu-select-nests stages a triangle whose every row and column of
   the box holds an element (the tiles read what the original reads) and
   that is half its box: syrk's lower triangle (j <= i) and covariance's
   upper one (j >= i, over k < m - 1, a bound every thread computes alike);
   a band of three diagonals, a strict lower triangle (row 0 is empty) and
   rows ending at i + 1 or m (a minimum: no 2-D band) keep one untiled
   thread an element. The sizes are parameters (the cost model chooses for
   its nominal 4096); the runs use sizes below one block, multiples of the
   blocks and odd ones, and must print what the sequential program prints,
   bit for bit. */
#include <stdio.h>

#ifndef N
#define N 37
#endif
#ifndef M
#define M 41
#endif

static double A[N][M], B[N + 2][M];
static double S[N][N], U[N][N], D[N][N + 2], L[N][N], R[N][N];

// CHECK: triangle-tiles.c:[[@LINE+24]]:3: remark: runs on the device: {{.*}} without shared-memory tiles: the triangle is a band along the diagonal, a small part of the grid's box
// CHECK: triangle-tiles.c:[[@LINE+30]]:3: remark: runs on the device: {{.*}} without shared-memory tiles: its first row may hold no element, so that the tiles could read what the loop does not
// CHECK: triangle-tiles.c:[[@LINE+11]]:7: remark: the loop is tiled by {{[0-9]+}} in shared memory, each thread computing {{[0-9]+}} x {{[0-9]+}} elements in registers
// CHECK: triangle-tiles.c:[[@LINE+17]]:7: remark: the loop is tiled by {{[0-9]+}} in shared memory, each thread computing {{[0-9]+}} x {{[0-9]+}} elements in registers
// CHECK-NOT: remark: the loop is{{( not)?}} tiled
static void triangles(int n, int m)
{
  int i, j, k;
#pragma scop
  /* syrk: the lower triangle, two tiles of A */
  for (i = 0; i < n; i++)
    for (j = 0; j <= i; j++) {
      S[i][j] *= 0.5;
      for (k = 0; k < m; k++)
        S[i][j] += A[i][k] * A[j][k];
    }
  /* covariance: the upper triangle, from the diagonal to the end */
  for (i = 0; i < n; i++)
    for (j = i; j < n; j++) {
      U[i][j] = 0.0;
      for (k = 0; k < m - 1; k++)
        U[i][j] += A[i][k] * B[j][k];
    }
  /* a band of three diagonals */
  for (i = 0; i < n; i++)
    for (j = i; j < i + 3; j++) {
      D[i][j] = 1.0;
      for (k = 0; k < m; k++)
        D[i][j] += A[i][k] * B[j][k];
    }
  /* the strict lower triangle: row 0 has no element */
  for (i = 0; i < n; i++)
    for (j = 0; j < i; j++) {
      L[i][j] = 0.0;
      for (k = 0; k < m; k++)
        L[i][j] += A[i][k] * B[j][k];
    }
  /* rows that end at i + 1 or at m, whichever the loop's bound is */
  for (i = 0; i < n; i++)
    for (j = 0; j < i + 1 && j < m; j++) {
      R[i][j] = 0.0;
      for (k = 0; k < m; k++)
        R[i][j] += A[i][k] * B[j][k];
    }
#pragma endscop
}

int main(void)
{
  int i, j, k;
  for (i = 0; i < N + 2; i++)
    for (k = 0; k < M; k++) {
      if (i < N)
        A[i][k] = (double)((i * 7 + k * 3) % 11) / 11 - 0.5;
      B[i][k] = (double)((i * 2 + k * 9) % 17) / 17;
    }
  for (i = 0; i < N; i++)
    for (j = 0; j < N + 2; j++) {
      if (j < N) {
        S[i][j] = (double)((i + j * 4) % 7) / 7 - 0.25;
        U[i][j] = L[i][j] = R[i][j] = -2.0;
      }
      D[i][j] = -2.0;
    }
  triangles(N, M);
  for (i = 0; i < N; i++) {
    for (j = 0; j < N; j++)
      printf("%.17g %.17g %.17g %.17g ", S[i][j], U[i][j], L[i][j], R[i][j]);
    for (j = 0; j < N + 2; j++)
      printf("%.17g ", D[i][j]);
    printf("\n");
  }
  return 0;
}
