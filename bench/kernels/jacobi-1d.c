/* bench/generated-c.sh SIZES=large: test/E2E/seq/jacobi-1d.c with a checksum
   instead of its arrays as output, so that timing the MPI program does not
   time mpirun forwarding hundreds of MB of text, and the region's own time
   on stderr (region-time.h). */
/* 1-D three-point Jacobi stencil with a time loop over global arrays. */
#include <stdio.h>
#include <stdlib.h>
#include <math.h>
#include "region-time.h"

#ifndef N
#define N 101
#endif
#ifndef TSTEPS
#define TSTEPS 23
#endif

static double A[N];
static double B[N];

static void init(int n)
{
  int i;
  for (i = 0; i < n; i++) {
    A[i] = (double)((i * 7 + 3) % n) / n;
    B[i] = (double)((i * 5 + 11) % n) / (2 * n);
  }
}

static void kernel_jacobi_1d(int tsteps, int n)
{
  int t, i;

#pragma scop
  for (t = 0; t < tsteps; t++) {
    for (i = 1; i < n - 1; i++)
      B[i] = 0.33333 * (A[i - 1] + A[i] + A[i + 1]);
    for (i = 1; i < n - 1; i++)
      A[i] = 0.33333 * (B[i - 1] + B[i] + B[i + 1]);
  }
#pragma endscop
}

int main(void)
{
  int i;
  double sum = 0.0;
  init(N);
  double start = region_clock();
  kernel_jacobi_1d(TSTEPS, N);
  region_report(start);
  for (i = 0; i < N; i++)
    sum += A[i] + 0.5 * B[i];
  printf("checksum %.17g\n", sum);
  return 0;
}
