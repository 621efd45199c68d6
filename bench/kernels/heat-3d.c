/* bench/generated-c.sh SIZES=large: test/E2E/seq/heat-3d.c with a checksum
   instead of its arrays as output, so that timing the MPI program does not
   time mpirun forwarding hundreds of MB of text, and the region's own time
   on stderr (region-time.h). */
/* 3-D heat equation, seven-point stencil, time loop with an inclusive upper
   bound, global 3-D arrays indexed with the macro size inside the region. */
#include <stdio.h>
#include <stdlib.h>
#include <math.h>
#include "region-time.h"

#ifndef N
#define N 13
#endif
#ifndef TSTEPS
#define TSTEPS 9
#endif

double A[N][N][N];
double B[N][N][N];

static void kernel_heat_3d(int tsteps)
{
  int t, i, j, k;

#pragma scop
  for (t = 1; t <= tsteps; t++) {
    for (i = 1; i < N - 1; i++)
      for (j = 1; j < N - 1; j++)
        for (k = 1; k < N - 1; k++)
          B[i][j][k] = 0.125 * (A[i + 1][j][k] - 2.0 * A[i][j][k] + A[i - 1][j][k])
                     + 0.125 * (A[i][j + 1][k] - 2.0 * A[i][j][k] + A[i][j - 1][k])
                     + 0.125 * (A[i][j][k + 1] - 2.0 * A[i][j][k] + A[i][j][k - 1])
                     + A[i][j][k];
    for (i = 1; i < N - 1; i++)
      for (j = 1; j < N - 1; j++)
        for (k = 1; k < N - 1; k++)
          A[i][j][k] = 0.125 * (B[i + 1][j][k] - 2.0 * B[i][j][k] + B[i - 1][j][k])
                     + 0.125 * (B[i][j + 1][k] - 2.0 * B[i][j][k] + B[i][j - 1][k])
                     + 0.125 * (B[i][j][k + 1] - 2.0 * B[i][j][k] + B[i][j][k - 1])
                     + B[i][j][k];
  }
#pragma endscop
}

int main(void)
{
  int i, j, k;
  double sum = 0.0;

  for (i = 0; i < N; i++)
    for (j = 0; j < N; j++)
      for (k = 0; k < N; k++)
        A[i][j][k] = B[i][j][k] = (double)(i + j + (N - k)) * 10 / N;
  double start = region_clock();
  kernel_heat_3d(TSTEPS);
  region_report(start);
  for (i = 0; i < N; i++)
    for (j = 0; j < N; j++)
      for (k = 0; k < N; k++)
        sum += A[i][j][k] + 0.5 * B[i][j][k];
  printf("checksum %.17g\n", sum);
  return 0;
}
