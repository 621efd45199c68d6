// REQUIRES: mpicc, mpirun
// RUN: bash %S/../run-mpi.sh %s %t 1 2 3 4 6
// RUN: weft compile --report %s -o %t.c 2>&1 | FileCheck %s
// Awkward stencils and loop bounds, distributed as '#pragma weft' asks (the
// cost model keeps such small loops on every rank): asymmetric halos with
// negative offsets (A[i-3], A[i+2]); a halo wider than a block (A[i-5],
// A[i+5] over 7 interior points on up to 6 ranks); reads from the mirror
// block (B[n-1-i]); loops running downward; loops of one level whose bounds
// differ by constants (one block group) and a runtime shift; a global bound
// set in main; sizes 0..3, smaller than the rank count, and empty loops.
// CHECK-COUNT-11: remark: distributed: blocks of its iterations on each rank
#include <stdio.h>

int gm;

static void asym(int n, int tsteps, double A[n], double B[n]) {
  int t, i;
#pragma scop
  for (t = 0; t < tsteps; t++) {
#pragma weft distribute(i: block)
    for (i = 3; i < n - 2; i++)
      B[i] = 0.25 * A[i - 3] + 0.5 * A[i + 1] - 0.125 * A[i + 2] + A[i];
#pragma weft distribute(i: block)
    for (i = 5; i < n - 5; i++)
      A[i] = B[i - 5] * 0.3 + B[i + 5] * 0.2 + B[n - 1 - i] * 0.5;
  }
#pragma endscop
}

static void downward(int n, double A[n], double B[n], double C[n]) {
  int i;
#pragma scop
  for (i = n - 1; i >= 0; i--)
    B[i] = A[i] * 2.0 + i;
#pragma weft distribute(i: block)
  for (i = n - 2; i >= 1; i--)
    C[i] = B[i + 1] - B[i - 1];
  for (i = n - 2; i >= 0; i--)
    A[i] = A[i + 1] * 0.5 + C[i];
#pragma weft distribute(i: block)
  for (i = n - 1; i > 2; i -= 1)
    B[i] = A[i - 3] + C[i];
#pragma endscop
}

static void shifted(int n, int k, double A[n + 8], double B[n + 8],
                    double C[n + 8]) {
  int i;
#pragma scop
#pragma weft distribute(i: block)
  for (i = 3; i < n - 4; i++)
    B[i] = A[i + 4] - A[i - 3];
#pragma weft distribute(i: block)
  for (i = 0; i < n; i++)
    C[i] = B[i] * 2.0;
#pragma weft distribute(i: block)
  for (i = 1; i <= n + 2; i++)
    A[i] = C[i - 1] + B[i];
#pragma weft distribute(i: block)
  for (i = 0; i < gm - k; i++)
    B[i] = A[i + k] + C[i];
#pragma endscop
}

static void tiny(int n, double A[n + 1], double B[n + 1]) {
  int i;
#pragma scop
#pragma weft distribute(i: block)
  for (i = 0; i < n; i++)
    B[i] = A[i] * 3.0 + 1.0;
#pragma weft distribute(i: block)
  for (i = 1; i < n; i++)
    A[i] = B[i - 1] + B[i];
#pragma weft distribute(i: block)
  for (i = 0; i < n - 5; i++)
    A[i] = -1.0;
#pragma endscop
}

static void print(const char *what, int n, double *x) {
  int i;
  printf("%s:", what);
  for (i = 0; i < n; i++)
    printf(" %.17g", x[i]);
  printf("\n");
}

int main(int argc, char **argv) {
  int n, i;
  (void)argv;
  for (n = 10 + argc; n <= 30; n += 6) {
    double A[n], B[n], C[n];
    for (i = 0; i < n; i++) {
      A[i] = (i * 7 % 11) / 3.0;
      B[i] = i * 0.1;
      C[i] = 1.0 / (i + 1);
    }
    asym(n, 3, A, B);
    print("asym A", n, A);
    print("asym B", n, B);
    downward(n, A, B, C);
    print("down A", n, A);
    print("down B", n, B);
    print("down C", n, C);
  }
  {
    int m = 22 + argc;
    double A[m + 8], B[m + 8], C[m + 8];
    gm = m - 2;
    for (i = 0; i < m + 8; i++) {
      A[i] = i % 6;
      B[i] = 0;
      C[i] = 0;
    }
    shifted(m, 2 + argc, A, B, C);
    print("shift A", m + 8, A);
    print("shift B", m + 8, B);
    print("shift C", m + 8, C);
  }
  for (n = argc - 1; n <= argc + 2; n++) {
    double A[n + 1], B[n + 1];
    for (i = 0; i <= n; i++) {
      A[i] = i + n;
      B[i] = 0.5 * i;
    }
    tiny(n, A, B);
    print("tiny A", n + 1, A);
    print("tiny B", n + 1, B);
  }
  return 0;
}
