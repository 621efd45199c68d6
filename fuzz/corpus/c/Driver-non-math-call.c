// RUN: rm -f %t.c && not weft compile --target=seq %s -o %t.c 2>&1 | FileCheck %s
// RUN: test ! -e %t.c

// Only math library functions may be called in a region.

#include <stdio.h>
double g(double);

void f(int n, double A[10]) {
#pragma scop
  for (int i = 0; i < n; i++)
// CHECK: non-math-call.c:[[@LINE+1]]:12: error: call to 'g' is not supported in a scop region
    A[i] = g(A[i]);
#pragma endscop
#pragma scop
  for (int i = 0; i < n; i++)
// CHECK: non-math-call.c:[[@LINE+1]]:5: error: call to 'putchar' is not supported in a scop region
    putchar(i);
#pragma endscop
#pragma scop
  for (int i = 0; i < n; i++)
// The call is rejected, not its string literal argument.
// CHECK: non-math-call.c:[[@LINE+1]]:5: error: call to 'printf' is not supported in a scop region
    printf("%f\n", A[i]);
#pragma endscop
}
// CHECK: 3 errors generated.
