// RUN: bash %S/../run-seq.sh %s %t
// RUN: WEFT_TARGET=cuda bash %S/../run-seq.sh %s %t.cuda
// RUN: bash %S/../run-mpi.sh %s %t
// Code in the style Pluto generates: floord/ceild/max/min macros in bounds,
// `register` bound variables written in the region (the keyword is dropped),
// lbp/ubp scalars assigned before the loops that read them, an OpenMP pragma
// (ignored without -fopenmp) and a guarding affine if. The MPI build (-Wall
// -Werror) checks that written register scalars are not copied uninitialised.
#include <stdio.h>

#define ceild(n, d) (((n) < 0) ? -((-(n)) / (d)) : ((n) + (d)-1) / (d))
#define floord(n, d) (((n) < 0) ? -((-(n) + (d)-1) / (d)) : (n) / (d))
#define max(x, y) ((x) > (y) ? (x) : (y))
#define min(x, y) ((x) < (y) ? (x) : (y))

#define N 45
#define T 7

double A[N][N];

static void kernel(int n, int tsteps) {
  int t1, t2, t3, lbp, ubp;
  register int lbv, ubv;
#pragma scop
  if ((n >= 3) && (tsteps >= 1)) {
    for (t1 = 0; t1 <= tsteps - 1; t1++) {
      lbp = max(1, ceild(t1 - 3, 4));
      ubp = min(floord(n - 2, 8), n - 2);
#pragma omp parallel for private(lbv, ubv, t3)
      for (t2 = lbp; t2 <= ubp; t2++) {
        lbv = max(1, 8 * t2);
        ubv = min(n - 2, 8 * t2 + 7);
        for (t3 = lbv; t3 <= ubv; t3++)
          A[t3][t2 + 1] = 0.25 * (A[t3 - 1][t2] + A[t3 + 1][t2] +
                                  A[t3][t2 + 2] + A[t3][t2]) + 0.001 * t1;
      }
    }
  }
#pragma endscop
  printf("%d %d\n", lbv, ubv);
}

int main(void) {
  for (int i = 0; i < N; i++)
    for (int j = 0; j < N; j++)
      A[i][j] = (double)((i * 7 + j * 3) % 11) / 11.0;
  kernel(N, T);
  double s = 0;
  for (int i = 0; i < N; i++)
    for (int j = 0; j < N; j++)
      s += A[i][j] * (i + 2 * j + 1);
  printf("%.17g\n", s);
  return 0;
}
