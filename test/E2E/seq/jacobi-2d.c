// RUN: bash %S/../run-seq.sh %s %t
// RUN: WEFT_TARGET=cuda bash %S/../run-seq.sh %s %t.cuda
// RUN: bash %S/../run-mpi.sh %s %t
/* 2-D five-point Jacobi stencil; arrays live on main's stack and reach the
   kernel as C99 VLA parameters. */
#include <stdio.h>
#include <stdlib.h>
#include <math.h>

#ifndef N
#define N 37
#endif
#ifndef TSTEPS
#define TSTEPS 11
#endif

static void kernel_jacobi_2d(int tsteps, int n, double A[n][n], double B[n][n])
{
  int t, i, j;

#pragma scop
  for (t = 0; t < tsteps; t++) {
    for (i = 1; i < n - 1; i++)
      for (j = 1; j < n - 1; j++)
        B[i][j] = 0.2 * (A[i][j] + A[i][j - 1] + A[i][1 + j] + A[1 + i][j] + A[i - 1][j]);
    for (i = 1; i < n - 1; i++)
      for (j = 1; j < n - 1; j++)
        A[i][j] = 0.2 * (B[i][j] + B[i][j - 1] + B[i][1 + j] + B[1 + i][j] + B[i - 1][j]);
  }
#pragma endscop
}

int main(void)
{
  double A[N][N], B[N][N];
  int i, j;

  for (i = 0; i < N; i++)
    for (j = 0; j < N; j++) {
      A[i][j] = ((double)i * (j + 2) + 2) / N;
      B[i][j] = ((double)i * (j + 3) + 3) / N;
    }
  kernel_jacobi_2d(TSTEPS, N, A, B);
  for (i = 0; i < N; i++) {
    double rs = 0.0;
    for (j = 0; j < N; j++) {
      printf("%.17g ", A[i][j]);
      rs += B[i][j];
    }
    printf("| %.17g\n", rs);
  }
  printf("B[%d][%d] = %.17g\n", N / 2, N / 3, B[N / 2][N / 3]);
  return 0;
}
