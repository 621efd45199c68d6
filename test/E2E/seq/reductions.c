// RUN: bash %S/../run-seq.sh %s %t
// RUN: WEFT_TARGET=cuda WEFT_RTOL=1e-12 bash %S/../run-seq.sh %s %t.cuda
// RUN: WEFT_TARGET=cuda WEFT_FLAGS=--fp-reductions=ordered bash %S/../run-seq.sh %s %t.cuda-ordered
// RUN: WEFT_RTOL=1e-12 bash %S/../run-mpi.sh %s %t
// RUN: WEFT_FLAGS=--fp-reductions=ordered bash %S/../run-mpi.sh %s %t.ordered
/* Reductions into scalars declared outside the region (sum, sum of squares,
   max/min via ?:, product, an int counter) and loop bounds written as min/max
   ternaries of affine expressions. */
#include <stdio.h>
#include <stdlib.h>
#include <math.h>

#ifndef N
#define N 37
#endif
#ifndef M
#define M 53
#endif

static void kernel_reduce(int n, int m, double A[n][m], double win[n], double band[n])
{
  int i, j;
  double sum = 0.0, sumsq = 0.0, mx = -1.0e300, mn = 1.0e300;
  double prod = 1.0;
  int cnt = 0;

#pragma scop
  for (i = 0; i < n; i++)
    for (j = 0; j < m; j++) {
      sum += A[i][j];
      sumsq = sumsq + A[i][j] * A[i][j];
      mx = A[i][j] > mx ? A[i][j] : mx;
      mn = (mn < A[i][j]) ? mn : A[i][j];
      cnt += A[i][j] > 0.5 ? 1 : 0;
    }
  for (i = 0; i < n; i++) {
    win[i] = 0.0;
    for (j = (i > 2 ? i : 2); j < (m < i + 5 ? m : i + 5); j++)
      win[i] += A[i][j];
  }
  for (i = 0; i < n; i++) {
    band[i] = 0.0;
    for (j = (i - 3 > 0 ? i - 3 : 0); j <= (i + 3 < m - 1 ? i + 3 : m - 1); j++)
      band[i] = band[i] + (j - i) * A[i][j];
  }
  for (i = 0; i < n; i += 3)
    prod *= 1.0 + A[i][0] / 8.0;
#pragma endscop

  printf("sum = %.17g\nsumsq = %.17g\nmax = %.17g\nmin = %.17g\n", sum, sumsq, mx, mn);
  printf("prod = %.17g\ncnt = %d\n", prod, cnt);
}

int main(void)
{
  static double A[N][M];
  double win[N], band[N];
  int i, j;

  for (i = 0; i < N; i++)
    for (j = 0; j < M; j++)
      A[i][j] = (double)((i * 13 + j * 7 + 5) % 29) / 29.0 - (double)((i + j) % 3) / 7.0;
  kernel_reduce(N, M, A, win, band);
  for (i = 0; i < N; i++)
    printf("%d %.17g %.17g\n", i, win[i], band[i]);
  return 0;
}
