// RUN: bash %S/../run-seq.sh %s %t
// RUN: WEFT_TARGET=cuda bash %S/../run-seq.sh %s %t.cuda
// RUN: bash %S/../run-mpi.sh %s %t
/* Less common <math.h> calls inside a region, double and float flavours:
   floor, ceil, fmin, fmax, sin, cos, log, tanh, atan2, log10, cbrt, erf,
   sinf, logf, floorf, fabsf, powf.  (fmod, hypot, round, trunc, asin, acos,
   sinh, cosh, log1p, expm1, copysign and fma are rejected by weft today.) */
#include <stdio.h>
#include <stdlib.h>
#include <math.h>

#ifndef N
#define N 59
#endif

static void kernel_math_more(int n, double x[n], double y[n], float xf[n], float yf[n])
{
  int i;

#pragma scop
  for (i = 0; i < n; i++) {
    y[i] = floor(x[i] * 3.5) + ceil(x[i] - 0.25) + fmin(x[i], 0.5) * fmax(x[i], -0.5);
    y[i] += sin(x[i]) * cos(2.0 * x[i]) + log(1.0 + x[i] * x[i]) - tanh(x[i]);
    y[i] = y[i] + log10(2.5 + x[i]) * cbrt(x[i] * 7.0) + atan2(x[i], 1.0 + i) - erf(x[i]);
  }
  for (i = 0; i < n; i++) {
    yf[i] = sinf(xf[i]) + logf(2.0f + xf[i]) * floorf(xf[i] * 4.0f);
    yf[i] = yf[i] - fabsf(xf[i] - 0.5f) + powf(1.5f, xf[i]);
  }
#pragma endscop
}

int main(void)
{
  double x[N], y[N];
  float xf[N], yf[N];
  int i;

  for (i = 0; i < N; i++) {
    x[i] = (double)((i * 17 + 5) % N) / N * 4.0 - 2.0;
    xf[i] = (float)((i * 11 + 3) % N) / N * 3.0f - 1.0f;
  }
  kernel_math_more(N, x, y, xf, yf);
  for (i = 0; i < N; i++)
    printf("%d %.17g %a\n", i, y[i], yf[i]);
  return 0;
}
