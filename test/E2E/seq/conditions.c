// RUN: bash %S/../run-seq.sh %s %t
// RUN: WEFT_TARGET=cuda bash %S/../run-seq.sh %s %t.cuda
// RUN: bash %S/../run-mpi.sh %s %t
/* Harder control flow inside a region: if/else-if chains, conditions with
   ||, !, == and !=, modulo conditions on iterators, ?: in subscripts, and a
   loop whose bounds use integer division of an iterator. */
#include <stdio.h>
#include <stdlib.h>
#include <math.h>

#ifndef N
#define N 29
#endif
#ifndef M
#define M 33
#endif

static void kernel_conditions(int n, int m, double A[n][m], int K[n][m])
{
  int i, j;

#pragma scop
  for (i = 0; i < n; i++)
    for (j = 0; j < m; j++) {
      if (i == j)
        A[i][j] = 10.0;
      else if (i < j || j == 0)
        A[i][j] = A[i][j] + i - j;
      else
        A[i][j] = -A[i][j];
      if (!(i + j < 5) && i != 3)
        K[i][j] = K[i][j] + 1;
      if (j % 3 == 1)
        K[i][j] = K[i][j] * 2;
    }
  for (i = 1; i < n; i++)
    for (j = 0; j < m; j++)
      A[i][j] += 0.5 * A[i - 1][j > i ? j : i];
  for (i = 0; i < n; i++)
    for (j = i / 2; j <= (i + m) / 3 && j < m; j++)
      K[i][j] -= i + 2 * j;
#pragma endscop
}

int main(void)
{
  static double A[N][M];
  static int K[N][M];
  int i, j;

  for (i = 0; i < N; i++)
    for (j = 0; j < M; j++) {
      A[i][j] = (double)((i + 2 * j) % 7) / 7.0;
      K[i][j] = (i * j) % 5;
    }
  kernel_conditions(N, M, A, K);
  for (i = 0; i < N; i++) {
    for (j = 0; j < M; j++)
      printf("%.17g:%d ", A[i][j], K[i][j]);
    printf("\n");
  }
  return 0;
}
