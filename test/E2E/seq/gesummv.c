// RUN: bash %S/../run-seq.sh %s %t
// RUN: WEFT_TARGET=cuda bash %S/../run-seq.sh %s %t.cuda
// RUN: bash %S/../run-mpi.sh %s %t
/* y = alpha*A*x + beta*B*x with scalar accumulators declared INSIDE the
   region (block-scoped temporaries). */
#include <stdio.h>
#include <stdlib.h>
#include <math.h>

#ifndef N
#define N 67
#endif

static void kernel_gesummv(int n, double alpha, double beta, double A[n][n],
                           double B[n][n], double tmp[n], double x[n], double y[n])
{
  int i, j;

#pragma scop
  for (i = 0; i < n; i++) {
    double acc_a = 0.0;
    double acc_b;
    acc_b = 0.0;
    for (j = 0; j < n; j++) {
      acc_a = A[i][j] * x[j] + acc_a;
      acc_b += B[i][j] * x[j];
    }
    tmp[i] = acc_a;
    y[i] = alpha * acc_a + beta * acc_b;
  }
#pragma endscop
}

int main(void)
{
  static double A[N][N], B[N][N];
  double tmp[N], x[N], y[N];
  int i, j;

  for (i = 0; i < N; i++) {
    x[i] = (double)(i % N) / N;
    for (j = 0; j < N; j++) {
      A[i][j] = (double)((i * j + 1) % N) / N;
      B[i][j] = (double)((i * j + 2) % N) / N;
    }
  }
  kernel_gesummv(N, 1.5, 1.2, A, B, tmp, x, y);
  for (i = 0; i < N; i++)
    printf("%d %.17g %.17g\n", i, y[i], tmp[i]);
  return 0;
}
