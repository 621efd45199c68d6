// RUN: rm -f %t.c && not weft compile --target=seq %s -o %t.c 2>&1 | FileCheck %s
// RUN: test ! -e %t.c

// Inside a region an iterator may only be used inside its loops (reading
// its final value after the region is fine, see
// Frontend/C/live-iterator.c).

void f(int n, double A[10]) {
  int i;
#pragma scop
  for (i = 0; i < n; i++)
    A[i] = 1.0;
// CHECK: iterator-outside-loop.c:[[@LINE+1]]:5: error: loop iterator 'i' is used outside its loops in the scop region; this is not supported
  A[i] = 2.0;
#pragma endscop
#pragma scop
// CHECK: iterator-outside-loop.c:[[@LINE+1]]:3: error: loop iterator 'i' is used outside its loops in the scop region; this is not supported
  i = 3;
  for (i = 0; i < n; i++)
    A[i] = 1.0;
#pragma endscop
}
// CHECK: 2 errors generated.
