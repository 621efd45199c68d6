// RUN: rm -f %t.c && not weft compile --target=seq %s -o %t.c 2>&1 | FileCheck %s
// RUN: test ! -e %t.c

// Pointer arithmetic and dereferences are not supported in a region; arrays
// must be subscripted directly.

void f(int n, double *A, double B[10], long d) {
#pragma scop
  for (int i = 0; i < n; i++)
// CHECK: pointer-arithmetic.c:[[@LINE+1]]:12: error: operator '*' is not supported in a scop region
    B[i] = *(A + i);
#pragma endscop
#pragma scop
  for (int i = 0; i < n; i++)
// CHECK: pointer-arithmetic.c:[[@LINE+1]]:17: error: pointer arithmetic is not supported in a scop region
    d = (A + 1) - A;
#pragma endscop
#pragma scop
  for (int i = 0; i < n; i++)
// CHECK: pointer-arithmetic.c:[[@LINE+1]]:13: error: subscripted value must be an array variable in a scop region
    B[i] = (A + 1)[i];
#pragma endscop
}
// CHECK: 3 errors generated.
