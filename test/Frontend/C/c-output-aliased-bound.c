// RUN: weft compile --target=seq %s -o %t.c
// RUN: gcc -std=gnu99 %t.c -o %t.exe && %t.exe | FileCheck %s
// REQUIRES: gcc
// A loop bound read through one pointer parameter (P[0]) while the body
// writes through another (Q) must be re-read on every iteration: P and Q may
// alias, and then C stops after one iteration.

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
