// RUN: rm -f %t.c && not weft compile --target=seq %s -o %t.c 2>&1 | FileCheck %s
// RUN: test ! -e %t.c

// A '#pragma weft' directive outside a region belongs to the region right
// after it; one that is not directly followed by a region is an error. The message repeats the directive
// in its canonical spelling.

void f(int n, double A[10][10]) {
#pragma scop
  A[0][0] = 2.0;
#pragma endscop
// CHECK: directive-outside-region.c:[[@LINE+1]]:1: error: '#pragma weft distribute(i: block, j: *)' must be inside a scop region or directly before one
#pragma weft distribute(i: block, j: replicated)
  for (int i = 0; i < n; i++)
    for (int j = 0; j < n; j++)
      A[i][j] = 1.0;
// CHECK: directive-outside-region.c:[[@LINE+1]]:1: error: '#pragma weft parallel' must be inside a scop region or directly before one
#pragma weft parallel
  for (int i = 0; i < n; i++)
    A[i][0] = 3.0;
}
// CHECK: 2 errors generated.
