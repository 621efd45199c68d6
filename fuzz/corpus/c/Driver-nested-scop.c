// RUN: rm -f %t.c && not weft compile --target=seq %s -o %t.c 2>&1 | FileCheck %s
// RUN: test ! -e %t.c

// Regions do not nest: the inner '#pragma scop' is an error with a note at
// the region that is still open.

void f(int n, double A[10]) {
// CHECK: nested-scop.c:[[@LINE+6]]:1: error: nested '#pragma scop'
// CHECK-NEXT: #pragma weft scop
// CHECK: nested-scop.c:[[@LINE+1]]:1: note: previous region opened here
#pragma scop
  for (int i = 0; i < n; i++)
    A[i] = 1.0;
#pragma weft scop
  A[0] = 2.0;
#pragma endscop
}
// CHECK: 1 error generated.
