// A directive on a loop nested in another loop is honoured: the loops
// around it run on every rank (as time loops), even where they carry no
// dependence and could have been split themselves.
// REQUIRES: mpicc, mpirun
// RUN: weft compile --report %s -o %t.c 2>&1 | FileCheck %s
// RUN: bash %S/../run-mpi.sh %s %t 1 2 3 4 6
#include <stdio.h>

// Every t recomputes the same values (found by fuzzing: the pin used to be
// refused with "only the outermost loop of a nest can be distributed").
// CHECK: inner-pins.c:[[@LINE+6]]:5: remark: distributed over a 2-D grid: {{.*}} as '#pragma weft' asks
static void repeated(int tsteps, int n, int m, double A[n][m], double B[n][m]) {
  int i, j, t;
#pragma scop
  for (t = 0; t < tsteps; t++) {
#pragma weft distribute(i: block, j: block)
    for (i = 1; i < n; i++)
      for (j = 1; j < m - 1; j++)
        A[i][j] = B[i][j] + j;
  }
#pragma endscop
}

// The inner loop of a nest, split in blocks for every row.
// CHECK: inner-pins.c:[[@LINE+6]]:5: remark: distributed: blocks of its iterations on each rank as '#pragma weft' asks
static void columns(int n, int m, double A[n][m], double B[n][m]) {
  int i, j;
#pragma scop
  for (i = 0; i < n; i++) {
#pragma weft distribute(j: block)
    for (j = 0; j < m; j++)
      B[i][j] = 2.0 * A[i][j] + B[i][j];
  }
#pragma endscop
}

#define N 13
#define M 11
static double A[N][M], B[N][M];

int main(void) {
  for (int i = 0; i < N; i++)
    for (int j = 0; j < M; j++) {
      A[i][j] = (i * 5 + j) % 9;
      B[i][j] = (i + 2 * j) % 4;
    }
  repeated(3, N, M, A, B);
  columns(N, M, A, B);
  for (int i = 0; i < N; i++)
    for (int j = 0; j < M; j++)
      printf("%.15g %.15g%c", A[i][j], B[i][j], j == M - 1 ? '\n' : ' ');
  return 0;
}
