// Loops whose carried dependences all meet at one iteration (a pivot) are
// split there and distributed; the pivot's data travels from its owner to
// the ranks that read it. Each kernel prints what the sequential program
// prints, on rank counts that do not divide the sizes.
// REQUIRES: mpicc, mpirun
// RUN: bash %S/../run-mpi.sh %s %t 1 2 3 4 6
// RUN: weft compile --report %s -o %t.c 2>&1 | FileCheck %s
// RUN: weft compile --report %s -o %t.c 2>&1 | FileCheck %s --check-prefix=DIST
#include <stdio.h>

#define N 37
#define M 23

static double paths[N][N], G[N][M], v[N], w[N], H[N][M], E[N][N], row[N];

// The pinned distribution of Floyd-Warshall's i loop is honoured: its
// pieces carry no dependence.
static void floyd_warshall(int n) {
  int i, j, k;
#pragma scop
// CHECK: pivots.c:[[@LINE+4]]:5: remark: split at iteration i1 = i0: every flow dependence the loop carries starts or ends there
// DIST-COUNT-3: pivots.c:[[@LINE+3]]:5: remark: distributed: blocks of its iterations on each rank as '#pragma weft' asks
  for (k = 0; k < n; k++)
#pragma weft distribute(i : block)
    for (i = 0; i < n; i++)
      for (j = 0; j < n; j++)
        paths[i][j] = paths[i][j] < paths[i][k] + paths[k][j]
                          ? paths[i][j]
                          : paths[i][k] + paths[k][j];
#pragma endscop
}

// Rows before k read row k as it was, rows after it read it rescaled; the
// j loops carry a dependence, so only the i loop can be distributed.
static void rescale_pivot_row(int n, int m) {
  int i, j, k;
#pragma scop
// CHECK: pivots.c:[[@LINE+2]]:5: remark: split at iteration i1 = i0
  for (k = 0; k < n; k++)
    for (i = 0; i < n; i++)
      for (j = 1; j < m; j++)
        G[i][j] = i == k ? 0.5 * G[i][j] + 0.25 * G[i][j - 1]
                         : G[i][j] + 0.25 * G[k][j] - 0.125 * G[i][j - 1];
#pragma endscop
}

// Iteration 0 writes what every later one reads (a pivot at 0), and
// iteration n - 5 rewrites the element that every iteration reads (a pivot
// at n - 5: the iterations after it read the new value).
static void first_and_last(int n) {
  int i;
#pragma scop
// CHECK: pivots.c:[[@LINE+2]]:3: remark: split at iteration i0 = 0
#pragma weft distribute(i : block)
  for (i = 0; i < n; i++)
    v[i] = v[i] + 0.5 * v[0];
// CHECK: pivots.c:[[@LINE+2]]:3: remark: split at iteration i0 = p0 - 5
#pragma weft distribute(i : block)
  for (i = 1; i < n; i++)
    w[i] = 0.75 * w[i] + 0.125 * w[n - 5] + v[i];
#pragma endscop
}

// Pinned distributions of pivot loops: a downward loop, a pivot at the
// loop's first iteration (no piece before it), loops that hold a loop free
// of flow dependences (split although the j loops could be distributed
// instead), and a second inner loop.
static void pinned_pivots(int n, int m) {
  int i, j, k;
#pragma scop
// CHECK: pivots.c:[[@LINE+3]]:5: remark: split at iteration i1 = -i0 + p0 - 1
  for (k = 0; k < n; k++)
#pragma weft distribute(i : block)
    for (i = n - 1; i >= 0; i--)
      for (j = 0; j < n; j++)
        E[i][j] = E[i][j] < E[i][k] + E[k][j] ? E[i][j] : E[i][k] + E[k][j];
// CHECK: pivots.c:[[@LINE+3]]:5: remark: split at iteration i1 = i0 + 1
  for (k = 0; k < n - 1; k++)
#pragma weft distribute(i : block)
    for (i = k + 1; i < n; i++)
      v[i] = v[i] * 0.5 + v[k + 1];
// CHECK: pivots.c:[[@LINE+3]]:5: remark: split at iteration i1 = i0
  for (k = 0; k < n; k++)
#pragma weft distribute(i : block)
    for (i = 0; i < n; i++)
      for (j = 0; j < m; j++)
        H[i][j] = H[i][j] - 0.125 * H[k][j];
// CHECK: pivots.c:[[@LINE+3]]:5: remark: split at iteration i1 = i0
  for (k = 0; k < m; k++)
#pragma weft distribute(i : block)
    for (i = 0; i < n; i++) {
      for (j = 0; j < m; j++)
        H[i][j] = H[i][j] - 0.25 * H[k][j] * H[i][k];
      for (j = 0; j < n; j++)
        row[j] = H[i][1] + j;
    }
#pragma endscop
}

int main(void) {
  int i, j;
  for (i = 0; i < N; i++) {
    v[i] = (i % 5) - 1.5;
    w[i] = 0.25 * (i % 3);
    for (j = 0; j < N; j++)
      paths[i][j] = ((i * 7 + j * 3) % 11 == 0) ? 1e9 : (i * j) % 13 + 1;
    for (j = 0; j < M; j++)
      G[i][j] = ((i + 2 * j) % 7) * 0.125;
  }
  for (i = 0; i < N; i++) {
    row[i] = 0.0;
    for (j = 0; j < N; j++)
      E[i][j] = ((i * 5 + j * 11) % 7 == 0) ? 1e9 : (i + 2 * j) % 17 + 1;
    for (j = 0; j < M; j++)
      H[i][j] = ((3 * i + j) % 5) * 0.25 - 0.5;
  }
  floyd_warshall(N);
  rescale_pivot_row(N - 2, M);
  first_and_last(N);
  pinned_pivots(N, M);
  for (i = 0; i < N; i++) {
    for (j = 0; j < N; j++)
      printf("%g ", paths[i][j]);
    printf("\n");
  }
  for (i = 0; i < N; i++) {
    for (j = 0; j < M; j++)
      printf("%.10g ", G[i][j]);
    printf("%.10g %.10g %.10g\n", v[i], w[i], row[i]);
    for (j = 0; j < N; j++)
      printf("%g ", E[i][j]);
    for (j = 0; j < M; j++)
      printf("%.10g ", H[i][j]);
    printf("\n");
  }
  return 0;
}
