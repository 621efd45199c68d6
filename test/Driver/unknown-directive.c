// RUN: rm -f %t.c && not weft compile --target=seq %s -o %t.c 2>&1 | FileCheck %s
// RUN: test ! -e %t.c

// Unknown or missing '#pragma weft' directive names. Every bad directive in
// the file is reported, each at the offending token.

void f(int n, double A[10]) {
#pragma scop
// CHECK: unknown-directive.c:[[@LINE+1]]:14: error: unknown weft directive 'gird' (did you mean 'grid'?); known directives are scop, endscop, grid, distribute, replicate, local, parallel, nodist, noalias, device and host
#pragma weft gird(2)
// CHECK: unknown-directive.c:[[@LINE+1]]:14: error: unknown weft directive 'frobnicate'; known directives are scop, endscop, grid, distribute, replicate, local, parallel, nodist, noalias, device and host
#pragma weft frobnicate
// CHECK: unknown-directive.c:[[@LINE+1]]:13: error: expected weft directive; known directives are
#pragma weft
// CHECK: unknown-directive.c:[[@LINE+1]]:14: error: expected weft directive name, got '('
#pragma weft (grid)
// CHECK: unknown-directive.c:[[@LINE+1]]:23: error: extra tokens at end of '#pragma weft parallel'
#pragma weft parallel now
// CHECK: unknown-directive.c:[[@LINE+1]]:18: error: extra tokens at end of '#pragma weft host'
#pragma weft host(all)
  for (int i = 0; i < n; i++)
    A[i] = 1.0;
#pragma endscop
}
// CHECK: 6 errors generated.
