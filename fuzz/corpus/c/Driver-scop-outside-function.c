// RUN: rm -f %t.c && not weft compile --target=seq %s -o %t.c 2>&1 | FileCheck %s
// RUN: test ! -e %t.c

// Regions must be inside a function body.

// CHECK: scop-outside-function.c:[[@LINE+1]]:1: error: '#pragma scop' must be inside a function body
#pragma scop
int x;
#pragma endscop

void f(void) {}
