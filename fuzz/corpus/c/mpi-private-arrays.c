// Private arrays: no code outside the region reads them (static arrays
// named only in the region, local arrays of the function) and the region
// writes every element before reading it. What the region leaves in them
// is dead, so no message gathers them to rank 0, and ranks touch only their
// blocks and halos. A region-only array that the region reads before
// writing (`rev`, reversed again on every call) keeps what the previous
// call left: it stays shared, and every call sees all of it; `w`, written
// first, is private.
// REQUIRES: mpicc, mpirun
// RUN: bash %S/../run-mpi.sh %s %t 1 2 3 4 6
// RUN: weft compile --report %s -o %t.c 2>&1 | FileCheck %s
// RUN: weft compile --report %s -o %t.c 2>&1 | FileCheck %s --check-prefix=LOCAL
#include <stdio.h>

#define N 37
#define M 23
#define T 4

static double A[N][M], B[N][M], C[M][N];
static double rev[N], w[N];

// The stencil's weights are powers of two and the start values integers,
// so the sums are exact in any order.
static double smooth(void) {
  int t, i, j;
  double sum = 0.0, edge = 0.0;
  double tmp[N];
#pragma scop
#pragma weft distribute(i: block)
  for (i = 0; i < N; i++)
    for (j = 0; j < M; j++) {
      A[i][j] = (i * 7 + j * 3) % 11;
      B[i][j] = 0.0;
      C[j][i] = (i + 2 * j) % 5;
    }
  // C is distributed along its second dimension.
#pragma weft distribute(i: block)
  for (i = 1; i < N - 1; i++)
    for (j = 0; j < M; j++)
      A[i][j] += 0.5 * (C[j][i - 1] + C[j][i + 1]);
  for (t = 0; t < T; t++) {
#pragma weft distribute(i: block)
    for (i = 1; i < N - 1; i++)
      for (j = 1; j < M - 1; j++)
        B[i][j] = 0.25 * (A[i - 1][j] + A[i + 1][j] + A[i][j - 1] + A[i][j + 1]);
#pragma weft distribute(i: block)
    for (i = 1; i < N - 1; i++)
      for (j = 1; j < M - 1; j++)
        A[i][j] = B[i][j];
  }
#pragma weft distribute(i: block)
  for (i = 0; i < N; i++)
    tmp[i] = A[i][M / 2] - A[N - 1 - i][M / 2];
#pragma weft distribute(i: block)
  for (i = 0; i < N; i++) {
    sum += A[i][1];
    edge += tmp[i] * tmp[i];
  }
#pragma endscop
  return sum + 1000.0 * edge;
}

static double reverse(int call) {
  int i;
  double s = 0.0;
#pragma scop
#pragma weft distribute(i: block)
  for (i = 0; i < N; i++)
    w[i] = rev[N - 1 - i];
#pragma weft distribute(i: block)
  for (i = 0; i < N; i++)
    rev[i] = w[i] + call * i;
#pragma weft distribute(i: block)
  for (i = 0; i < N; i++)
    s += rev[i] * (i + 1);
#pragma endscop
  return s;
}

int main(void) {
  int c;
  printf("%.17g\n", smooth());
  for (c = 0; c < 4; c++)
    printf("%.17g\n", reverse(c + 1));
  return 0;
}
// No message takes A, B, tmp or w to rank 0 (rq = 0) after the region: the
// remarks name them only for halos. rev is read from before the region
// and gathered after it.
// CHECK-NOT: {{\((A|B|tmp|w)\): [^;]*rq = 0}}
// CHECK: remark: read from before the region {{.*}}(double *)(rev)
// CHECK-NOT: {{\((A|B|tmp|w)\): [^;]*rq = 0}}
// CHECK: remark: sent after this unit {{.*}}(double *)(rev): {{[^;]*}}rq = 0
// CHECK-NOT: {{\((A|B|tmp|w)\): [^;]*rq = 0}}

// Each rank allocates only the part of A, B, C, tmp and w its blocks touch
// (C by columns); rev keeps its full storage.
// LOCAL-NOT: rank-locally: (double *)(rev)
// LOCAL-DAG: private-arrays.c:{{[0-9]+}}:1: remark: stored rank-locally: (double *)(A): {{.*}} of dimension 0
// LOCAL-DAG: private-arrays.c:{{[0-9]+}}:1: remark: stored rank-locally: (double *)(B): {{.*}} of dimension 0
// LOCAL-DAG: private-arrays.c:{{[0-9]+}}:1: remark: stored rank-locally: (double *)(C): {{.*}} of dimension 1
// LOCAL-DAG: private-arrays.c:{{[0-9]+}}:1: remark: stored rank-locally: (double *)(tmp): {{.*}} of dimension 0
// LOCAL-DAG: private-arrays.c:{{[0-9]+}}:1: remark: stored rank-locally: (double *)(w): {{.*}} of dimension 0
// LOCAL-NOT: rank-locally: (double *)(rev)
