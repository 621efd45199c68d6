// RUN: bash %S/../run-seq.sh %s %t
// RUN: WEFT_TARGET=cuda WEFT_RTOL=1e-12 bash %S/../run-seq.sh %s %t.cuda
// RUN: WEFT_TARGET=cuda WEFT_FLAGS=--fp-reductions=ordered bash %S/../run-seq.sh %s %t.cuda-ordered
// RUN: WEFT_TARGET=cuda WEFT_RTOL=1e-12 bash %S/../run-seq.sh %s %t.cuda-odd -DN=257 -DM=3
// RUN: WEFT_RTOL=1e-12 bash %S/../run-mpi.sh %s %t.mpi 1 3
/* Reductions a GPU's threads combine (docs/cuda.md, "Reductions"): a
   residual norm and the largest change inside a time loop around a Jacobi
   sweep (the arrays stay on the device), a float dot product, an int count,
   a 64-bit sum, a product and a minimum, at sizes that are not multiples of
   the blocks; and a running sum whose partial results are stored
   (`p[i] = (s += a[i])`), which is not a reduction the threads may combine
   and must stay in order. */
#include <stdio.h>

#ifndef N
#define N 1000
#endif
#ifndef M
#define M 37
#endif

static double u[N][M], v[N][M], a[N], p[N];
static float x[N], y[N];

int main(void) {
  int i, j, t, steps = 0;
  double norm = 0.0, change = 0.0, prod = 1.0, least = 1.0e300, run = 0.0;
  float dot = 0.0f;
  int count = 0;
  long long big = 0;

  for (i = 0; i < N; i++) {
    for (j = 0; j < M; j++)
      u[i][j] = v[i][j] = (double)((i * 7 + j * 13) % 17) / 16.0;
    a[i] = (double)((i * 5) % 9) - 4.0;
    x[i] = (float)(i % 5);
    y[i] = (float)((i % 3) - 1);
  }

#pragma scop
  for (t = 0; t < 4; t++) {
    for (i = 1; i < N - 1; i++)
      for (j = 1; j < M - 1; j++)
        v[i][j] = 0.25 * (u[i - 1][j] + u[i + 1][j] + u[i][j - 1] + u[i][j + 1]);
    norm = 0.0;
    change = 0.0;
    for (i = 1; i < N - 1; i++)
      for (j = 1; j < M - 1; j++) {
        norm += (v[i][j] - u[i][j]) * (v[i][j] - u[i][j]);
        change = (v[i][j] - u[i][j] > change) ? v[i][j] - u[i][j] : change;
      }
    for (i = 1; i < N - 1; i++)
      for (j = 1; j < M - 1; j++)
        u[i][j] = v[i][j];
    steps = steps + 1;
  }
  for (i = 0; i < N; i++)
    dot += x[i] * y[i];
  for (i = 0; i < N; i++)
    for (j = 0; j < M; j++)
      count += u[i][j] > 0.5 ? 1 : 0;
  for (i = 0; i < N; i++)
    big += (long long)(i * 3) * 1000003LL;
  for (i = 0; i < N; i += 7)
    prod *= 1.0 + a[i] / 64.0;
  for (i = 0; i < N; i++)
    least = a[i] < least ? a[i] : least;
  for (i = 0; i < N; i++)
    p[i] = (run += a[i]);
#pragma endscop

  printf("steps %d norm %.15g change %.15g\n", steps, norm, change);
  printf("dot %.9g count %d big %lld\n", (double)dot, count, big);
  printf("prod %.15g least %.15g run %.15g\n", prod, least, run);
  for (i = 0; i < N; i += N / 7)
    printf("p[%d] = %.15g u[%d][1] = %.15g\n", i, p[i], i, u[i][1]);
  return 0;
}
