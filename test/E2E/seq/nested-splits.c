// RUN: WEFT_TARGET=cuda WEFT_FLAGS=--fp-reductions=ordered bash %S/../run-seq.sh %s %t
// RUN: WEFT_TARGET=cuda WEFT_FLAGS=--fp-reductions=ordered bash %S/../run-seq.sh %s %t.odd -DM=9 -DN=4 -DSTEPS=3
// RUN: WEFT_TARGET=mpi-cuda WEFT_FLAGS=--fp-reductions=ordered bash %S/../run-mpi.sh %s %t 2 3
/* Found by scripts/fuzz-cuda.py (seed 1, program 56): in a time loop, `i`
   holds a statement and a `j` loop whose first statement alone is parallel
   along `j`. gpu-expose-bands splits `j` first; splitting `i` inside `t` in
   the same round, on the IR from before, once left a copy of the replaced
   `j` loop in both parts, so b[i] += a[i] * a[i] ran twice. Every output
   must print what the sequential program prints, bit for bit. */
#include <stdio.h>

#ifndef M
#define M 3
#endif
#ifndef N
#define N 17
#endif
#ifndef STEPS
#define STEPS 2
#endif

static double a[M + N + 2], b[M + N + 2], c[M + N + 2], d[M + N + 2], q[M + 2];
static double A[M + 1][N + 1];

static void kernel(int steps, int m, int n)
{
  int t, i, j;
#pragma scop
  for (t = 0; t < steps; t++)
    for (i = 0; i < m; i++) {
      q[i] = 0.0;
      for (j = 0; j < n; j++) {
        c[j] = a[i] * 0.5 + A[i][j];
        b[i] = b[i] + a[i] * a[i];
        d[i] = b[j + 1] * 0.5 + d[j];
      }
    }
#pragma endscop
}

int main(void)
{
  int i, j;
  for (i = 0; i < M + N + 2; i++) {
    a[i] = i * 0.25;
    b[i] = 1.0 / (i + 1);
    c[i] = (i % 5) - 2.0;
    d[i] = (i % 3) * 0.5;
  }
  for (i = 0; i < M + 1; i++)
    for (j = 0; j < N + 1; j++)
      A[i][j] = (i * 7 + j * 3) % 11 * 0.125;
  kernel(STEPS, M, N);
  for (i = 0; i < M + N + 2; i++)
    printf("%.17g %.17g %.17g %.17g\n", a[i], b[i], c[i], d[i]);
  for (i = 0; i < M + 2; i++)
    printf("%.17g\n", q[i]);
  return 0;
}
