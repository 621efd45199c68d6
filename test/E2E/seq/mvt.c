// RUN: bash %S/../run-seq.sh %s %t
// RUN: WEFT_TARGET=cuda WEFT_RTOL=1e-12 bash %S/../run-seq.sh %s %t.cuda
// RUN: WEFT_TARGET=cuda WEFT_FLAGS=--fp-reductions=ordered bash %S/../run-seq.sh %s %t.cuda-ordered
// RUN: bash %S/../run-mpi.sh %s %t
/* Matrix-vector product and transpose: x1 += A*y1, x2 += A'*y2. */
#include <stdio.h>
#include <stdlib.h>
#include <math.h>

#ifndef N
#define N 61
#endif

double A[N][N];
double x1[N], x2[N], y_1[N], y_2[N];

static void kernel_mvt(int n)
{
  int i, j;

#pragma scop
  for (i = 0; i < n; i++)
    for (j = 0; j < n; j++)
      x1[i] = x1[i] + A[i][j] * y_1[j];
  for (i = 0; i < n; i++)
    for (j = 0; j < n; j++)
      x2[i] = x2[i] + A[j][i] * y_2[j];
#pragma endscop
}

int main(void)
{
  int i, j;

  for (i = 0; i < N; i++) {
    x1[i] = (double)(i % N) / N;
    x2[i] = (double)((i + 1) % N) / N;
    y_1[i] = (double)((i + 3) % N) / N;
    y_2[i] = (double)((i + 4) % N) / N;
    for (j = 0; j < N; j++)
      A[i][j] = (double)(i * j % N) / N;
  }
  kernel_mvt(N);
  for (i = 0; i < N; i++)
    printf("%d %.17g %.17g\n", i, x1[i], x2[i]);
  return 0;
}
