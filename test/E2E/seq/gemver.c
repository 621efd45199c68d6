// RUN: bash %S/../run-seq.sh %s %t
// RUN: WEFT_TARGET=cuda WEFT_RTOL=1e-12 bash %S/../run-seq.sh %s %t.cuda
// RUN: WEFT_TARGET=cuda WEFT_FLAGS=--fp-reductions=ordered bash %S/../run-seq.sh %s %t.cuda-ordered
// RUN: bash %S/../run-mpi.sh %s %t
/* Vector multiplication and matrix addition: A += u1*v1' + u2*v2',
   x += beta*A'*y + z, w += alpha*A*x.  Global 1-D and 2-D arrays. */
#include <stdio.h>
#include <stdlib.h>
#include <math.h>

#ifndef N
#define N 53
#endif

double A[N][N];
double u1[N], v1[N], u2[N], v2[N], w[N], x[N], y[N], z[N];

static void kernel_gemver(int n, double alpha, double beta)
{
  int i, j;

#pragma scop
  for (i = 0; i < n; i++)
    for (j = 0; j < n; j++)
      A[i][j] = A[i][j] + u1[i] * v1[j] + u2[i] * v2[j];

  for (i = 0; i < n; i++)
    for (j = 0; j < n; j++)
      x[i] = x[i] + beta * A[j][i] * y[j];

  for (i = 0; i < n; i++)
    x[i] = x[i] + z[i];

  for (i = 0; i < n; i++)
    for (j = 0; j < n; j++)
      w[i] = w[i] + alpha * A[i][j] * x[j];
#pragma endscop
}

int main(void)
{
  int i, j;
  double fn = (double)N;

  for (i = 0; i < N; i++) {
    u1[i] = i;
    u2[i] = ((i + 1) / fn) / 2.0;
    v1[i] = ((i + 1) / fn) / 4.0;
    v2[i] = ((i + 1) / fn) / 6.0;
    y[i] = ((i + 1) / fn) / 8.0;
    z[i] = ((i + 1) / fn) / 9.0;
    x[i] = 0.0;
    w[i] = 0.0;
    for (j = 0; j < N; j++)
      A[i][j] = (double)(i * j % N) / N;
  }
  kernel_gemver(N, 1.5, 1.2);
  for (i = 0; i < N; i++)
    printf("%d w=%.17g x=%.17g A[i][i]=%.17g\n", i, w[i], x[i], A[i][i]);
  for (i = 0; i < N; i++) {
    double s = 0.0;
    for (j = 0; j < N; j++)
      s += A[i][j] * (j + 1);
    printf("row %d %.17g\n", i, s);
  }
  return 0;
}
