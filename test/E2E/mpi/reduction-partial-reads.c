// A reduction whose partial result is read inside its loop (here by the
// loop's last iteration, the only read a carried dependence does not
// order) is not split across ranks: that read would see one rank's part.
// The loop runs on every rank; its inner loops may still be split.
// REQUIRES: mpicc, mpirun
// RUN: WEFT_RTOL=1e-9 bash %S/../run-mpi.sh %s %t 1 2 3 4 6
// RUN: weft compile --report %s -o %t.c 2>&1 | FileCheck %s
#include <math.h>
#include <stdio.h>

#define N 37
double A[N][N], S[2];
double s, m, fin, finMax, finArray, r, var, d;

static void partial_reads(int n) {
  int i, j;
#pragma scop
  s = 0.0;
  m = -1.0;
  S[0] = 0.0;
  for (i = 0; i < n; i++) {
    for (j = 0; j < n; j++)
      s += sqrt(A[i][j]);
    m = A[i][2] > m ? A[i][2] : m;
    S[0] += A[i][0] * 0.5;
    if (i == n - 1) {
      fin = s;
      finMax = 2.0 * m + A[i][1];
      finArray = S[0];
    }
  }
#pragma endscop
}

// Resetting the accumulator inside the loop overwrites a partial result:
// not split either.
static void reset_inside(int n) {
  int i;
#pragma scop
  r = 100.0;
// CHECK: reduction-partial-reads.c:[[@LINE+1]]:3: remark: not distributed: the loop carries a flow dependence
  for (i = 0; i < n; i++) {
    if (i == 5)
      r = 0.0;
    r += A[i][3];
  }
#pragma endscop
}

// A scalar temporary next to a reduction does not stop the split (each
// rank has its own d; the last iteration's d reaches rank 0).
static void variance(int n) {
  int i;
#pragma scop
  var = 0.0;
// CHECK: reduction-partial-reads.c:[[@LINE+2]]:3: remark: distributed: blocks of its iterations on each rank, partial results combined with MPI_Allreduce (add) as '#pragma weft' asks
#pragma weft distribute(i: block)
  for (i = 0; i < n; i++) {
    d = A[i][1] - 1.5;
    var += d * d;
  }
#pragma endscop
}

int main(void) {
  int i, j;
  for (i = 0; i < N; i++)
    for (j = 0; j < N; j++)
      A[i][j] = (i * 7 + j) % 4 + (i == 17 && j == 2 ? 9.0 : 0.0);
  partial_reads(N);
  reset_inside(N);
  variance(N);
  printf("%.9f %.9f %.9f %.9f %.9f %.9f\n", s, fin, m, finMax, S[0], finArray);
  printf("%.9f %.9f %.9f\n", r, var, d);
  return 0;
}
