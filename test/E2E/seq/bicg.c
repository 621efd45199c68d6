// RUN: bash %S/../run-seq.sh %s %t
// RUN: WEFT_TARGET=cuda WEFT_RTOL=1e-12 bash %S/../run-seq.sh %s %t.cuda
// RUN: WEFT_RTOL=1e-12 bash %S/../run-mpi.sh %s %t
// RUN: WEFT_FLAGS=--fp-reductions=ordered bash %S/../run-mpi.sh %s %t.ordered
/* BiCG sub-kernel: s = A'*r, q = A*p, fused in one i loop. */
#include <stdio.h>
#include <stdlib.h>
#include <math.h>

#ifndef N
#define N 43
#endif
#ifndef M
#define M 39
#endif

static void kernel_bicg(int m, int n, double A[n][m], double s[m], double q[n],
                        double p[m], double r[n])
{
  int i, j;

#pragma scop
  for (i = 0; i < m; i++)
    s[i] = 0;
  for (i = 0; i < n; i++) {
    q[i] = 0.0;
    for (j = 0; j < m; j++) {
      s[j] = s[j] + r[i] * A[i][j];
      q[i] = q[i] + A[i][j] * p[j];
    }
  }
#pragma endscop
}

int main(void)
{
  double A[N][M], s[M], q[N], p[M], r[N];
  int i, j;

  for (i = 0; i < M; i++)
    p[i] = (double)(i % M) / M;
  for (i = 0; i < N; i++) {
    r[i] = (double)(i % N) / N;
    for (j = 0; j < M; j++)
      A[i][j] = (double)(i * (j + 1) % N) / N;
  }
  kernel_bicg(M, N, A, s, q, p, r);
  for (i = 0; i < M; i++)
    printf("s[%d] = %.17g\n", i, s[i]);
  for (i = 0; i < N; i++)
    printf("q[%d] = %.17g\n", i, q[i]);
  return 0;
}
