// REQUIRES: mpicc, mpirun
// RUN: bash %S/../run-mpi.sh %s %t 1 2 3 4 6
// Regression: a distributed region whose messages carry a C bool array
// failed in dist-materialize ("'dist.message_buffer' op result #0 must be
// 1D memref of MPI-transferable scalar values, but got 'memref<?xi1>'").
// Bools now travel as bytes: halo reads of a neighbour's flags, live-out
// flags gathered on rank 0, and flags fetched from rank 0 when a second
// call finds the other ranks' copies outdated.
#include <stdbool.h>
#include <stdio.h>

#define N 23
bool flag[N], next[N];
int count[N];

static void step(int n) {
  int i;
#pragma scop
#pragma weft distribute(i: block)
  for (i = 1; i < n - 1; i++)
    next[i] = flag[i - 1] != flag[i + 1];
#pragma weft distribute(i: block)
  for (i = 1; i < n - 1; i++) {
    flag[i] = next[i - 1] + next[i + 1] > 0;
    count[i] += next[i] ? 1 : 0;
  }
#pragma endscop
}

int main(void) {
  int i, r;
  for (i = 0; i < N; i++)
    flag[i] = i % 5 == 0;
  for (r = 0; r < 4; r++) {
    step(N);
    flag[r * 3] = !flag[r * 3];
  }
  for (i = 0; i < N; i++)
    printf("%d %d %d %d\n", i, flag[i], next[i], count[i]);
  return 0;
}
