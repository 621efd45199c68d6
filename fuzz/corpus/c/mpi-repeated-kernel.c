// REQUIRES: mpicc, mpirun
// RUN: bash %S/../run-mpi.sh %s %t
// A distributed kernel called several times: after each call only rank 0
// holds the live-out values, so the next call must fetch what it reads
// from rank 0 first. Code between the calls updates the data on every rank.
#include <stdio.h>

#define N 37

double A[N], B[N];

static void smooth(int n) {
  int i;
#pragma scop
  for (i = 1; i < n - 1; i++)
    B[i] = (A[i - 1] + A[i] + A[i + 1]) / 3.0;
  for (i = 1; i < n - 1; i++)
    A[i] = B[i] + 0.5 * B[i];
#pragma endscop
}

int main(void) {
  int i, k;
  for (i = 0; i < N; i++) {
    A[i] = (double)((i * 7) % 11);
    B[i] = 0.0;
  }
  for (k = 0; k < 4; k++) {
    smooth(N);
    A[k] += 1.0;
  }
  for (i = 0; i < N; i++)
    printf("%d %.17g %.17g\n", i, A[i], B[i]);
  return 0;
}
