// RUN: bash %S/../run-seq.sh %s %t
// RUN: WEFT_TARGET=cuda WEFT_RTOL=1e-12 bash %S/../run-seq.sh %s %t.cuda
// RUN: bash %S/../run-mpi.sh %s %t
/* Levinson-Durbin recursion: scalars alpha, beta, sum declared outside the
   region and carried across iterations; reversed index k-i-1. */
#include <stdio.h>
#include <stdlib.h>
#include <math.h>

#ifndef N
#define N 59
#endif

static void kernel_durbin(int n, double r[n], double y[n])
{
  double z[N];
  double alpha, beta, sum;
  int i, k;

#pragma scop
  y[0] = -r[0];
  beta = 1.0;
  alpha = -r[0];
  for (k = 1; k < n; k++) {
    beta = (1 - alpha * alpha) * beta;
    sum = 0.0;
    for (i = 0; i < k; i++)
      sum += r[k - i - 1] * y[i];
    alpha = -(r[k] + sum) / beta;
    for (i = 0; i < k; i++)
      z[i] = y[i] + alpha * y[k - i - 1];
    for (i = 0; i < k; i++)
      y[i] = z[i];
    y[k] = alpha;
  }
#pragma endscop
  printf("alpha = %.17g beta = %.17g sum = %.17g\n", alpha, beta, sum);
}

int main(void)
{
  double r[N], y[N];
  int i;

  for (i = 0; i < N; i++)
    r[i] = 0.5 / (i + 2) + (double)(i % 3) / 100.0;
  kernel_durbin(N, r, y);
  for (i = 0; i < N; i++)
    printf("y[%d] = %.17g\n", i, y[i]);
  return 0;
}
