// RUN: rm -f %t.c && not weft compile --target=seq -I %S/Inputs %s -o %t.c 2>&1 | FileCheck %s
// RUN: test ! -e %t.c

// weft pragmas are only honoured in the main source file: a '#pragma scop'
// that comes from a header is an error, so the matching '#pragma endscop'
// is then unmatched.

void f(int n, double A[10]) {
// CHECK: In file included from {{.*}}pragma-in-header.c:[[@LINE+2]]:
// CHECK-NEXT: open-scop.h:2:1: error: weft pragmas are only supported in the main source file
#include "open-scop.h"
  for (int i = 0; i < n; i++)
    A[i] = 1.0;
// CHECK: pragma-in-header.c:[[@LINE+1]]:1: error: '#pragma endscop' without a matching '#pragma scop'
#pragma endscop
}
// CHECK: 2 errors generated.
