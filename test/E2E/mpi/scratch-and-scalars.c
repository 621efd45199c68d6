// Loops that carry anti and output dependences but no flow dependence are
// distributed: scalar temporaries and scratch rows rewritten by every
// iteration (deriche's ym1/ym2, a row buffer), a last value read after the
// loop, and an element read by every iteration and rewritten by the last
// one. Each rank has its own copy, and the exact flow says whose value later
// readers get. A loop that reads its accumulator between updates (a prefix
// sum) carries a flow dependence and stays on every rank.
// REQUIRES: mpicc, mpirun
// RUN: bash %S/../run-mpi.sh %s %t 1 2 3 4 6
// RUN: weft compile --report %s -o %t.c 2>&1 | FileCheck %s
// RUN: weft compile --report %s -o %t.c 2>&1 | FileCheck %s --check-prefix=MESSAGES
#include <stdio.h>

#define N 41
#define M 29

static double img[N][M], out[N][M], row[M], v[N], pre[N], sums[N];
static double last, total;

static void recursive_filter(int n, int m) {
  int i, j;
  double ym1, ym2, xm1;
#pragma scop
// CHECK: scratch-and-scalars.c:[[@LINE+1]]:3: remark: distributed
  for (i = 0; i < n; i++) {
    ym1 = 0.0;
    ym2 = 0.0;
    xm1 = 0.0;
    for (j = 0; j < m; j++) {
      out[i][j] = 0.5 * img[i][j] + 0.25 * xm1 + 0.125 * ym1 - 0.0625 * ym2;
      xm1 = img[i][j];
      ym2 = ym1;
      ym1 = out[i][j];
    }
  }
  last = ym1 + xm1;
#pragma endscop
}

static void scratch_row(int n, int m) {
  int i, j;
#pragma scop
// CHECK: scratch-and-scalars.c:[[@LINE+2]]:3: remark: distributed
#pragma weft distribute(i: block)
  for (i = 0; i < n; i++) {
    for (j = 0; j < m; j++)
      row[j] = img[i][j] * (i + 1);
    for (j = 1; j < m - 1; j++)
      out[i][j] += row[j - 1] - row[j + 1];
  }
#pragma endscop
}

static void read_then_rewritten(int n) {
  int i;
#pragma scop
// CHECK: scratch-and-scalars.c:[[@LINE+2]]:3: remark: distributed
#pragma weft distribute(i: block)
  for (i = 0; i < n; i++)
    v[i] = 0.5 * v[i] + v[n - 1];
#pragma endscop
}

// Variables declared in the region are gone after it: no message gathers
// the last iteration's s (the remarks name only the arrays sums, v and the
// others, never a region variable).
// MESSAGES-NOT: sent after this unit {{.*}}: value:
// MESSAGES: scratch-and-scalars.c:[[@LINE+5]]:3: remark: sent after this unit {{.*}}(double *)(sums)
// MESSAGES-NOT: sent after this unit {{.*}}: value:
static void row_sums(int n, int m) {
  int i, j;
#pragma scop
  for (i = 0; i < n; i++) {
    double s = 0.0;
    for (j = 0; j < m; j++)
      s += img[i][j] * img[i][j];
    sums[i] = s;
  }
#pragma endscop
}

static void prefix_sum(int n) {
  int i;
#pragma scop
  total = 0.0;
// CHECK: scratch-and-scalars.c:[[@LINE+1]]:3: remark: not distributed: the loop carries a flow dependence
  for (i = 0; i < n; i++) {
    total = total + v[i];
    pre[i] = total;
  }
#pragma endscop
}

int main(void) {
  int i, j;
  for (i = 0; i < N; i++) {
    v[i] = (i % 7) * 0.25 - 0.5;
    for (j = 0; j < M; j++)
      img[i][j] = ((i * 3 + j * 5) % 11) * 0.125;
  }
  recursive_filter(N, M);
  scratch_row(N - 3, M);
  read_then_rewritten(N);
  row_sums(N, M);
  prefix_sum(N);
  for (i = 0; i < N; i++) {
    for (j = 0; j < M; j++)
      printf("%.12g ", out[i][j]);
    printf("%.12g %.12g %.12g\n", v[i], pre[i], sums[i]);
  }
  for (j = 0; j < M; j++)
    printf("%.12g ", row[j]);
  printf("\n%.12g %.12g\n", last, total);
  return 0;
}
