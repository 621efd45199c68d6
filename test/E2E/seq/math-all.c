// RUN: bash %S/../run-seq.sh %s %t
// RUN: WEFT_TARGET=cuda bash %S/../run-seq.sh %s %t.cuda
// RUN: bash %S/../run-mpi.sh %s %t
// Every math library function weft maps to an MLIR op, in double and float.
#include <stdio.h>
#include <math.h>
#include <stdlib.h>
int main(void) {
  double x[10]; float y[10]; int i, k[10];
  for (i = 0; i < 10; i++) { x[i] = i * 0.37 - 1.2; y[i] = i * 0.21f - 0.9f; k[i] = i - 5; }
#pragma scop
  for (i = 0; i < 10; i++) {
    x[i] = fmod(x[i] * 7, 1.3) + round(x[i]) + trunc(x[i]*3) + asin(x[i]/4) + acos(x[i]/5) + sinh(x[i]) + cosh(x[i]) + log1p(x[i]+2) + expm1(x[i]) + copysign(1.5, x[i]) + fma(x[i], 2.0, 1.0);
    y[i] = fmodf(y[i], 0.3f) + roundf(y[i]) + fmaf(y[i], y[i], 1.0f);
    k[i] = abs(k[i]);
  }
#pragma endscop
  for (i = 0; i < 10; i++) printf("%a %a %d\n", x[i], y[i], k[i]);
  return 0;
}
