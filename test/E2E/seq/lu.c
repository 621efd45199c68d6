// RUN: bash %S/../run-seq.sh %s %t
// RUN: WEFT_TARGET=cuda bash %S/../run-seq.sh %s %t.cuda
// RUN: bash %S/../run-mpi.sh %s %t
/* In-place LU decomposition without pivoting on a diagonally dominant global
   matrix; triangular loop bounds that depend on two outer iterators. */
#include <stdio.h>
#include <stdlib.h>
#include <math.h>

#ifndef N
#define N 47
#endif

double A[N][N];

static void kernel_lu(int n)
{
  int i, j, k;

#pragma scop
  for (i = 0; i < n; i++) {
    for (j = 0; j < i; j++) {
      for (k = 0; k < j; k++)
        A[i][j] -= A[i][k] * A[k][j];
      A[i][j] /= A[j][j];
    }
    for (j = i; j < n; j++)
      for (k = 0; k < i; k++)
        A[i][j] -= A[i][k] * A[k][j];
  }
#pragma endscop
}

int main(void)
{
  int i, j;

  for (i = 0; i < N; i++) {
    for (j = 0; j < N; j++)
      A[i][j] = (double)((i * 3 + j * 5 + 1) % N) / N - 0.5;
    A[i][i] += N;
  }
  kernel_lu(N);
  for (i = 0; i < N; i++) {
    for (j = 0; j < N; j++)
      printf("%.17g ", A[i][j]);
    printf("\n");
  }
  return 0;
}
