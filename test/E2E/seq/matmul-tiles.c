// RUN: WEFT_TARGET=cuda bash %S/../run-seq.sh %s %t
// RUN: WEFT_TARGET=cuda bash %S/../run-seq.sh %s %t.small -DNI=5 -DNJ=3 -DNK=7
// RUN: WEFT_TARGET=cuda bash %S/../run-seq.sh %s %t.tile -DNI=16 -DNJ=32 -DNK=32
/* Matrix products whose k loop gpu-stage-tiles stages in shared memory
   (docs/cuda.md, "Shared-memory tiles"), at sizes that are not multiples of
   the tiles (37 x 23 x 41 by default), smaller than one tile and exactly one
   tile: a product (A[i][k], B[k][j]), one through transposed operands
   (At[k][i], Bt[j][k]: the other layouts of the tiles), a read shared by
   the whole block (x[k]) in a k loop of step 2 from 1, and a k loop one of
   whose reads cannot be staged (P, which the nest writes elsewhere).
   mpi-cuda: test/E2E/mpi-cuda/matmul-tiles.c. */
#include <stdio.h>

#ifndef NI
#define NI 37
#endif
#ifndef NJ
#define NJ 23
#endif
#ifndef NK
#define NK 41
#endif

static double A[NI][NK], B[NK][NJ], At[NK][NI], Bt[NJ][NK], x[NK];
static double C[NI][NJ], D[NI][NJ], E[NI][NJ], P[NI][NJ + NK];

int main(void)
{
  int i, j, k;
  for (i = 0; i < NI; i++)
    for (k = 0; k < NK; k++) {
      A[i][k] = (double)((i * 7 + k * 3) % 11) / 11 - 0.5;
      At[k][i] = (double)((i * 5 + k) % 13) / 13;
    }
  for (k = 0; k < NK; k++) {
    x[k] = (double)(k % 5) / 5 + 0.25;
    for (j = 0; j < NJ; j++) {
      B[k][j] = (double)((k * 2 + j * 9) % 17) / 17;
      Bt[j][k] = (double)((k + j * 4) % 7) / 7 - 0.25;
    }
  }
  for (i = 0; i < NI; i++)
    for (j = 0; j < NJ + NK; j++)
      P[i][j] = (double)(i + j) / (NI + NJ);

#pragma scop
  for (i = 0; i < NI; i++)
    for (j = 0; j < NJ; j++) {
      C[i][j] = 0.0;
      for (k = 0; k < NK; k++)
        C[i][j] += A[i][k] * B[k][j];
    }
  for (i = 0; i < NI; i++)
    for (j = 0; j < NJ; j++) {
      D[i][j] = 1.0;
      for (k = 0; k < NK; k++)
        D[i][j] += At[k][i] * Bt[j][k];
      D[i][j] *= 0.5;
    }
  for (i = 0; i < NI; i++)
    for (j = 0; j < NJ; j++) {
      E[i][j] = C[i][j];
      for (k = 1; k < NK; k += 2)
        E[i][j] += x[k] * A[i][k - 1] + D[i][j];
    }
  for (i = 0; i < NI; i++)
    for (j = 0; j < NJ; j++) {
      P[i][j] = C[i][j];
      for (k = 0; k < NK; k++)
        P[i][j] = P[i][j] * 0.5 + P[i][NJ + k] * B[k][j];
    }
#pragma endscop

  for (i = 0; i < NI; i++) {
    for (j = 0; j < NJ; j++)
      printf("%.17g %.17g %.17g %.17g ", C[i][j], D[i][j], E[i][j], P[i][j]);
    printf("\n");
  }
  return 0;
}
