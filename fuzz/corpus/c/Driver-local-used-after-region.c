// RUN: rm -f %t.c && not weft compile --target=seq %s -o %t.c 2>&1 | FileCheck %s
// RUN: test ! -e %t.c

// A variable declared at the top level of a region disappears with the
// region, so it must not be used after it.

void f(int n, double A[10]) {
#pragma scop
  double t = 2.0;
  for (int i = 0; i < n; i++)
    A[i] = t;
#pragma endscop
// CHECK: local-used-after-region.c:[[@LINE+1]]:10: error: 't' is declared in the scop region and used after it
  A[0] = t;
}
// CHECK: 1 error generated.
