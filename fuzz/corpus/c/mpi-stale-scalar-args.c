// REQUIRES: mpicc, mpirun
// RUN: bash %S/../run-mpi.sh %s %t 1 2 3 4 6
// Regression: scalars passed by value into a region come from code outside
// regions, which on ranks other than 0 runs on copies an earlier region
// left outdated (its live-out values went to rank 0 only). They were used
// as they were: ranks other than 0 computed their blocks with a wrong
// coefficient (and a wrong loop bound). When the replicas are stale, rank 0
// now broadcasts every scalar argument at the start of the region.
#include <stdbool.h>
#include <stdio.h>

#define N 29
double A[N], B[N];
float F[N];

static void produce(int n) {
  int i;
#pragma scop
#pragma weft distribute(i: block)
  for (i = 0; i < n; i++)
    A[i] = A[i] * 2.0 + i;
#pragma endscop
}

/* Every kind of scalar argument, and a loop bound computed outside. */
static void consume(int n, int m, double c, float f, char ch, long l,
                    unsigned u, bool neg) {
  int i;
#pragma scop
#pragma weft distribute(i: block)
  for (i = 0; i < n; i++)
    B[i] = A[i] * c + f + ch + l + u + (neg ? -1.0 : 1.0);
#pragma weft distribute(i: block)
  for (i = 0; i < m; i++)
    F[i] = (float)(A[i] + B[i]);
#pragma endscop
}

int main(void) {
  int i, r;
  for (i = 0; i < N; i++)
    A[i] = i % 3;
  for (r = 0; r < 3; r++) {
    produce(N);
    /* Read from the first and last blocks of A, on every rank. */
    consume(N, (int)A[N - 1] % 17 + 5, A[N - 1] + A[0], (float)A[1],
            (char)A[2], (long)A[N - 2], (unsigned)A[3], A[N - 3] > 40.0);
    for (i = 0; i < N; i++)
      A[i] = A[i] / 64.0;
  }
  for (i = 0; i < N; i++)
    printf("%d %.17g %.17g %.9g\n", i, A[i], B[i], F[i]);
  return 0;
}
