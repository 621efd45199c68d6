// RUN: bash %S/../run-seq.sh %s %t
// RUN: WEFT_TARGET=cuda bash %S/../run-seq.sh %s %t.cuda
// RUN: bash %S/../run-mpi.sh %s %t
// size_t and unsigned iterators (scf.while, exact wrap-around: b wraps from
// 255 to 0), and a search loop whose condition reads an array.
#include <stdio.h>
#include <stddef.h>
#define N 23
double A[N][N], x[N], y[N];
unsigned char c[300];
int main(void) {
  size_t i, j;
  unsigned k, n = N;
  unsigned char b;
  for (i = 0; i < N; i++) {
    x[i] = (double)i / 7.0;
    for (j = 0; j < N; j++) A[i][j] = (double)((i * j) % 11) - 5.0;
  }
#pragma scop
  for (i = 0; i < n; i++) {
    y[i] = 0.0;
    for (j = i; j < n; j += 2)
      y[i] += A[i][j] * x[j];
  }
  for (k = 0; k < 3u * n; k++)
    c[k] = (unsigned char)(k * 7u);
  for (b = 250; b >= 250; b++)
    c[b] = 1;
  for (k = 0; k < n && y[k] >= -20.0; k++)
    x[k] = -x[k];
#pragma endscop
  for (i = 0; i < N; i++) printf("%.17g\n", y[i]);
  printf("%zu %zu %u %u %u %u %g\n", i, j, k, b, c[5], c[251], x[3]);
  return 0;
}
