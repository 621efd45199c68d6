// RUN: bash %S/../run-mpi.sh %s %t 1 2 3 4 6 7
/* Reads in the branches of `?:`: modelled as reads that may happen, limited
   to the array's elements (the branch that is not taken may name an element
   outside it, as in `i > 0 ? A[i - 1] : 0`). The loops holding them are
   distributed, and what they may read is sent to them: halos on both sides
   that depend on the data, a clamp, a running maximum written with `?:`
   (a time loop, not a split reduction), and a read under nested `?:`. */
#include <stdio.h>
#define N 41
#define T 3
double A[N], B[N], C[N], D[N], m;
static void kernel(void) {
  int i, t;
#pragma scop
  for (t = 0; t < T; t++) {
#pragma weft distribute(i: block)
    for (i = 0; i < N; i++)
      B[i] = A[i] > 0 ? (i > 0 ? A[i - 1] : -1.0) : (i < N - 1 ? A[i + 1] : 2.0);
#pragma weft distribute(i: block)
    for (i = 0; i < N; i++)
      A[i] = B[i] > 1.5 ? 1.5 : B[i] < -1.5 ? -1.5 : B[i] + 0.25 * t;
  }
#pragma weft distribute(i: block)
  for (i = 0; i < N; i++)
    C[i] = (i % 3 == 0 ? B[N - 1 - i] : A[i]) * 2.0;
  m = C[0];
  for (i = 1; i < N; i++)
    m = C[i] > m ? C[i] : m;
#pragma weft distribute(i: block)
  for (i = 0; i < N; i++)
    D[i] = C[i] == m ? 1.0 : C[N - 1 - i];
#pragma endscop
}
int main(void) {
  for (int i = 0; i < N; i++)
    A[i] = (double)((i * 7) % 13) / 4.0 - 1.5;
  kernel();
  for (int i = 0; i < N; i++)
    printf("%.17g %.17g %.17g %.17g\n", A[i], B[i], C[i], D[i]);
  printf("%.17g\n", m);
  return 0;
}
