// RUN: rm -f %t.c && not weft compile --target=seq %s -o %t.c 2>&1 | FileCheck %s
// RUN: test ! -e %t.c

// A loop body must not write its own iterator (directly, or through an
// inner loop that reuses it). The error points at the loop.

void f(int n, double A[10]) {
  int i;
#pragma scop
// CHECK: iterator-modified.c:[[@LINE+3]]:5: error: loop iterator 'k' is modified in the loop body; this is not supported
  for (int k = 0; k < n; k++) {
    A[k] = 1.0;
    k = k + 1;
  }
#pragma endscop
#pragma scop
// CHECK: iterator-modified.c:[[@LINE+2]]:10: error: loop iterator 'i' is modified in the loop body; this is not supported
  for (i = 0; i < 10; i++)
    for (i = 0; i < 5; i++)
      A[i] = 1.0;
#pragma endscop
}
// CHECK: 2 errors generated.
