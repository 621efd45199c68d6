// RUN: bash %S/../run-seq.sh %s %t
// RUN: WEFT_TARGET=cuda WEFT_RTOL=1e-6 bash %S/../run-seq.sh %s %t.cuda
// RUN: WEFT_TARGET=cuda WEFT_FLAGS=--fp-reductions=ordered bash %S/../run-seq.sh %s %t.ordered
// RUN: bash %S/../run-mpi.sh %s %t
/* Single-precision kernel with float/double mixing and math calls: sqrtf,
   expf, fabs, pow, exp, sqrt.  float arithmetic must stay in float, double
   literals promote, and a float scalar accumulates outside-declared.
   The device sums fs in an order of its own (warp shuffles): within a
   float's rounding of the sequential result; bit for bit when ordered. */
#include <stdio.h>
#include <stdlib.h>
#include <math.h>

#ifndef N
#define N 43
#endif
#ifndef M
#define M 27
#endif

float X[N], Y[N];
float P[N][M];
double D[N];

static float kernel_float_math(int n, int m)
{
  int i, j;
  float fs = 0.0f;

#pragma scop
  for (i = 0; i < n; i++)
    Y[i] = sqrtf(X[i] * X[i] + 1.0f) - expf(-X[i] * 0.5f);
  for (i = 0; i < n; i++)
    for (j = 0; j < m; j++)
      P[i][j] = P[i][j] * 0.75f + X[i] * Y[j] / (1.0f + X[j]);
  for (i = 0; i < n; i++) {
    D[i] = pow(fabs(X[i] - 0.3), 1.5) + exp(-(double)i / n) + sqrt(D[i]);
    Y[i] = Y[i] * 0.1 + X[i];
    fs += X[i] * Y[i];
  }
  for (i = 1; i < n; i++)
    X[i] = X[i - 1] / 3.0f + (float)D[i] * 0.125f;
#pragma endscop
  return fs;
}

int main(void)
{
  int i, j;
  float fs;

  for (i = 0; i < N; i++) {
    X[i] = (float)((i * 5 + 2) % N) / N - 0.25f;
    D[i] = (double)(i % 7) + 0.5;
    for (j = 0; j < M; j++)
      P[i][j] = (float)((i * j + 1) % 11) / 11.0f;
  }
  fs = kernel_float_math(N, M);
  printf("fs = %a\n", fs);
  for (i = 0; i < N; i++)
    printf("%d X=%a Y=%a D=%a\n", i, X[i], Y[i], D[i]);
  for (i = 0; i < N; i++) {
    for (j = 0; j < M; j++)
      printf("%a ", P[i][j]);
    printf("\n");
  }
  return 0;
}
