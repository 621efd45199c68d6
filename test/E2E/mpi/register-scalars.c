// REQUIRES: mpicc, mpirun
// RUN: bash %S/../run-mpi.sh %s %t 1 2 3 4 6
// RUN: weft compile %s -o %t.c
// RUN: grep -v '^// CHECK' %t.c | FileCheck %s
// Regression: `register` scalars that a region writes and that are not
// initialised before it (Pluto's lbv/ubv) were passed through a copy
// `int weft_copy_x = x;`, a read of an uninitialised variable that
// `mpicc -Wall -Werror` rejects. weft now drops the keyword and passes the
// address; a keyword spelled through a macro keeps the copy (initialised
// here). Also loop increments written `i = 1 + i`, once rejected.
// CHECK: int lbv, ubv;
// CHECK: int last = -5;
// CHECK: int weft_copy_viamacro = viamacro;
#include <stdio.h>

#define REG register

static double A[40][40];

static void kernel(int n, int tsteps) {
  int t, i, j;
  register int lbv, ubv;
  int register last = -5;
  REG int viamacro = -1;
#pragma scop
  for (t = 0; t < tsteps; t = 1 + t) {
    for (i = 1; i < n - 1; i = 1 + i) {
      lbv = i > 3 ? i - 3 : 1;
      ubv = n - 2;
      for (j = lbv; j <= ubv; j++)
        A[i][j] = 0.5 * A[i][j] + 0.25 * (A[i - 1][j] + A[i + 1][j]) + t;
    }
    for (i = 0; i < n; i++)
      if (i > n)
        viamacro = i;
    last = t;
  }
#pragma endscop
  printf("%d %d\n", last, viamacro);
}

int main(int argc, char **argv) {
  int n = 30 + argc, i, j;
  (void)argv;
  for (i = 0; i < n; i++)
    for (j = 0; j < n; j++)
      A[i][j] = (double)((i * 7 + j * 3) % 11) / 11.0;
  kernel(n, 3);
  for (i = 0; i < n; i++) {
    double s = 0;
    for (j = 0; j < n; j++)
      s += A[i][j] * (j + 1);
    printf("%d %.17g\n", i, s);
  }
  return 0;
}
