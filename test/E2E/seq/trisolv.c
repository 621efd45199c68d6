// RUN: bash %S/../run-seq.sh %s %t
// RUN: WEFT_TARGET=cuda bash %S/../run-seq.sh %s %t.cuda
// RUN: bash %S/../run-mpi.sh %s %t
/* Forward substitution L*x = b for a lower-triangular heap matrix. */
#include <stdio.h>
#include <stdlib.h>
#include <math.h>

#ifndef N
#define N 73
#endif

static void kernel_trisolv(int n, double (*L)[N], double *x, double *b)
{
  int i, j;

#pragma scop
  for (i = 0; i < n; i++) {
    x[i] = b[i];
    for (j = 0; j < i; j++)
      x[i] -= L[i][j] * x[j];
    x[i] = x[i] / L[i][i];
  }
#pragma endscop
}

int main(void)
{
  double (*L)[N] = malloc(N * sizeof *L);
  double *x = malloc(N * sizeof *x);
  double *b = malloc(N * sizeof *b);
  int i, j;

  if (!L || !x || !b)
    return 1;
  for (i = 0; i < N; i++) {
    x[i] = -999;
    b[i] = i;
    for (j = 0; j <= i; j++)
      L[i][j] = (double)(i + N - j + 1) * 2 / N;
  }
  kernel_trisolv(N, L, x, b);
  for (i = 0; i < N; i++)
    printf("x[%d] = %.17g\n", i, x[i]);
  free(L);
  free(x);
  free(b);
  return 0;
}
