// RUN: bash %S/../run-seq.sh %s %t
// RUN: WEFT_TARGET=cuda bash %S/../run-seq.sh %s %t.cuda
// RUN: WEFT_TARGET=cuda bash %S/../run-seq.sh %s %t.cuda-odd -DNI=33 -DNJ=17 -DNK=1
// RUN: bash %S/../run-mpi.sh %s %t
/* C := alpha*A*B + beta*C with the region directly in main over stack
   arrays of three distinct odd extents. */
#include <stdio.h>
#include <stdlib.h>
#include <math.h>

#ifndef NI
#define NI 37
#endif
#ifndef NJ
#define NJ 41
#endif
#ifndef NK
#define NK 43
#endif

int main(void)
{
  double A[NI][NK], B[NK][NJ], C[NI][NJ];
  double alpha = 1.5, beta = 1.2;
  int ni = NI, nj = NJ, nk = NK;
  int i, j, k;

  for (i = 0; i < ni; i++)
    for (j = 0; j < nj; j++)
      C[i][j] = (double)((i * j + 1) % ni) / ni;
  for (i = 0; i < ni; i++)
    for (k = 0; k < nk; k++)
      A[i][k] = (double)(i * (k + 1) % nk) / nk;
  for (k = 0; k < nk; k++)
    for (j = 0; j < nj; j++)
      B[k][j] = (double)(k * (j + 2) % nj) / nj;

#pragma scop
  for (i = 0; i < ni; i++) {
    for (j = 0; j < nj; j++)
      C[i][j] *= beta;
    for (k = 0; k < nk; k++)
      for (j = 0; j < nj; j++)
        C[i][j] += alpha * A[i][k] * B[k][j];
  }
#pragma endscop

  for (i = 0; i < ni; i++) {
    for (j = 0; j < nj; j++)
      printf("%.17g ", C[i][j]);
    printf("\n");
  }
  return 0;
}
