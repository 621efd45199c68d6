// RUN: weft compile --target=seq %s -o %t.c
// RUN: gcc -std=gnu99 %t.c -o %t.exe && %t.exe | FileCheck %s
// REQUIRES: gcc
// BUG: a loop bound read from one pointer parameter (P[0]) is evaluated once,
// when the loop starts, because the loop body only writes a *different*
// array parameter (Q). When P and Q alias, C re-reads P[0] after Q[0] = 1
// and stops after one iteration; weft's output runs all five. Either the
// no-aliasing assumption must be documented (and the test dropped), or
// bounds read through pointers must be treated as possibly written.

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
  int C[20] = {5};
  double A[20] = {0};
  k(C, C, A);
  printf("%g %g\n", A[0], A[1]);
  return 0;
}
// CHECK: 1 0
