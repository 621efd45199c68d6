// RUN: rm -f %t.c && not weft compile --target=seq %s -o %t.c 2>&1 | FileCheck %s
// RUN: test ! -e %t.c

// Other statements weft does not import: switch, labels, static locals,
// initialised local arrays, local arrays of non-constant size.

void f(int n, double A[10]) {
#pragma scop
// CHECK: unsupported-statement.c:[[@LINE+1]]:3: error: 'switch' statement is not supported in a scop region
  switch (n) { case 1: A[0] = 1.0; }
#pragma endscop
#pragma scop
// CHECK: unsupported-statement.c:[[@LINE+1]]:3: error: label is not supported in a scop region
  here: A[0] = 1.0;
#pragma endscop
#pragma scop
// CHECK: unsupported-statement.c:[[@LINE+1]]:14: error: static variables in a scop region are not supported
  static int calls = 0;
  calls++;
#pragma endscop
#pragma scop
// CHECK: unsupported-statement.c:[[@LINE+1]]:10: error: initialisers of arrays declared in a scop region are not supported
  double t[2] = {1.0, 2.0};
  A[0] = t[0];
#pragma endscop
#pragma scop
// CHECK: unsupported-statement.c:[[@LINE+1]]:10: error: arrays declared in a scop region must have constant sizes
  double v[n];
  v[0] = 1.0;
#pragma endscop
}
// CHECK: 5 errors generated.
