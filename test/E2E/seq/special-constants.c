// RUN: bash %S/../run-seq.sh %s %t
// RUN: WEFT_TARGET=cuda bash %S/../run-seq.sh %s %t.cuda
// RUN: bash %S/../run-mpi.sh %s %t
// Constants C cannot spell directly (INT64_MIN, infinity) and a NaN computed
// at run time (0.0 / 0.0 is -nan on x86, +nan if folded at compile time).
#include <stdio.h>
#include <math.h>
int main(void) {
  long a[4] = {1, 2, 3, 4};
  double d[4] = {1, 2, 3, 4};
  int i;
#pragma scop
  for (i = 0; i < 4; i++) {
    a[i] = (i == 2 ? -9223372036854775807L - 1 : a[i]) / 8 + (i == 3 ? (-9223372036854775807L - 1) + a[i] : 0);
    d[i] = d[i] < 3.0 ? 1e400 * (i - 1) : 0.0 / 0.0;
  }
#pragma endscop
  for (i = 0; i < 4; i++) printf("%ld %g\n", a[i], d[i]);
  return 0;
}
