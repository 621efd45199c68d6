// RUN: rm -f %t.c && not weft compile --target=seq %s -o %t.c 2>&1 | FileCheck %s
// RUN: test ! -e %t.c

// Arrays of pointers (double **, double *A[10]) cannot be imported as
// memrefs; the error points at the declaration.

void f(int n,
// CHECK: array-of-pointers.c:[[@LINE+6]]:5: error: arrays of pointers are not supported in a scop region
       double **A,
// CHECK: array-of-pointers.c:[[@LINE+8]]:5: error: arrays of pointers are not supported in a scop region
       double *B[10]) {
#pragma scop
  for (int i = 0; i < n; i++)
    A[i][0] = 1.0;
#pragma endscop
#pragma scop
  for (int i = 0; i < n; i++)
    B[i][0] = 1.0;
#pragma endscop
}
// CHECK: 2 errors generated.
