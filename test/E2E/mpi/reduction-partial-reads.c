// A reduction whose partial result is read inside its loop (here by the
// loop's last iteration, the only read a carried dependence does not
// order) is not split across ranks: that read would see one rank's part.
// The loop runs on every rank; its inner loops may still be split.
// REQUIRES: mpicc, mpirun
// RUN: WEFT_RTOL=1e-9 bash %S/../run-mpi.sh %s %t 1 2 3 4 6
#include <math.h>
#include <stdio.h>

#define N 37
double A[N][N], S[2];
double s, m, fin, finMax, finArray;

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

int main(void) {
  int i, j;
  for (i = 0; i < N; i++)
    for (j = 0; j < N; j++)
      A[i][j] = (i * 7 + j) % 4 + (i == 17 && j == 2 ? 9.0 : 0.0);
  partial_reads(N);
  printf("%.9f %.9f %.9f %.9f %.9f %.9f\n", s, fin, m, finMax, S[0], finArray);
  return 0;
}
