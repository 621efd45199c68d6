// RUN: bash %S/../run-seq.sh %s %t
// RUN: WEFT_TARGET=cuda WEFT_RTOL=1e-12 bash %S/../run-seq.sh %s %t.cuda
// RUN: bash %S/../run-mpi.sh %s %t
/* Symmetric matrix multiply C := alpha*A*B + beta*C using only the lower
   triangle of A; the scalar temp2 is declared at function top (outside the
   region) and used as a reduction variable inside it. */
#include <stdio.h>
#include <stdlib.h>
#include <math.h>

#ifndef M
#define M 29
#endif
#ifndef N
#define N 35
#endif

static void kernel_symm(int m, int n, double alpha, double beta, double C[m][n],
                        double A[m][m], double B[m][n])
{
  int i, j, k;
  double temp2;

#pragma scop
  for (i = 0; i < m; i++)
    for (j = 0; j < n; j++) {
      temp2 = 0;
      for (k = 0; k < i; k++) {
        C[k][j] += alpha * B[i][j] * A[i][k];
        temp2 += B[k][j] * A[i][k];
      }
      C[i][j] = beta * C[i][j] + alpha * B[i][j] * A[i][i] + alpha * temp2;
    }
#pragma endscop
}

int main(void)
{
  static double C[M][N], A[M][M], B[M][N];
  int i, j;

  for (i = 0; i < M; i++)
    for (j = 0; j < N; j++) {
      C[i][j] = (double)((i + j) % 100) / M;
      B[i][j] = (double)((N + i - j) % 100) / M;
    }
  for (i = 0; i < M; i++) {
    for (j = 0; j <= i; j++)
      A[i][j] = (double)((i + j) % 100) / M;
    for (j = i + 1; j < M; j++)
      A[i][j] = -999;
  }
  kernel_symm(M, N, 1.5, 1.2, C, A, B);
  for (i = 0; i < M; i++) {
    for (j = 0; j < N; j++)
      printf("%.17g ", C[i][j]);
    printf("\n");
  }
  return 0;
}
