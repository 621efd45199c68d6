// RUN: rm -f %t.c && not weft compile --target=seq %s -o %t.c 2>&1 | FileCheck %s
// RUN: test ! -e %t.c
// A directive outside a region belongs to a region only if nothing but
// comments and pragmas separates them: `nodist` in g() must not reach the
// region in h(), and `distribute(i: block)` written for a loop outside any
// region must not apply to the region's first loop.

void g(double A[10]) {
// CHECK: directive-before-other-code.c:[[@LINE+1]]:1: error: '#pragma weft nodist' must be inside a scop region or directly before one
#pragma weft nodist
  A[1] = 0.0;
}

void h(int n, double A[10][10]) {
// CHECK: directive-before-other-code.c:[[@LINE+1]]:1: error:
#pragma weft distribute(i: block)
  for (int i = 0; i < n; i++)
    A[i][1] = 1.0;
#pragma scop
  for (int i = 0; i < n; i++)
    A[i][0] = 2.0;
#pragma endscop
}
