// RUN: rm -f %t.c && not weft compile --target=seq %s -o %t.c 2>&1 | FileCheck %s
// RUN: test ! -e %t.c

// break, continue, goto and return inside a region.

void f(int n, double A[10]) {
#pragma scop
  for (int i = 0; i < n; i++) {
// CHECK: jumps.c:[[@LINE+1]]:19: error: jumps (return, break, continue, goto) are not supported in a scop region
    if (A[i] > 0) break;
    A[i] = 1.0;
  }
#pragma endscop
#pragma scop
  for (int i = 0; i < n; i++) {
// CHECK: jumps.c:[[@LINE+1]]:19: error: jumps (return, break, continue, goto) are not supported in a scop region
    if (A[i] > 0) continue;
    A[i] = 1.0;
  }
#pragma endscop
#pragma scop
  for (int i = 0; i < n; i++)
// CHECK: jumps.c:[[@LINE+1]]:5: error: jumps (return, break, continue, goto) are not supported in a scop region
    goto out;
#pragma endscop
#pragma scop
  A[0] = 1.0;
// CHECK: jumps.c:[[@LINE+1]]:3: error: jumps (return, break, continue, goto) are not supported in a scop region
  return;
#pragma endscop
out:;
}
// CHECK: 4 errors generated.
