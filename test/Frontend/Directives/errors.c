// Directives that do not fit their region are located errors; all of them
// are reported, and no output file is written.
// RUN: rm -f %t.c && not weft compile --target=seq %s -o %t.c 2>&1 | FileCheck %s
// RUN: test ! -e %t.c

#define N 64
double A[N][N], B[N][N], x[N];
void k(int n) {
  int i, j;
#pragma scop
#pragma weft grid(4)
// CHECK: errors.c:[[@LINE+1]]:1: error: 'cyclic' needs grid axis 1 but the grid has 1 dimension
#pragma weft distribute A(block, cyclic)
// CHECK: errors.c:[[@LINE+2]]:1: error: conflicting directives for 'A'
// CHECK: errors.c:[[@LINE-2]]:1: note: previous directive for 'A' here
#pragma weft replicate(x, A)
// CHECK: errors.c:[[@LINE+1]]:1: error: 'C' is not an array used in this scop region
#pragma weft local(C)
// CHECK: errors.c:[[@LINE+1]]:1: error: loop 'k' is not in the perfectly nested loops that follow this directive
#pragma weft distribute(k: block)
  for (i = 0; i < n; i++)
    for (j = 0; j < n; j++)
      A[i][j] = B[i][j] + x[j];
// CHECK: errors.c:[[@LINE+1]]:1: error: 'B' has 2 dimensions but the directive describes 1
#pragma weft distribute B(block)
// CHECK: errors.c:[[@LINE+1]]:1: error: '#pragma weft parallel' must be followed by a loop in its scop region
#pragma weft parallel
#pragma endscop
}

// The code after the region reads j before assigning it, so the nest keeps
// j's final value after its inner loop and is not perfect.
void live(int n) {
  int i, j;
#pragma scop
// CHECK: errors.c:[[@LINE+1]]:1: error: loop 'j' is not in the perfectly nested loops that follow this directive (the body of loop 'i' holds more than it; code after the region that reads an iterator before assigning it makes the nest keep its final value)
#pragma weft distribute(i: block, j: block)
  for (i = 0; i < n; i++)
    for (j = 0; j < n; j++)
      A[i][j] = B[i][j];
#pragma endscop
  x[0] = j;
}
// CHECK: 7 errors generated.
