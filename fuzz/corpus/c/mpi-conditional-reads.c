// RUN: bash %S/../run-mpi.sh %s %t 1 2 3 4 6 7
/* Reads in the branches of `?:`: modelled as reads that may happen, limited
   to the array's elements (the branch that is not taken may name an element
   outside it, as in `i > 0 ? A[i - 1] : 0`). The loops holding them are
   distributed, and what they may read is sent to them: halos on both sides
   that depend on the data, a clamp, a read under nested `?:`, and maxima
   and minima written with `?:` (`m = C[i] > m ? C[i] : m`, both operand
   orders, integers), split across ranks and combined with an all-reduce.
   An unsigned minimum is not a reduction (its extremes differ) and stays in
   program order. */
#include <stdio.h>
#define N 41
#define T 3
double A[N], B[N], C[N], D[N], m, lo, cm[N];
int K[N], kmax, kmin;
unsigned U[N], umin;
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
  lo = 5.0;
#pragma weft distribute(i: block)
  for (i = 1; i < N; i++) {
    m = C[i] > m ? C[i] : m;
    lo = lo <= C[i] ? lo : C[i];
  }
  kmax = -1000;
  kmin = 1000;
  umin = 4000000000u;
#pragma weft distribute(i: block)
  for (i = 0; i < N; i++) {
    kmax = K[i] >= kmax ? K[i] : kmax;
    kmin = kmin > K[i] - i ? K[i] - i : kmin;
  }
#pragma weft distribute(i: block)
  for (i = 0; i < N; i++)
    for (t = 0; t < 4; t++)
      cm[t] = cm[t] < C[i] - t ? C[i] - t : cm[t];
  for (i = 0; i < N; i++)
    umin = U[i] < umin ? U[i] : umin;
#pragma weft distribute(i: block)
  for (i = 0; i < N; i++)
    D[i] = C[i] == m ? 1.0 : C[N - 1 - i];
#pragma endscop
}
int main(void) {
  for (int i = 0; i < N; i++) {
    A[i] = (double)((i * 7) % 13) / 4.0 - 1.5;
    K[i] = (i * 37) % 23 - 11;
    U[i] = 3000000000u + (unsigned)((i * 17) % 29) * 100000000u;
    cm[i] = -3.0;
  }
  kernel();
  for (int i = 0; i < N; i++)
    printf("%.17g %.17g %.17g %.17g\n", A[i], B[i], C[i], D[i]);
  printf("%.17g %.17g %d %d %u\n", m, lo, kmax, kmin, umin);
  printf("%.17g %.17g %.17g %.17g\n", cm[0], cm[1], cm[2], cm[3]);
  return 0;
}
