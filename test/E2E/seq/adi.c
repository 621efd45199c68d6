// RUN: bash %S/../run-seq.sh %s %t
// RUN: WEFT_TARGET=cuda bash %S/../run-seq.sh %s %t.cuda
// RUN: bash %S/../run-mpi.sh %s %t
/* Alternating-direction implicit sweeps: forward elimination followed by a
   back substitution loop that counts down (j = n-2 .. 1). Coefficients are
   scalars computed before the region. */
#include <stdio.h>
#include <stdlib.h>
#include <math.h>

#ifndef N
#define N 31
#endif
#ifndef TSTEPS
#define TSTEPS 5
#endif

static double u[N][N], v[N][N], p[N][N], q[N][N];

static void kernel_adi(int tsteps, int n)
{
  int t, i, j;
  double dx = 1.0 / n, dy = 1.0 / n, dt = 1.0 / tsteps;
  double b1 = 2.0, b2 = 1.0;
  double m1 = (b1 * dt) / (dx * dx);
  double m2 = (b2 * dt) / (dy * dy);
  double a = -m1 / 2.0, b = 1.0 + m1, c = a;
  double d = -m2 / 2.0, e = 1.0 + m2, f = d;

#pragma scop
  for (t = 1; t <= tsteps; t++) {
    /* column sweep */
    for (i = 1; i < n - 1; i++) {
      v[0][i] = 1.0;
      p[i][0] = 0.0;
      q[i][0] = v[0][i];
      for (j = 1; j < n - 1; j++) {
        p[i][j] = -c / (a * p[i][j - 1] + b);
        q[i][j] = (-d * u[j][i - 1] + (1.0 + 2.0 * d) * u[j][i] - f * u[j][i + 1]
                   - a * q[i][j - 1]) / (a * p[i][j - 1] + b);
      }
      v[n - 1][i] = 1.0;
      for (j = n - 2; j >= 1; j--)
        v[j][i] = p[i][j] * v[j + 1][i] + q[i][j];
    }
    /* row sweep */
    for (i = 1; i < n - 1; i++) {
      u[i][0] = 1.0;
      p[i][0] = 0.0;
      q[i][0] = u[i][0];
      for (j = 1; j < n - 1; j++) {
        p[i][j] = -f / (d * p[i][j - 1] + e);
        q[i][j] = (-a * v[i - 1][j] + (1.0 + 2.0 * a) * v[i][j] - c * v[i + 1][j]
                   - d * q[i][j - 1]) / (d * p[i][j - 1] + e);
      }
      u[i][n - 1] = 1.0;
      for (j = n - 2; j >= 1; j--)
        u[i][j] = p[i][j] * u[i][j + 1] + q[i][j];
    }
  }
#pragma endscop
}

int main(void)
{
  int i, j;

  for (i = 0; i < N; i++)
    for (j = 0; j < N; j++)
      u[i][j] = (double)(i + N - j) / N;
  kernel_adi(TSTEPS, N);
  for (i = 0; i < N; i++) {
    for (j = 0; j < N; j++)
      printf("%.17g ", u[i][j]);
    printf("\n");
  }
  for (i = 0; i < N; i += 5)
    printf("v[%d][7] = %.17g p = %.17g q = %.17g\n", i, v[i][7], p[i][7], q[i][7]);
  return 0;
}
