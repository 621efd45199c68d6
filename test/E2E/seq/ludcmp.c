// RUN: bash %S/../run-seq.sh %s %t
// RUN: WEFT_TARGET=cuda bash %S/../run-seq.sh %s %t.cuda
// RUN: bash %S/../run-mpi.sh %s %t
/* LU decomposition with a scalar accumulator w (declared at function top),
   then forward substitution and a backward substitution whose outer loop
   counts down: for (i = n-1; i >= 0; i--). */
#include <stdio.h>
#include <stdlib.h>
#include <math.h>

#ifndef N
#define N 53
#endif

static void kernel_ludcmp(int n, double A[N][N], double b[N], double x[N], double y[N])
{
  int i, j, k;
  double w;

#pragma scop
  for (i = 0; i < n; i++) {
    for (j = 0; j < i; j++) {
      w = A[i][j];
      for (k = 0; k < j; k++)
        w -= A[i][k] * A[k][j];
      A[i][j] = w / A[j][j];
    }
    for (j = i; j < n; j++) {
      w = A[i][j];
      for (k = 0; k < i; k++)
        w -= A[i][k] * A[k][j];
      A[i][j] = w;
    }
  }
  for (i = 0; i < n; i++) {
    w = b[i];
    for (j = 0; j < i; j++)
      w -= A[i][j] * y[j];
    y[i] = w;
  }
  for (i = n - 1; i >= 0; i--) {
    w = y[i];
    for (j = i + 1; j < n; j++)
      w -= A[i][j] * x[j];
    x[i] = w / A[i][i];
  }
#pragma endscop
}

int main(void)
{
  double A[N][N], b[N], x[N], y[N];
  int i, j;

  for (i = 0; i < N; i++) {
    x[i] = 0;
    y[i] = 0;
    b[i] = (i + 1) / (double)N / 2.0 + 4;
    for (j = 0; j < N; j++)
      A[i][j] = (double)((i * 7 + j * 3) % 11) / 11.0 - 0.25;
    A[i][i] += N / 2;
  }
  kernel_ludcmp(N, A, b, x, y);
  for (i = 0; i < N; i++)
    printf("x[%d] = %.17g y = %.17g\n", i, x[i], y[i]);
  for (i = 0; i < N; i++) {
    double s = 0.0;
    for (j = 0; j < N; j++)
      s += A[i][j];
    printf("LU row %d: %.17g diag %.17g\n", i, s, A[i][i]);
  }
  return 0;
}
