// RUN: bash %S/../run-seq.sh %s %t
// RUN: WEFT_TARGET=cuda bash %S/../run-seq.sh %s %t.cuda
// RUN: bash %S/../run-mpi.sh %s %t
/* Gauss-Seidel nine-point stencil, in place, with the region directly in main
   over a heap array reached through a pointer to rows. */
#include <stdio.h>
#include <stdlib.h>
#include <math.h>

#ifndef N
#define N 41
#endif
#ifndef TSTEPS
#define TSTEPS 7
#endif

int main(void)
{
  double (*A)[N] = malloc(N * sizeof *A);
  int tsteps = TSTEPS, n = N;
  int t, i, j;

  if (!A)
    return 1;
  for (i = 0; i < n; i++)
    for (j = 0; j < n; j++)
      A[i][j] = ((double)i * (j + 2) + 2) / n;

#pragma scop
  for (t = 0; t <= tsteps - 1; t++)
    for (i = 1; i <= n - 2; i++)
      for (j = 1; j <= n - 2; j++)
        A[i][j] = (A[i - 1][j - 1] + A[i - 1][j] + A[i - 1][j + 1]
                   + A[i][j - 1] + A[i][j] + A[i][j + 1]
                   + A[i + 1][j - 1] + A[i + 1][j] + A[i + 1][j + 1]) / 9.0;
#pragma endscop

  for (i = 0; i < n; i++) {
    for (j = 0; j < n; j++)
      printf("%.17g%c", A[i][j], j == n - 1 ? '\n' : ' ');
  }
  free(A);
  return 0;
}
