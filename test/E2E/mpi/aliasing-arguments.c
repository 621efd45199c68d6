// REQUIRES: mpicc, mpirun
// RUN: bash %S/../run-mpi.sh %s %t 1 2 3 4
// RUN: env WEFT_FLAGS=--live-out=all bash %S/../run-mpi.sh %s %t.all 1 2 3
// RUN: env WEFT_TARGET=cuda bash %S/../run-seq.sh %s %t.cuda
// RUN: env WEFT_TARGET=cuda WEFT_GPU_CHOICE=cost bash %S/../run-seq.sh %s %t.cuda-host
// Pointer arguments that overlap: the loops carry flow dependences through
// memory that the polyhedral model of distinct arrays cannot see. Each
// region checks its arguments' address ranges at entry and runs as written
// when they overlap (dist-alias-check); distinct arguments still take the
// distributed path, and a region that stays whole (or on the CUDA host)
// its copy with `restrict` pointers. Every call below prints what gcc's
// program prints.
#include <stdio.h>

#define N 1000
#define R 60

double x[N + 8], y[N + 8], z[N + 8];
double G[R + 1][R], H[R + 1][R];

/* A recurrence when a = b + 1; the pin forces the split. */
static void shift(int n, double *a, double *b) {
  int i;
#pragma scop
#pragma weft distribute(i: block)
  for (i = 0; i < n; i++)
    a[i] = b[i] * 0.5 + 1.0;
#pragma endscop
}

/* Rows through array pointers: a = G + 1, b = G. */
static void rows(int n, double (*a)[R], double (*b)[R]) {
  int i, j;
#pragma scop
  for (i = 0; i < n; i++)
    for (j = 0; j < R; j++)
      a[i][j] = b[i][j] * 0.5 + (j > 0 ? b[i][j - 1] : 1.0);
#pragma endscop
}

/* A parameter that points into a global the region reads. */
static void intoGlobal(int n, double *p) {
  int i;
#pragma scop
  for (i = 0; i < n; i++)
    p[i] = x[i] * 0.25 + x[i + 1];
#pragma endscop
}

/* A backwards sweep: b = a + 2 reads what later iterations wrote. */
static void backwards(int n, double *a, double *b) {
  int i;
#pragma scop
#pragma weft distribute(i: block)
  for (i = n - 1; i >= 0; i--)
    a[i] = b[i] + 0.125 * (double)i;
#pragma endscop
}

/* restrict: the caller promises distinct arrays, no check. */
static void promised(int n, double *restrict a, double *restrict b) {
  int i;
#pragma scop
  for (i = 0; i < n; i++)
    a[i] = b[i] * 3.0 - 1.0;
#pragma endscop
}

static double checksum(const double *v, int n) {
  double s = 0;
  for (int i = 0; i < n; i++)
    s += v[i] * (double)(i % 17 + 1);
  return s;
}

int main(void) {
  int i, j;
  for (i = 0; i < N + 8; i++) {
    x[i] = i % 7;
    y[i] = i % 5;
    z[i] = 0.0;
  }
  for (i = 0; i <= R; i++)
    for (j = 0; j < R; j++) {
      G[i][j] = (i * 3 + j) % 11;
      H[i][j] = 0.0;
    }
  shift(N, x + 1, x);   /* overlapping: a recurrence */
  printf("shift overlap %.17g\n", checksum(x, N + 8));
  shift(N, y, x);       /* distinct: distributed */
  printf("shift distinct %.17g\n", checksum(y, N + 8));
  shift(N, x, x);       /* the same range: in place */
  printf("shift same %.17g\n", checksum(x, N + 8));
  shift(0, x + 1, x);   /* no iteration */
  printf("shift empty %.17g\n", checksum(x, N + 8));
  rows(R, G + 1, G);
  printf("rows overlap %.17g\n", checksum(&G[0][0], (R + 1) * R));
  rows(R, H, G);
  printf("rows distinct %.17g\n", checksum(&H[0][0], (R + 1) * R));
  intoGlobal(N, x + 2);
  printf("global overlap %.17g\n", checksum(x, N + 8));
  intoGlobal(N, z);
  printf("global distinct %.17g\n", checksum(z, N + 8));
  backwards(N, x, x + 2);
  printf("backwards overlap %.17g\n", checksum(x, N + 8));
  promised(N, z, y);
  printf("restrict %.17g\n", checksum(z, N + 8));
  return 0;
}
