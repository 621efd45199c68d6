// RUN: rm -f %t.c && not weft compile --target=seq %s -o %t.c 2>&1 | FileCheck %s
// RUN: test ! -e %t.c

// Taking addresses, and assigning to pointer variables, in a region.

void f(int n, double A[10], int x, double y) {
  double *p;
#pragma scop
  for (int i = 0; i < n; i++)
// CHECK: address-of.c:[[@LINE+1]]:9: error: operator '&' is not supported in a scop region
    x = &A[i] == &A[0];
#pragma endscop
#pragma scop
  for (int i = 0; i < n; i++)
// CHECK: address-of.c:[[@LINE+1]]:12: error: operator '*' is not supported in a scop region
    A[i] = *&y;
#pragma endscop
#pragma scop
  for (int i = 0; i < n; i++)
    p = &A[i];
#pragma endscop
// CHECK: address-of.c:[[@LINE-2]]:5: error: assigning to array or pointer 'p' in a scop region is not supported
}
// CHECK: 3 errors generated.
