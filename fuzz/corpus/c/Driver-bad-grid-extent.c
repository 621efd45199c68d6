// RUN: rm -f %t.c && not weft compile --target=seq %s -o %t.c 2>&1 | FileCheck %s
// RUN: test ! -e %t.c

// Bad process grid extents in '#pragma weft grid'.

void f(int n, double A[10]) {
#pragma scop
// CHECK: bad-grid-extent.c:[[@LINE+1]]:22: error: grid extent must be positive, got '0'
#pragma weft grid(4, 0)
// CHECK: bad-grid-extent.c:[[@LINE+1]]:19: error: grid extent must be positive, got '-2'
#pragma weft grid(-2)
// CHECK: bad-grid-extent.c:[[@LINE+1]]:19: error: grid extent must be a decimal integer, got '1.5'
#pragma weft grid(1.5)
// CHECK: bad-grid-extent.c:[[@LINE+1]]:19: error: grid extent must be a decimal integer, got '0x10'
#pragma weft grid(0x10)
// CHECK: bad-grid-extent.c:[[@LINE+1]]:19: error: grid extent 'NP' is not an integer (macros are not expanded in '#pragma weft')
#pragma weft grid(NP, 2)
// CHECK: bad-grid-extent.c:[[@LINE+1]]:19: error: grid extent '99999999999' is too large (at most 2147483647)
#pragma weft grid(99999999999)
// CHECK: bad-grid-extent.c:[[@LINE+1]]:28: error: too many grid dimensions (at most 3)
#pragma weft grid(2, 2, 2, 2)
// CHECK: bad-grid-extent.c:[[@LINE+1]]:19: error: 'auto' must be the only grid argument; use '*' for a single extent chosen by weft
#pragma weft grid(auto, 2)
// CHECK: bad-grid-extent.c:[[@LINE+1]]:19: error: expected at least one grid extent or 'auto'
#pragma weft grid()
// CHECK: bad-grid-extent.c:[[@LINE+1]]:21: error: expected grid extent after ','
#pragma weft grid(4,)
// CHECK: bad-grid-extent.c:[[@LINE+1]]:20: error: expected ')' after grid extents
#pragma weft grid(4
  for (int i = 0; i < n; i++)
    A[i] = 1.0;
#pragma endscop
}
// CHECK: 11 errors generated.
