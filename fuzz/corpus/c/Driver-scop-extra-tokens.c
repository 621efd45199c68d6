// RUN: rm -f %t.c && not weft compile --target=seq %s -o %t.c 2>&1 | FileCheck %s
// RUN: test ! -e %t.c

// '#pragma scop' and '#pragma endscop' take no arguments.

void f(int n, double A[10]) {
// CHECK: scop-extra-tokens.c:[[@LINE+1]]:14: error: unexpected tokens after '#pragma scop'
#pragma scop foo
  for (int i = 0; i < n; i++)
    A[i] = 1.0;
// CHECK: scop-extra-tokens.c:[[@LINE+1]]:17: error: unexpected tokens after '#pragma endscop'
#pragma endscop (1)
}
