// RUN: bash %S/../run-seq.sh %s %t
// RUN: WEFT_TARGET=cuda WEFT_RTOL=1e-12 bash %S/../run-seq.sh %s %t.cuda
// RUN: WEFT_TARGET=cuda WEFT_FLAGS=--fp-reductions=ordered bash %S/../run-seq.sh %s %t.cuda-ordered
// RUN: bash %S/../run-mpi.sh %s %t
/* Multi-resolution analysis kernel: a 3-D array on main's stack contracted
   with a 2-D matrix through a 1-D temporary. */
#include <stdio.h>
#include <stdlib.h>
#include <math.h>

#ifndef NR
#define NR 11
#endif
#ifndef NQ
#define NQ 13
#endif
#ifndef NP
#define NP 17
#endif

int main(void)
{
  double A[NR][NQ][NP], C4[NP][NP], sum[NP];
  int r, q, p, s;

  for (r = 0; r < NR; r++)
    for (q = 0; q < NQ; q++)
      for (p = 0; p < NP; p++)
        A[r][q][p] = (double)((r * q + p) % NP) / NP;
  for (p = 0; p < NP; p++)
    for (s = 0; s < NP; s++)
      C4[p][s] = (double)(p * s % NP) / NP;

#pragma scop
  for (r = 0; r < NR; r++)
    for (q = 0; q < NQ; q++) {
      for (p = 0; p < NP; p++) {
        sum[p] = 0.0;
        for (s = 0; s < NP; s++)
          sum[p] += A[r][q][s] * C4[s][p];
      }
      for (p = 0; p < NP; p++)
        A[r][q][p] = sum[p];
    }
#pragma endscop

  for (r = 0; r < NR; r++)
    for (q = 0; q < NQ; q++) {
      for (p = 0; p < NP; p++)
        printf("%.17g ", A[r][q][p]);
      printf("\n");
    }
  for (p = 0; p < NP; p++)
    printf("sum[%d] = %.17g\n", p, sum[p]);
  return 0;
}
