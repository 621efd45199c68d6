// RUN: bash %S/../run-seq.sh %s %t
// RUN: WEFT_TARGET=cuda bash %S/../run-seq.sh %s %t.cuda
// RUN: bash %S/../run-mpi.sh %s %t 1 3 4
// RUN: weft compile --report %s -o %t.c 2>&1 | FileCheck %s
// An iterator the code after the region reads keeps the value C leaves in
// it, unless every read after the region is inside a `for` that first
// assigns it: then the region needs no final value, and its nests stay
// perfect (here: split over a 2-D grid as the directives ask).
#include <stdio.h>

#define N 13
double A[N][N], B[N][N];

static void reset_by_loops(int n) {
  int i, j;
#pragma scop
// CHECK: iterators-after-region.c:[[@LINE+2]]:3: remark: distributed over a 2-D grid
#pragma weft distribute(i: block, j: block)
  for (i = 0; i < n; i++)
    for (j = 0; j < n; j++)
      A[i][j] = i * 0.5 + j;
#pragma endscop
  for (i = 0; i < n; i += 5)
    for (j = 0; j < n; j += 6)
      printf("%g ", A[i][j]);
  printf("\n");
}

// j is read after a loop over i that may run no iteration: live.
static void read_after_empty_loop(int n, int m) {
  int i, j;
#pragma scop
  for (i = 0; i < n; i++)
    for (j = 0; j < n; j++)
      B[i][j] = A[j][i];
#pragma endscop
  for (i = 0; i < m; i++)
    for (j = 0; j < 2; j++)
      printf("%g ", B[i][j]);
  printf("| %d %d\n", i, j);
}

// A goto may skip the loop that resets i: live.
static void goto_past_reset(int n) {
  int i;
#pragma scop
  for (i = 0; i < n; i++)
    A[i][0] = 2.0 * A[i][1];
#pragma endscop
  if (A[0][0] > 1e9)
    goto out;
  for (i = 0; i < 3; i++)
    printf("%g ", A[i][0]);
out:
  printf("| %d\n", i);
}

// The reset reads i itself: live.
static void reset_reads_itself(int n) {
  int i;
#pragma scop
  for (i = 0; i < n; i++)
    A[i][2] = A[i][1] + 1.0;
#pragma endscop
  for (i = i - 3; i < n; i++)
    printf("%g ", A[i][2]);
  printf("\n");
}

// The region runs in a loop, and the next iteration reads i before the
// region: live (it used to print 0 three times).
static void read_in_next_iteration(void) {
  int i = 0, k;
  for (k = 0; k < 3; k++) {
    printf("%d ", i);
#pragma scop
    for (i = 0; i < 4 + k; i++)
      A[i][3] = i + k;
#pragma endscop
  }
  printf("\n");
}

int main(void) {
  reset_by_loops(N);
  read_in_next_iteration();
  read_after_empty_loop(N, 0);
  read_after_empty_loop(N, 2);
  goto_past_reset(N);
  reset_reads_itself(N);
  return 0;
}
