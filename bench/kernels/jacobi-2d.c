/* bench/generated-c.sh SIZES=large: test/E2E/seq/jacobi-2d.c with a checksum
   instead of its arrays as output, so that timing the MPI program does not
   time mpirun forwarding hundreds of MB of text, and the region's own time
   on stderr (region-time.h). */
/* 2-D five-point Jacobi stencil; the arrays reach the kernel as C99 VLA
   parameters. */
#include <stdio.h>
#include <stdlib.h>
#include <math.h>
#include "region-time.h"

#ifndef N
#define N 37
#endif
#ifndef TSTEPS
#define TSTEPS 11
#endif

static void kernel_jacobi_2d(int tsteps, int n, double A[n][n], double B[n][n])
{
  int t, i, j;

#pragma scop
  for (t = 0; t < tsteps; t++) {
    for (i = 1; i < n - 1; i++)
      for (j = 1; j < n - 1; j++)
        B[i][j] = 0.2 * (A[i][j] + A[i][j - 1] + A[i][1 + j] + A[1 + i][j] + A[i - 1][j]);
    for (i = 1; i < n - 1; i++)
      for (j = 1; j < n - 1; j++)
        A[i][j] = 0.2 * (B[i][j] + B[i][j - 1] + B[i][1 + j] + B[1 + i][j] + B[i - 1][j]);
  }
#pragma endscop
}

static double A[N][N], B[N][N];

int main(void)
{
  int i, j;
  double sum = 0.0;

  for (i = 0; i < N; i++)
    for (j = 0; j < N; j++) {
      A[i][j] = ((double)i * (j + 2) + 2) / N;
      B[i][j] = ((double)i * (j + 3) + 3) / N;
    }
  double start = region_clock();
  kernel_jacobi_2d(TSTEPS, N, A, B);
  region_report(start);
  for (i = 0; i < N; i++)
    for (j = 0; j < N; j++)
      sum += A[i][j] + 0.5 * B[i][j];
  printf("checksum %.17g\n", sum);
  return 0;
}
