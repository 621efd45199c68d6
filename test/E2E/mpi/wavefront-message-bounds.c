// A time loop whose `i` loop carries dependences runs as a wavefront of
// tiles of `j` (dist-wavefront); one of its message sets (what `b` sends)
// has a piece whose subscript ISL bounds only through divisions once the
// piece's redundant constraints are removed. Its encoding for the runtime
// takes the subscript's bounds from the piece without its divisions; weft
// stopped with "subscript 0 of a message set is unbounded" (fuzz-cuda seed
// 19, program 21, docs/reliability.md). Each run prints what the
// sequential program prints, on rank counts that do not divide the sizes.
// REQUIRES: mpicc, mpirun
// RUN: WEFT_FLAGS=--fp-reductions=ordered bash %S/../run-mpi.sh %s %t 1 2 3 4 6
// RUN: bash %S/../run-mpi.sh %s %t.split 2 4
#include <stdio.h>
#define M 40
#define N 37
static double a[M + N + 2], b[M + N + 2], c[M + N + 2], d[M + N + 2];

static void kernel(int steps, int m) {
  int t, i, j;
#pragma scop
  for (t = 0; t < steps; t++) {
    for (i = 0; i < m - 1; i++) {
      a[i] = a[i] * 0.5;
      for (j = i; j < N; j++) {
        b[i] = c[j] * 0.5 + d[i];
        c[j + 1] = c[i] * 0.5 + c[j];
        a[i] = a[i] * 0.75 + b[i];
        c[i] = c[i] + b[j] * c[i];
      }
    }
  }
#pragma endscop
}

int main(void) {
  int i;
  for (i = 0; i < M + N + 2; i++) {
    a[i] = i * 0.25;
    b[i] = 1.0 / (i + 1);
    c[i] = (i % 5) - 2.0;
    d[i] = (i % 3) * 0.5;
  }
  kernel(3, M);
  for (i = 0; i < M + N + 2; i++)
    printf("%.17g %.17g %.17g %.17g\n", a[i], b[i], c[i], d[i]);
  return 0;
}
