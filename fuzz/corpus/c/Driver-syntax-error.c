// RUN: rm -f %t.c && not weft compile --target=seq %s -o %t.c 2>&1 | FileCheck %s
// RUN: test ! -e %t.c

// Malformed C is reported by Clang itself, with its own message and
// location, and nothing is written.

void f(int n, double A[10]) {
#pragma scop
  for (int i = 0; i < n; i++)
// CHECK: syntax-error.c:[[@LINE+1]]:15: error: expected ';' after expression
    A[i] = 1.0
#pragma endscop
}
// CHECK: 1 error generated.
