// RUN: rm -f %t.c && not weft compile --target=seq %s -o %t.c 2>&1 | FileCheck %s
// RUN: test ! -e %t.c

// An '#pragma endscop' (either spelling) with no open region.

void f(int n, double A[10]) {
  for (int i = 0; i < n; i++)
    A[i] = 1.0;
// CHECK: endscop-without-scop.c:[[@LINE+1]]:1: error: '#pragma endscop' without a matching '#pragma scop'
#pragma endscop
#pragma scop
  A[0] = 2.0;
#pragma endscop
// CHECK: endscop-without-scop.c:[[@LINE+1]]:1: error: '#pragma endscop' without a matching '#pragma scop'
#pragma weft endscop
}
// CHECK: 2 errors generated.
