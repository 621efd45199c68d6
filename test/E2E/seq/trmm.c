// RUN: bash %S/../run-seq.sh %s %t
// RUN: WEFT_TARGET=cuda WEFT_RTOL=1e-12 bash %S/../run-seq.sh %s %t.cuda
// RUN: WEFT_TARGET=cuda WEFT_FLAGS=--fp-reductions=ordered bash %S/../run-seq.sh %s %t.cuda-ordered
// RUN: bash %S/../run-mpi.sh %s %t
/* Triangular matrix multiply B := alpha*A'*B with A unit lower triangular;
   the k loop starts at i+1. */
#include <stdio.h>
#include <stdlib.h>
#include <math.h>

#ifndef M
#define M 31
#endif
#ifndef N
#define N 43
#endif

static void kernel_trmm(int m, int n, double alpha, double A[m][m], double B[m][n])
{
  int i, j, k;

#pragma scop
  for (i = 0; i < m; i++)
    for (j = 0; j < n; j++) {
      for (k = i + 1; k < m; k++)
        B[i][j] += A[k][i] * B[k][j];
      B[i][j] = alpha * B[i][j];
    }
#pragma endscop
}

int main(void)
{
  static double A[M][M], B[M][N];
  int i, j;

  for (i = 0; i < M; i++) {
    for (j = 0; j < i; j++)
      A[i][j] = (double)((i + j) % M) / M;
    A[i][i] = 1.0;
    for (j = 0; j < N; j++)
      B[i][j] = (double)((N + (i - j)) % N) / N;
  }
  kernel_trmm(M, N, 1.5, A, B);
  for (i = 0; i < M; i++) {
    for (j = 0; j < N; j++)
      printf("%.17g ", B[i][j]);
    printf("\n");
  }
  return 0;
}
