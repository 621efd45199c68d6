// RUN: bash %S/../run-seq.sh %s %t
// RUN: WEFT_TARGET=cuda bash %S/../run-seq.sh %s %t.cuda
// RUN: bash %S/../run-mpi.sh %s %t
/* Loops with non-unit constant steps (+3, +2, -2, +4, +5), if/else with
   affine conditions, and every compound assignment (+=, -=, *=, /=). The
   region runs twice: the second time the other ranks' copies count as
   stale, and what the region reads of A first comes from rank 0 through a
   table of overlapping pieces (ISL cannot split this union of strided
   pieces into disjoint ones within weft's quota; the unit test
   ElementSets.OverlappingPieces checks such walks element by element). */
#include <stdio.h>
#include <stdlib.h>
#include <math.h>

#ifndef N
#define N 37
#endif
#ifndef M
#define M 41
#endif

static void kernel_steps(int n, int m, double A[n][m], double v[m])
{
  int i, j;

#pragma scop
  for (i = 0; i < n; i += 3)
    for (j = 1; j < m; j += 2)
      A[i][j] *= 1.5;
  for (i = n - 1; i >= 0; i -= 2)
    for (j = 0; j < m; j++) {
      if (i + j <= m)
        A[i][j] -= 0.25 * j;
      else
        A[i][j] /= 2.0;
    }
  for (i = 2; i < n - 2; i = i + 4)
    for (j = i; j < m; j += 5) {
      if (2 * i >= j + 3 && j < n)
        A[i][j] += A[i - 2][j] * 0.5;
      if (j - i > 6)
        A[i][j] -= A[i + 1][j - 1];
    }
  for (j = 0; j < m; j++) {
    v[j] = 1.0;
    for (i = 1; i < n; i += 2) {
      v[j] *= 1.0 + A[i][j] / 64.0;
      if (i >= 7)
        v[j] += A[i - 7][j];
    }
    v[j] /= 3.0;
  }
#pragma endscop
}

int main(void)
{
  static double A[N][M];
  double v[M];
  int i, j;

  for (i = 0; i < N; i++)
    for (j = 0; j < M; j++)
      A[i][j] = (double)((i * 11 + j * 3) % 23) / 23.0 + 1.0;
  kernel_steps(N, M, A, v);
  kernel_steps(N, M, A, v);
  for (i = 0; i < N; i++) {
    for (j = 0; j < M; j++)
      printf("%.17g ", A[i][j]);
    printf("\n");
  }
  for (j = 0; j < M; j++)
    printf("v[%d] = %.17g\n", j, v[j]);
  return 0;
}
