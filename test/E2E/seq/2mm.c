// RUN: bash %S/../run-seq.sh %s %t
// RUN: WEFT_TARGET=cuda bash %S/../run-seq.sh %s %t.cuda
// RUN: bash %S/../run-mpi.sh %s %t
/* D := alpha*A*B*C + beta*D via a temporary product; all arrays on the heap,
   reached through pointers to rows (double (*X)[M] = malloc(...)). */
#include <stdio.h>
#include <stdlib.h>
#include <math.h>

#ifndef NI
#define NI 31
#endif
#ifndef NJ
#define NJ 37
#endif
#ifndef NK
#define NK 41
#endif
#ifndef NL
#define NL 43
#endif

static void kernel_2mm(double alpha, double beta, double (*tmp)[NJ], double (*A)[NK],
                       double (*B)[NJ], double (*C)[NL], double (*D)[NL])
{
  int i, j, k;

#pragma scop
  for (i = 0; i < NI; i++)
    for (j = 0; j < NJ; j++) {
      tmp[i][j] = 0.0;
      for (k = 0; k < NK; ++k)
        tmp[i][j] += alpha * A[i][k] * B[k][j];
    }
  for (i = 0; i < NI; i++)
    for (j = 0; j < NL; j++) {
      D[i][j] *= beta;
      for (k = 0; k < NJ; ++k)
        D[i][j] += tmp[i][k] * C[k][j];
    }
#pragma endscop
}

int main(void)
{
  double (*tmp)[NJ] = malloc(sizeof(double[NI][NJ]));
  double (*A)[NK] = malloc(sizeof(double[NI][NK]));
  double (*B)[NJ] = malloc(sizeof(double[NK][NJ]));
  double (*C)[NL] = malloc(sizeof(double[NJ][NL]));
  double (*D)[NL] = malloc(sizeof(double[NI][NL]));
  int i, j;

  if (!tmp || !A || !B || !C || !D)
    return 1;
  for (i = 0; i < NI; i++)
    for (j = 0; j < NK; j++)
      A[i][j] = (double)((i * j + 1) % NI) / NI;
  for (i = 0; i < NK; i++)
    for (j = 0; j < NJ; j++)
      B[i][j] = (double)(i * (j + 1) % NJ) / NJ;
  for (i = 0; i < NJ; i++)
    for (j = 0; j < NL; j++)
      C[i][j] = (double)((i * (j + 3) + 1) % NL) / NL;
  for (i = 0; i < NI; i++)
    for (j = 0; j < NL; j++)
      D[i][j] = (double)(i * (j + 2) % NK) / NK;

  kernel_2mm(1.5, 1.2, tmp, A, B, C, D);

  for (i = 0; i < NI; i++) {
    for (j = 0; j < NL; j++)
      printf("%.17g ", D[i][j]);
    printf("\n");
  }
  for (i = 0; i < NI; i++) {
    double s = 0.0;
    for (j = 0; j < NJ; j++)
      s += tmp[i][j];
    printf("tmp row %d: %.17g\n", i, s);
  }
  free(tmp); free(A); free(B); free(C); free(D);
  return 0;
}
