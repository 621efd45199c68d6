// RUN: bash %S/../run-seq.sh %s %t
// RUN: WEFT_TARGET=cuda WEFT_RTOL=1e-12 bash %S/../run-seq.sh %s %t.cuda
// RUN: WEFT_RTOL=1e-12 bash %S/../run-mpi.sh %s %t
// RUN: WEFT_FLAGS=--fp-reductions=ordered bash %S/../run-mpi.sh %s %t.ordered
/* y = A'*(A*x) with a non-square global matrix. */
#include <stdio.h>
#include <stdlib.h>
#include <math.h>

#ifndef M
#define M 47
#endif
#ifndef N
#define N 59
#endif

double A[M][N];
double x[N], y[N], tmp[M];

static void kernel_atax(int m, int n)
{
  int i, j;

#pragma scop
  for (i = 0; i < n; i++)
    y[i] = 0;
  for (i = 0; i < m; i++) {
    tmp[i] = 0.0;
    for (j = 0; j < n; j++)
      tmp[i] = tmp[i] + A[i][j] * x[j];
    for (j = 0; j < n; j++)
      y[j] = y[j] + A[i][j] * tmp[i];
  }
#pragma endscop
}

int main(void)
{
  int i, j;
  double fn = (double)N;

  for (i = 0; i < N; i++)
    x[i] = 1 + (i / fn);
  for (i = 0; i < M; i++)
    for (j = 0; j < N; j++)
      A[i][j] = (double)((i + j) % N) / (5 * M);
  kernel_atax(M, N);
  for (i = 0; i < N; i++)
    printf("y[%d] = %.17g\n", i, y[i]);
  for (i = 0; i < M; i++)
    printf("tmp[%d] = %.17g\n", i, tmp[i]);
  return 0;
}
