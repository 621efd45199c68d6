// RUN: bash %S/../run-seq.sh %s %t
// RUN: WEFT_TARGET=cuda WEFT_RTOL=1e-12 bash %S/../run-seq.sh %s %t.cuda
// RUN: bash %S/../run-mpi.sh %s %t
/* Modified Gram-Schmidt QR: a norm accumulated in a scalar declared at the
   top of the function, sqrt, division by a diagonal element, and a j loop
   starting at k+1. */
#include <stdio.h>
#include <stdlib.h>
#include <math.h>

#ifndef M
#define M 41
#endif
#ifndef N
#define N 29
#endif

static void kernel_gramschmidt(int m, int n, double A[m][n], double R[n][n], double Q[m][n])
{
  int i, j, k;
  double nrm;

#pragma scop
  for (k = 0; k < n; k++) {
    nrm = 0.0;
    for (i = 0; i < m; i++)
      nrm += A[i][k] * A[i][k];
    R[k][k] = sqrt(nrm);
    for (i = 0; i < m; i++)
      Q[i][k] = A[i][k] / R[k][k];
    for (j = k + 1; j < n; j++) {
      R[k][j] = 0.0;
      for (i = 0; i < m; i++)
        R[k][j] += Q[i][k] * A[i][j];
      for (i = 0; i < m; i++)
        A[i][j] = A[i][j] - Q[i][k] * R[k][j];
    }
  }
#pragma endscop
}

int main(void)
{
  static double A[M][N], R[N][N], Q[M][N];
  int i, j;

  for (i = 0; i < M; i++)
    for (j = 0; j < N; j++) {
      A[i][j] = (double)((i * j) % M) / M * 10.0 + 1.0;
      if (i == j)
        A[i][j] += 5.0;
      Q[i][j] = 0.0;
    }
  for (i = 0; i < N; i++)
    for (j = 0; j < N; j++)
      R[i][j] = 0.0;
  kernel_gramschmidt(M, N, A, R, Q);
  for (i = 0; i < N; i++) {
    for (j = i; j < N; j++)
      printf("%.17g ", R[i][j]);
    printf("\n");
  }
  for (i = 0; i < M; i++) {
    double s = 0.0;
    for (j = 0; j < N; j++)
      s += Q[i][j] * (j + 1) + A[i][j];
    printf("Q/A row %d: %.17g Q[i][2] = %.17g\n", i, s, Q[i][2]);
  }
  return 0;
}
