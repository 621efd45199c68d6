// RUN: rm -f %t.c && not weft compile --target=seq %s -o %t.c 2>&1 | FileCheck %s
// RUN: test ! -e %t.c

// Bad distribution kinds in '#pragma weft distribute' (loop and array form).

void f(int n, double A[10][10]) {
#pragma scop
// CHECK: bad-distribution-kind.c:[[@LINE+1]]:28: error: unknown distribution kind 'blok' (did you mean 'block'?); valid kinds are block, cyclic, block_cyclic(N), replicated and *
#pragma weft distribute(i: blok)
// CHECK: bad-distribution-kind.c:[[@LINE+1]]:27: error: unknown distribution kind 'block-cyclic' (did you mean 'block_cyclic'?)
#pragma weft distribute A(block-cyclic(4), *)
// CHECK: bad-distribution-kind.c:[[@LINE+1]]:28: error: unknown distribution kind 'BLOCK'; valid kinds are
#pragma weft distribute(i: BLOCK)
// CHECK: bad-distribution-kind.c:[[@LINE+1]]:33: error: 'block' takes no block size; use 'block_cyclic(N)'
#pragma weft distribute(i: block(4))
// CHECK: bad-distribution-kind.c:[[@LINE+1]]:41: error: block size must be positive, got '0'
#pragma weft distribute(i: block_cyclic(0))
// CHECK: bad-distribution-kind.c:[[@LINE+1]]:33: error: grid dimension must be 0, 1 or 2, got '3'
#pragma weft distribute A(block@3, *)
// CHECK: bad-distribution-kind.c:[[@LINE+1]]:28: error: a replicated dimension cannot be mapped to a grid dimension
#pragma weft distribute A(*@0, block)
// CHECK: bad-distribution-kind.c:[[@LINE+1]]:28: error: expected distribution kind (block, cyclic, block_cyclic(N), replicated or *)
#pragma weft distribute(i: , j: block)
  for (int i = 0; i < n; i++)
    for (int j = 0; j < n; j++)
      A[i][j] = 1.0;
#pragma endscop
}
// CHECK: 8 errors generated.
