// RUN: rm -f %t.c && not weft compile --target=seq %s -o %t.c 2>&1 | FileCheck %s
// RUN: test ! -e %t.c

// A '#pragma scop' that is never closed is reported at the opening pragma.

void f(int n, double A[10]) {
// CHECK: unclosed-scop.c:[[@LINE+1]]:1: error: '#pragma scop' is not closed by a '#pragma endscop'
#pragma scop
  for (int i = 0; i < n; i++)
    A[i] = 1.0;
}
// CHECK: 1 error generated.
