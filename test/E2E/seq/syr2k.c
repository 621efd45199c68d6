// RUN: bash %S/../run-seq.sh %s %t
// RUN: WEFT_TARGET=cuda bash %S/../run-seq.sh %s %t.cuda
// RUN: WEFT_TARGET=cuda bash %S/../run-seq.sh %s %t.cuda-odd -DN=9 -DM=40
// RUN: bash %S/../run-mpi.sh %s %t
/* Symmetric rank-2k update: C := alpha*A*B' + alpha*B*A' + beta*C on the
   lower triangle. */
#include <stdio.h>
#include <stdlib.h>
#include <math.h>

#ifndef N
#define N 37
#endif
#ifndef M
#define M 29
#endif

double C[N][N], A[N][M], B[N][M];

static void kernel_syr2k(int n, int m, double alpha, double beta)
{
  int i, j, k;

#pragma scop
  for (i = 0; i < n; i++) {
    for (j = 0; j <= i; j++)
      C[i][j] *= beta;
    for (k = 0; k < m; k++)
      for (j = 0; j <= i; j++)
        C[i][j] += A[j][k] * alpha * B[i][k] + B[j][k] * alpha * A[i][k];
  }
#pragma endscop
}

int main(void)
{
  int i, j;

  for (i = 0; i < N; i++)
    for (j = 0; j < M; j++) {
      A[i][j] = (double)((i * j + 1) % N) / N;
      B[i][j] = (double)((i * j + 2) % M) / M;
    }
  for (i = 0; i < N; i++)
    for (j = 0; j < N; j++)
      C[i][j] = (double)((i * j + 3) % N) / M;
  kernel_syr2k(N, M, 1.5, 1.2);
  for (i = 0; i < N; i++) {
    for (j = 0; j < N; j++)
      printf("%.17g ", C[i][j]);
    printf("\n");
  }
  return 0;
}
