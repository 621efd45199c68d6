// RUN: rm -f %t.c && not weft compile --target=seq %s -o %t.c 2>&1 | FileCheck %s
// RUN: test ! -e %t.c

// 'for' headers weft cannot turn into a loop: the iterator must be an
// integer initialised in the header, the increment must add or subtract a
// non-zero constant, and there must be a condition. (Any condition is fine:
// one that does not bound the iterator takes the scf.while path.) One region
// per case.

void f(int n, double A[10]) {
  int i = 0;
#pragma scop
// CHECK: unsupported-loop.c:[[@LINE+1]]:3: error: unsupported loop: the iterator must be initialised in the 'for' header
  for (; i < n; i++)
    A[i] = 1.0;
#pragma endscop
#pragma scop
// CHECK: unsupported-loop.c:[[@LINE+1]]:8: error: unsupported loop: expected 'iterator = start' in the 'for' header
  for (i += 1; i < n; i++)
    A[i] = 1.0;
#pragma endscop
#pragma scop
// CHECK: unsupported-loop.c:[[@LINE+1]]:26: error: unsupported loop: the increment must add or subtract a non-zero constant to the iterator
  for (int k = 1; k < n; k *= 2)
    A[k] = 1.0;
#pragma endscop
#pragma scop
// CHECK: unsupported-loop.c:[[@LINE+1]]:26: error: unsupported loop: the increment must add or subtract a non-zero constant to the iterator
  for (int k = 0; k < n; k += n)
    A[k] = 1.0;
#pragma endscop
#pragma scop
// CHECK: unsupported-loop.c:[[@LINE+1]]:3: error: unsupported loop: missing increment
  for (int k = 0; k < n;)
    A[k] = 1.0;
#pragma endscop
#pragma scop
// CHECK: unsupported-loop.c:[[@LINE+1]]:3: error: unsupported loop: missing condition
  for (int k = 0;; k++)
    A[k] = 1.0;
#pragma endscop
#pragma scop
// CHECK: unsupported-loop.c:[[@LINE+1]]:15: error: unsupported loop: the iterator must have an integer type
  for (double x = 0; x < n; x += 1)
    A[0] = x;
#pragma endscop
}
// CHECK: 7 errors generated.
