// REQUIRES: mpicc, mpirun
// RUN: WEFT_RTOL=1e-12 bash %S/../run-mpi.sh %s %t 1 2 3 4 6
// RUN: weft compile --report %s -o %t.c 2>&1 | FileCheck %s
// How regions are called, distributed as '#pragma weft' asks: two regions
// in one function with code between them; one kernel called in a loop with
// its arrays swapped (ping-pong) and a runtime offset, its results read
// between calls; scalars written in a region and read after it (a prefix
// sum, which is no reduction, next to scalar sums and products that are);
// accumulators indexed modulo 3 under a time loop (not affine for weft:
// that region runs replicated, after one that left copies outdated); LU
// and a triangular solve with runtime sizes. Split floating-point sums may
// round differently (1e-12).
// CHECK-COUNT-7: remark: distributed: blocks of its iterations on each rank
#include <stdio.h>

static void two_regions(int n, double A[n], double B[n], double C[n]) {
  int i;
#pragma scop
#pragma weft distribute(i: block)
  for (i = 1; i < n - 1; i++)
    B[i] = A[i - 1] + A[i + 1];
#pragma endscop
  for (i = 0; i < n; i++)
    C[i] = B[i] * 0.5;
#pragma scop
#pragma weft distribute(i: block)
  for (i = 0; i < n; i++)
    A[i] = C[n - 1 - i] + B[i];
#pragma weft distribute(i: block)
  for (i = 2; i < n; i++)
    C[i] = A[i - 2] * A[i];
#pragma endscop
}

static void sweep(int n, int off, double src[n + 4], double dst[n + 4]) {
  int i;
#pragma scop
#pragma weft distribute(i: block)
  for (i = 2; i < n + 2; i++)
    dst[i] = 0.25 * src[i - 2] + 0.5 * src[i + off] + 0.25 * src[i + 2];
#pragma endscop
}

double X[19], P[19], acc[3], s, sum, prod;
static void scalars(int n, int ts) {
  int t, i;
#pragma scop
  s = 0;
  for (i = 0; i < n; i++) {
    s = s + X[i];
    P[i] = s;
  }
  sum = 0.0;
  prod = 1.0;
#pragma weft distribute(i: block)
  for (i = 0; i < n; i++) {
    sum += P[i];
    prod *= 1.0 + X[i] / 100.0;
  }
#pragma endscop
#pragma scop
  for (t = 0; t < ts; t++) {
    for (i = 0; i < n; i++)
      acc[i % 3] = X[i] * (t + 1) + acc[i % 3];
    for (i = 0; i < n; i++)
      X[i] = X[i] + acc[(i + t) % 3] * 0.001;
  }
#pragma endscop
}

static void lu_solve(int n, double A[n][n], double x[n], double b[n]) {
  int i, j, k;
#pragma scop
  for (k = 0; k < n; k++) {
#pragma weft distribute(j: block)
    for (j = k + 1; j < n; j++)
      A[k][j] = A[k][j] / A[k][k];
#pragma weft distribute(i: block)
    for (i = k + 1; i < n; i++)
      for (j = k + 1; j < n; j++)
        A[i][j] = A[i][j] - A[i][k] * A[k][j];
  }
  for (i = 0; i < n; i++) {
    x[i] = b[i];
    for (j = 0; j < i; j++)
      x[i] -= A[i][j] * x[j];
    x[i] = x[i] / A[i][i];
  }
#pragma endscop
}

int main(int argc, char **argv) {
  int n = 19 + argc, i, j, t;
  (void)argv;
  {
    double A[n], B[n], C[n];
    for (i = 0; i < n; i++) {
      A[i] = i % 4;
      B[i] = C[i] = 0;
    }
    for (t = 0; t < 3; t++) {
      two_regions(n, A, B, C);
      A[t] += 1.0;
      for (i = 0; i < n; i++)
        A[i] = A[i] / 4.0 + B[i] * 0.01;
    }
    for (i = 0; i < n; i++)
      printf("two %d %.17g %.17g %.17g\n", i, A[i], B[i], C[i]);
  }
  {
    double A[n + 4], B[n + 4], total = 0;
    for (i = 0; i < n + 4; i++) {
      A[i] = (i * 37 % 11) * 0.5;
      B[i] = 0;
    }
    for (t = 0; t < 5; t++) {
      if (t % 2 == 0)
        sweep(n, t % 4 - 1, A, B);
      else
        sweep(n, 1, B, A);
      total += A[3] + B[n];
    }
    printf("sweep %.17g\n", total);
    for (i = 0; i < n + 4; i++)
      printf("sweep %.17g %.17g\n", A[i], B[i]);
  }
  for (i = 0; i < 19; i++)
    X[i] = ((i * 7) % 5) - 1.5;
  for (i = 0; i < 3; i++)
    acc[i] = i;
  scalars(19, 3);
  printf("scalars %.17g %.17g %.17g %.17g %.17g %.17g\n", s, sum, prod,
         acc[0], acc[1], acc[2]);
  for (i = 0; i < 19; i++)
    printf("scalars %.17g %.17g\n", X[i], P[i]);
  {
    double A[n][n], x[n], b[n];
    for (i = 0; i < n; i++) {
      b[i] = i + 1;
      for (j = 0; j < n; j++)
        A[i][j] = i == j ? n + 1.0 : 1.0 / (1 + i + 2 * j);
    }
    lu_solve(n, A, x, b);
    for (i = 0; i < n; i++) {
      printf("lu %.17g:", x[i]);
      for (j = 0; j < n; j++)
        printf(" %.17g", A[i][j]);
      printf("\n");
    }
  }
  return 0;
}
