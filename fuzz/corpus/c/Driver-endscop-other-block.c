// RUN: rm -f %t.c && not weft compile --target=seq %s -o %t.c 2>&1 | FileCheck %s
// RUN: test ! -e %t.c

// A region is a sequence of statements of one block: '#pragma endscop'
// inside a loop body opened outside it is an error, with a note at the
// opening pragma.

void f(int n, double A[10]) {
// CHECK: endscop-other-block.c:[[@LINE+5]]:1: error: '#pragma endscop' must be in the same block as its '#pragma scop'
// CHECK: endscop-other-block.c:[[@LINE+1]]:1: note: region opened here
#pragma scop
  for (int i = 0; i < n; i++) {
    A[i] = 1.0;
#pragma endscop
  }
}
// CHECK: 1 error generated.
