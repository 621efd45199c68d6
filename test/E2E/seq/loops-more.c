// RUN: bash %S/../run-seq.sh %s %t
// RUN: WEFT_TARGET=cuda WEFT_RTOL=1e-12 bash %S/../run-seq.sh %s %t.cuda
// RUN: bash %S/../run-mpi.sh %s %t
/* More loop shapes: a step of -3 with a '>' test, bounds held in scalars
   computed before the region, zero-trip and sometimes-empty loops,
   constant-bound loops, j counting down to i, a block-scoped temporary that
   shadows a function-level variable of the same name, and two regions that
   reuse the same iterators. */
#include <stdio.h>
#include <stdlib.h>
#include <math.h>

#ifndef N
#define N 47
#endif

static double A[N], B[N][N], C[N];

static void kernel_loops_more(int n)
{
  int i, j;
  int lo = n / 3, hi = 2 * n / 3 + 1;
  double t = 5.0;

#pragma scop
  for (i = n; i > 0; i -= 3)
    A[i - 1] = A[i - 1] * 2.0 + i;
  for (i = lo; i < hi; i++)
    C[i] = A[i] + A[i - lo];
  for (i = 0; i < n; i++)
    for (j = 0; j < 0; j++)
      C[i] = -1.0;
  for (i = 0; i < n; i++)
    for (j = i; j <= n - 1 - i; j++)
      B[i][j] += 1.0 + j - i;
  for (i = 0; i < 10; i++)
    C[i] += 0.125 * i;
  for (i = 0; i <= n - 1; i++)
    for (j = n - 1; j >= i; j--) {
      double t = B[j][i] * 0.5;
      B[i][j] = B[i][j] + t;
    }
#pragma endscop

  printf("t after region 1 = %.17g\n", t);

#pragma scop
  for (i = 1; i < n; i++) {
    t = 0.0;
    for (j = 0; j < i; j += 2)
      t += B[i][j] - B[j][i];
    C[i] = C[i] * 0.5 + t;
  }
#pragma endscop

  printf("t after region 2 = %.17g\n", t);
}

int main(void)
{
  int i, j;

  for (i = 0; i < N; i++) {
    A[i] = (double)((i * 5 + 1) % 13) / 13.0;
    C[i] = 0.0;
    for (j = 0; j < N; j++)
      B[i][j] = (double)((i * j + 3) % 19) / 19.0;
  }
  kernel_loops_more(N);
  for (i = 0; i < N; i++) {
    printf("%d %.17g %.17g |", i, A[i], C[i]);
    for (j = 0; j < N; j++)
      printf(" %.17g", B[i][j]);
    printf("\n");
  }
  return 0;
}
