// RUN: bash %S/../run-seq.sh %s %t
// RUN: WEFT_TARGET=cuda bash %S/../run-seq.sh %s %t.cuda
// RUN: bash %S/../run-mpi.sh %s %t
/* G := (A*B)*(C*D) with three matrix products, five distinct extents passed
   as C99 VLA parameters; loop iterators declared in the for-init. */
#include <stdio.h>
#include <stdlib.h>
#include <math.h>

#ifndef NI
#define NI 19
#endif
#ifndef NJ
#define NJ 23
#endif
#ifndef NK
#define NK 29
#endif
#ifndef NL
#define NL 31
#endif
#ifndef NM
#define NM 37
#endif

static void kernel_3mm(int ni, int nj, int nk, int nl, int nm,
                       double E[ni][nj], double A[ni][nk], double B[nk][nj],
                       double F[nj][nl], double C[nj][nm], double D[nm][nl],
                       double G[ni][nl])
{
#pragma scop
  for (int i = 0; i < ni; i++)
    for (int j = 0; j < nj; j++) {
      E[i][j] = 0.0;
      for (int k = 0; k < nk; ++k)
        E[i][j] += A[i][k] * B[k][j];
    }
  for (int i = 0; i < nj; i++)
    for (int j = 0; j < nl; j++) {
      F[i][j] = 0.0;
      for (int k = 0; k < nm; ++k)
        F[i][j] += C[i][k] * D[k][j];
    }
  for (int i = 0; i < ni; i++)
    for (int j = 0; j < nl; j++) {
      G[i][j] = 0.0;
      for (int k = 0; k < nj; ++k)
        G[i][j] += E[i][k] * F[k][j];
    }
#pragma endscop
}

static double E[NI][NJ], A[NI][NK], B[NK][NJ], F[NJ][NL], C[NJ][NM], D[NM][NL], G[NI][NL];

int main(void)
{
  int i, j;

  for (i = 0; i < NI; i++)
    for (j = 0; j < NK; j++)
      A[i][j] = (double)((i * j + 1) % NI) / (5 * NI);
  for (i = 0; i < NK; i++)
    for (j = 0; j < NJ; j++)
      B[i][j] = (double)((i * (j + 1) + 2) % NJ) / (5 * NJ);
  for (i = 0; i < NJ; i++)
    for (j = 0; j < NM; j++)
      C[i][j] = (double)(i * (j + 3) % NL) / (5 * NL);
  for (i = 0; i < NM; i++)
    for (j = 0; j < NL; j++)
      D[i][j] = (double)((i * (j + 2) + 2) % NK) / (5 * NK);

  kernel_3mm(NI, NJ, NK, NL, NM, E, A, B, F, C, D, G);

  for (i = 0; i < NI; i++) {
    for (j = 0; j < NL; j++)
      printf("%.17g ", G[i][j]);
    printf("\n");
  }
  for (i = 0; i < NI; i++)
    printf("E[%d][3] = %.17g\n", i, E[i][3]);
  for (i = 0; i < NJ; i++)
    printf("F[%d][5] = %.17g\n", i, F[i][5]);
  return 0;
}
