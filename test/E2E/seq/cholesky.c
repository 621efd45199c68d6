// RUN: bash %S/../run-seq.sh %s %t
// RUN: WEFT_TARGET=cuda bash %S/../run-seq.sh %s %t.cuda
// RUN: bash %S/../run-mpi.sh %s %t
/* Cholesky factorisation (lower triangle, in place) of a symmetric positive
   definite matrix passed as a VLA parameter; uses sqrt inside the region. */
#include <stdio.h>
#include <stdlib.h>
#include <math.h>

#ifndef N
#define N 43
#endif

static void kernel_cholesky(int n, double A[n][n])
{
  int i, j, k;

#pragma scop
  for (i = 0; i < n; i++) {
    for (j = 0; j < i; j++) {
      for (k = 0; k < j; k++)
        A[i][j] -= A[i][k] * A[j][k];
      A[i][j] /= A[j][j];
    }
    for (k = 0; k < i; k++)
      A[i][i] -= A[i][k] * A[i][k];
    A[i][i] = sqrt(A[i][i]);
  }
#pragma endscop
}

int main(void)
{
  static double A[N][N];
  int i, j;

  for (i = 0; i < N; i++)
    for (j = 0; j <= i; j++) {
      A[i][j] = (double)((i + j) % 7) / 7.0 + (double)((i * j) % 5) / 10.0;
      A[j][i] = A[i][j];
    }
  for (i = 0; i < N; i++)
    A[i][i] += 2.0 * N;
  kernel_cholesky(N, A);
  for (i = 0; i < N; i++) {
    for (j = 0; j <= i; j++)
      printf("%.17g ", A[i][j]);
    printf("\n");
  }
  return 0;
}
