/* bench/generated-c.sh SIZES=large: test/E2E/seq/gemm.c with a checksum
   instead of its arrays as output, so that timing the MPI program does not
   time mpirun forwarding hundreds of MB of text, and the region's own time
   on stderr (region-time.h). */
/* C := alpha*A*B + beta*C with the region directly in main. */
#include <stdio.h>
#include <stdlib.h>
#include <math.h>
#include "region-time.h"

#ifndef NI
#define NI 37
#endif
#ifndef NJ
#define NJ 41
#endif
#ifndef NK
#define NK 43
#endif

static double A[NI][NK], B[NK][NJ], C[NI][NJ];

int main(void)
{
  double alpha = 1.5, beta = 1.2;
  int ni = NI, nj = NJ, nk = NK;
  int i, j, k;
  double sum = 0.0;

  for (i = 0; i < ni; i++)
    for (j = 0; j < nj; j++)
      C[i][j] = (double)((i * j + 1) % ni) / ni;
  for (i = 0; i < ni; i++)
    for (k = 0; k < nk; k++)
      A[i][k] = (double)(i * (k + 1) % nk) / nk;
  for (k = 0; k < nk; k++)
    for (j = 0; j < nj; j++)
      B[k][j] = (double)(k * (j + 2) % nj) / nj;

  double start = region_clock();
#pragma scop
  for (i = 0; i < ni; i++) {
    for (j = 0; j < nj; j++)
      C[i][j] *= beta;
    for (k = 0; k < nk; k++)
      for (j = 0; j < nj; j++)
        C[i][j] += alpha * A[i][k] * B[k][j];
  }
#pragma endscop
  region_report(start);

  for (i = 0; i < ni; i++)
    for (j = 0; j < nj; j++)
      sum += C[i][j];
  printf("checksum %.17g\n", sum);
  return 0;
}
