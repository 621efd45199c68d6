// RUN: bash %S/../run-seq.sh %s %t
// RUN: WEFT_TARGET=cuda bash %S/../run-seq.sh %s %t.cuda
// RUN: bash %S/../run-mpi.sh %s %t
/* Integer kernel: int arrays, / and % on negative operands (C truncation
   semantics), shifts on non-negative values, an int reduction per row and an
   int-to-double conversion. */
#include <stdio.h>
#include <stdlib.h>
#include <math.h>

#ifndef N
#define N 31
#endif
#ifndef M
#define M 45
#endif

int A[N][M], B[N][M], C[N][M];
int h[N];
double avg[N];

static void kernel_intops(int n, int m)
{
  int i, j;

#pragma scop
  for (i = 0; i < n; i++)
    for (j = 0; j < m; j++)
      A[i][j] = (i * 37 + j * 11 - 200) % 17;
  for (i = 0; i < n; i++)
    for (j = 0; j < m; j++)
      B[i][j] = A[i][j] / 3 + A[i][j] % 4 - (i - j) / 5 + (j - i) % 7 - A[i][j] * (i / 4);
  for (i = 0; i < n; i++)
    for (j = 0; j < m; j++)
      C[i][j] = ((i + j) << 2) + ((i * j + 7) >> 1) + ((B[i][j] + 1000) >> 3) - (-B[i][j]) % 9;
  for (i = 0; i < n; i++) {
    h[i] = 0;
    for (j = 0; j < m; j++)
      h[i] += C[i][j] % 13 - B[i][j] / 2;
    avg[i] = (double)h[i] / m;
  }
#pragma endscop
}

int main(void)
{
  int i, j;

  kernel_intops(N, M);
  for (i = 0; i < N; i++) {
    for (j = 0; j < M; j++)
      printf("%d,%d,%d ", A[i][j], B[i][j], C[i][j]);
    printf("| %d %.17g\n", h[i], avg[i]);
  }
  return 0;
}
