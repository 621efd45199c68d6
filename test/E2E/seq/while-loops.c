// RUN: bash %S/../run-seq.sh %s %t
// RUN: WEFT_TARGET=cuda bash %S/../run-seq.sh %s %t.cuda
// RUN: bash %S/../run-mpi.sh %s %t
// Loops whose condition changes while they run (aliased pointer bounds,
// bounds the body writes), while and do-while: the conservative scf.while path.
#include <stdio.h>
static void k(int *P, int *Q, double *A) {
#pragma scop
  for (int j = 0; j < P[0]; j++) {
    Q[j] = 1;
    A[j] = 1.0;
  }
#pragma endscop
}
int main(void) {
  int C[20] = {5}, i, n = 100, steps = 0;
  double A[20] = {0}, x = 1000.0;
  k(C, C, A);
#pragma scop
  while (x > 1.0) {
    x = x / 3.0;
    steps++;
  }
  do {
    n = n - 7;
  } while (n > 50);
  for (i = 0; i < n; i += 9)
    n -= 2;
#pragma endscop
  printf("%g %g %g %d %d %d\n", A[0], A[1], x, steps, n, i);
  return 0;
}
