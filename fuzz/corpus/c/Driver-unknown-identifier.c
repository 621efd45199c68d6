// RUN: rm -f %t.c && not weft compile --target=seq %s -o %t.c 2>&1 | FileCheck %s
// RUN: test ! -e %t.c

// Semantic errors found by Clang (here an undeclared name inside a region)
// stop weft before it imports anything.

void f(int n, double A[10]) {
#pragma scop
  for (int i = 0; i < n; i++)
// CHECK: unknown-identifier.c:[[@LINE+1]]:12: error: use of undeclared identifier 'q'
    A[i] = q;
#pragma endscop
}
// CHECK: 1 error generated.
