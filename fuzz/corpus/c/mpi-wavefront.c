// Gauss-Seidel time loops, whose loops all carry flow dependences, run as
// wavefronts of tiles of rows (dist-wavefront) and are distributed over
// the tiles of each stage. Each kernel prints what the sequential program
// prints, on rank counts that do not divide the sizes.
// REQUIRES: mpicc, mpirun
// RUN: bash %S/../run-mpi.sh %s %t 1 2 3 4 6
// RUN: weft compile --report %s -o %t.c 2>&1 | FileCheck %s
// RUN: weft compile --report %s -o %t.c 2>&1 | FileCheck %s --check-prefix=DIST
#include <stdio.h>

#define N 101
#define M 23
#define T 7

static double A[N][M], u[N], w[N], B[T][N], S[N][M], lastResidual, z[N];

// seidel-2d: new values above and to the left, old ones below and right.
static void seidel_2d(int tsteps, int n, int m) {
  int t, i, j;
#pragma scop
// CHECK: wavefront.c:[[@LINE+2]]:3: remark: runs as a wavefront: tiles of 16 iterations of the inner loop, tile b of step t at stage 2 * t + b
// DIST: wavefront.c:[[@LINE+1]]:3: remark: distributed: blocks of its iterations on each rank
  for (t = 0; t <= tsteps - 1; t++)
    for (i = 1; i <= n - 2; i++)
      for (j = 1; j <= m - 2; j++)
        A[i][j] = (A[i - 1][j - 1] + A[i - 1][j] + A[i - 1][j + 1] +
                   A[i][j - 1] + A[i][j] + A[i][j + 1] + A[i + 1][j - 1] +
                   A[i + 1][j] + A[i + 1][j + 1]) / 9.0;
#pragma endscop
}

// One dimension, with the step in a subscript and in the arithmetic.
static void seidel_1d(int tsteps, int n) {
  int t, i;
#pragma scop
// CHECK: wavefront.c:[[@LINE+1]]:3: remark: runs as a wavefront: tiles of 16 iterations of the inner loop, tile b of step t at stage 2 * t + b
  for (t = 0; t < tsteps; t++)
    for (i = 1; i < n - 1; i++)
      u[i] = 0.25 * u[i - 1] + 0.5 * u[i] + 0.25 * u[i + 1] + B[t][i] +
             0.001 * t;
#pragma endscop
}

// Only the left neighbours are new, but step t + 1 rewrites w[i - 1] after
// step t read it: stage t + b would run that write first (one rank runs a
// stage's tiles in order), so the skew is 2 here too.
// CHECK: wavefront.c:[[@LINE+4]]:3: remark: runs as a wavefront: tiles of 16 iterations of the inner loop, tile b of step t at stage 2 * t + b
static void forward_sweeps(int tsteps, int n) {
  int t, i;
#pragma scop
  for (t = 1; t < tsteps; t++)
    for (i = 2; i < n; i++)
      w[i] = 0.5 * w[i - 1] + 0.25 * w[i] - 0.125 * w[i - 2];
#pragma endscop
}

// Successive over-relaxation with its residual in a scalar that every
// point rewrites: the wavefront reorders those writes, but every read of r
// still sees its own point's value, and the last one stays last.
static void sor(int tsteps, int n, int m) {
  int t, i, j;
  double r;
#pragma scop
// CHECK: wavefront.c:[[@LINE+1]]:3: remark: runs as a wavefront: tiles of 16 iterations of the inner loop, tile b of step t at stage 2 * t + b
  for (t = 0; t < tsteps; t++)
    for (i = 1; i < n - 1; i++)
      for (j = 1; j < m - 1; j++) {
        r = S[i - 1][j] + S[i + 1][j] + S[i][j - 1] + S[i][j + 1] -
            4.0 * S[i][j];
        S[i][j] = S[i][j] + 0.375 * r;
      }
  lastResidual = r;
#pragma endscop
}

// A downward time loop: the step t is computed from the normalised
// iterator, and that arithmetic moves into the tiles.
static void downward_steps(int tsteps, int n) {
  int t, i;
#pragma scop
// CHECK: wavefront.c:[[@LINE+1]]:3: remark: runs as a wavefront: tiles of 16 iterations of the inner loop, tile b of step t at stage 2 * t + b
  for (t = tsteps - 1; t >= 0; t--)
    for (i = 1; i < n - 1; i++)
      z[i] = 0.25 * z[i - 1] + 0.5 * z[i] + 0.25 * z[i + 1] + B[t][i] -
             0.002 * t;
#pragma endscop
}

int main(void) {
  int t, i, j;
  for (i = 0; i < N; i++) {
    u[i] = (i % 9) * 0.5;
    z[i] = (i % 4) * 0.75;
    w[i] = (i % 4) - 1.0;
    for (j = 0; j < M; j++)
      A[i][j] = ((i * 7 + j * 3) % 13) * 0.25;
    for (j = 0; j < M; j++)
      S[i][j] = ((i * 5 + j) % 9) * 0.125;
    for (t = 0; t < T; t++)
      B[t][i] = ((t + i) % 5) * 0.01;
  }
  seidel_2d(T, N, M);
  seidel_1d(T, N);
  forward_sweeps(T, N - 4);
  sor(T, N, M);
  downward_steps(T, N);
  for (i = 0; i < N; i++) {
    for (j = 0; j < M; j++)
      printf("%.15g ", A[i][j]);
    printf("%.15g %.15g %.15g\n", u[i], w[i], z[i]);
    for (j = 0; j < M; j++)
      printf("%.15g ", S[i][j]);
    printf("\n");
  }
  printf("%.15g\n", lastResidual);
  return 0;
}
