// RUN: bash %S/../run-seq.sh %s %t
// RUN: WEFT_TARGET=cuda bash %S/../run-seq.sh %s %t.cuda
// RUN: bash %S/../run-mpi.sh %s %t
/* Several regions in one file: two in one function with ordinary code (a
   printf, a static counter) between them, one in another function, a region
   without any loop, comments and function-like macros inside regions, and
   an int scalar parameter updated inside a region. */
#include <stdio.h>
#include <stdlib.h>
#include <math.h>

#ifndef N
#define N 57
#endif

#define SCALE 3
#define IDX(i) ((i) + 1)
#define SQ(x) ((x) * (x))

static int counter;
static double a[N], b[N], c[N];

static void stage(int n)
{
  int i;

  /* first region */
#pragma scop
  for (i = 0; i < n; i++)
    a[i] = a[i] * SCALE + 1.0; /* a trailing comment inside the region */
#pragma endscop

  counter++;
  printf("between regions: a[3] = %.17g counter = %d\n", a[3], counter);

#pragma scop
  // second region: a recurrence through b
  for (i = 0; i < n - 1; i++)
    b[IDX(i)] = a[i] + b[i] * 0.5;
  c[0] = b[n - 1] + SQ(a[2]);
#pragma endscop
}

static int finish(int n, int k)
{
  int i, j;

#pragma scop
  for (i = 1; i < n; i++) {
    for (j = 0; j < i; j++)
      c[i] += SQ(b[j] - a[i]) / (1.0 + j);
    k = k + 2;
  }
#pragma endscop
  return k;
}

int main(void)
{
  int i, k;

  for (i = 0; i < N; i++) {
    a[i] = (double)(i % 9) / 9.0;
    b[i] = (double)((i * 4) % 13) / 13.0;
    c[i] = 0.0;
  }
  stage(N);
  stage(N - 10);
  k = finish(N, 5);
  printf("k = %d counter = %d\n", k, counter);
  for (i = 0; i < N; i++)
    printf("%d %.17g %.17g %.17g\n", i, a[i], b[i], c[i]);
  return 0;
}
