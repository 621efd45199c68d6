// RUN: rm -f %t.cu && not weft compile --target=cuda %s -o %t.cu 2>&1 | FileCheck %s
// RUN: test ! -e %t.cu
// RUN: not weft compile --target=seq %s -o %t.c 2>&1 | FileCheck %s

// `#pragma weft device` and `host` stand right before a for loop of the
// region; every target checks that (bad arguments: unknown-directive.c).

void f(int n, double a[n], double b[n]) {
  int i;
#pragma scop
// CHECK: cuda-placement-errors.c:[[@LINE+1]]:1: error: '#pragma weft device' must be followed directly by a for loop
#pragma weft device
  a[0] = 1;
  for (i = 0; i < n; i++)
    a[i] = 2 * a[i];
#pragma weft device
// CHECK: cuda-placement-errors.c:[[@LINE+1]]:1: error: '#pragma weft host' on a loop that has a '#pragma weft device' already
#pragma weft host
  for (i = 0; i < n; i++)
    b[i] = b[i] + 1;
// CHECK: cuda-placement-errors.c:[[@LINE+1]]:1: error: '#pragma weft host' must be followed by a loop in its scop region
#pragma weft host
  b[0] = a[1];
#pragma endscop
}
