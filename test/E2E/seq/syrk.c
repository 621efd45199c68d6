// RUN: bash %S/../run-seq.sh %s %t
// RUN: WEFT_TARGET=cuda bash %S/../run-seq.sh %s %t.cuda
// RUN: WEFT_TARGET=cuda bash %S/../run-seq.sh %s %t.cuda-odd -DN=33 -DM=2
// RUN: bash %S/../run-mpi.sh %s %t
/* Symmetric rank-k update of the lower triangle: C := alpha*A*A' + beta*C,
   triangular bounds j <= i. */
#include <stdio.h>
#include <stdlib.h>
#include <math.h>

#ifndef N
#define N 41
#endif
#ifndef M
#define M 33
#endif

static void kernel_syrk(int n, int m, double alpha, double beta, double C[n][n],
                        double A[n][m])
{
  int i, j, k;

#pragma scop
  for (i = 0; i < n; i++) {
    for (j = 0; j <= i; j++)
      C[i][j] *= beta;
    for (k = 0; k < m; k++)
      for (j = 0; j <= i; j++)
        C[i][j] += alpha * A[i][k] * A[j][k];
  }
#pragma endscop
}

int main(void)
{
  double (*C)[N] = malloc(sizeof(double[N][N]));
  double (*A)[M] = malloc(sizeof(double[N][M]));
  int i, j;

  if (!C || !A)
    return 1;
  for (i = 0; i < N; i++)
    for (j = 0; j < M; j++)
      A[i][j] = (double)((i * j + 1) % N) / N;
  for (i = 0; i < N; i++)
    for (j = 0; j < N; j++)
      C[i][j] = (double)((i * j + 2) % M) / M;
  kernel_syrk(N, M, 1.5, 1.2, C, A);
  for (i = 0; i < N; i++) {
    for (j = 0; j < N; j++)
      printf("%.17g ", C[i][j]);
    printf("\n");
  }
  free(C);
  free(A);
  return 0;
}
