// RUN: WEFT_TARGET=cuda WEFT_FLAGS=--fp-reductions=ordered bash %S/../run-seq.sh %s %t
// RUN: WEFT_TARGET=cuda WEFT_FLAGS=--fp-reductions=ordered bash %S/../run-seq.sh %s %t.odd -DM=13 -DN=70 -DT=3 -DU=5 -DF=6
// RUN: WEFT_TARGET=cuda WEFT_RTOL=1e-12 bash %S/../run-seq.sh %s %t.rows
// RUN: WEFT_TARGET=cuda WEFT_GPU_CHOICE=cost bash %S/../run-seq.sh %s %t.cost -DM=5 -DN=6 -DT=2
// RUN: weft compile --target=cuda --gpu-choice=always --report %s -o %t.cu 2>&1 | FileCheck %s
// RUN: weft compile --target=cuda --report -DM=5 -DN=6 -DT=2 %s -o %t.small.cu 2>&1 | FileCheck %s --check-prefix=SMALL
/* Parallel loops inside a loop that carries a dependence
   (gpu-expose-bands, docs/cuda.md): atax's `y[j] += A[i][j] * tmp[i]`
   inside `i`, and a pointwise update inside a time loop, each become one
   launch whose threads run the carried loop, instead of a launch per
   iteration of it; a stencil's time loop cannot be swapped. With the cost
   model at small sizes the nests stay on the host and the swaps are
   undone. Every output prints what the sequential program prints, bit
   for bit with --fp-reductions=ordered, within rounding where the threads
   of a row combine tmp[i]'s sum (the part `i` leaves behind). The
   second run's -DT=3 -DU=5 -DF=6 also reach the CUDA runtime headers the
   output embeds, which must not use such names. */
#include <stdio.h>

#ifndef M
#define M 38
#endif
#ifndef N
#define N 41
#endif
#ifndef T
#define T 4
#endif

static double A[M][N], x[N], y[N], tmp[M], z[N], w[N + 2], v[N + 2];

// CHECK: carried-interchange.c:[[@LINE+12]]:3: remark: distributed into 2 loops over the parts of its body, so that the loop at line [[@LINE+16]] can be interchanged with it
// CHECK: carried-interchange.c:[[@LINE+11]]:3: remark: interchanged with the loop at line [[@LINE+15]], which carries no dependence
// CHECK: carried-interchange.c:[[@LINE+17]]:3: remark: interchanged with the loop at line [[@LINE+18]], which carries no dependence
// CHECK-NOT: interchanged with
// SMALL: carried-interchange.c:[[@LINE+8]]:3: remark: swapped back with the loop at line [[@LINE+12]]: the nest stays on the host
// SMALL: carried-interchange.c:[[@LINE+14]]:3: remark: swapped back with the loop at line [[@LINE+15]]: the nest stays on the host
static void kernels(void)
{
  int i, j, t;
#pragma scop
  for (j = 0; j < N; j++)
    y[j] = 0.0;
  for (i = 0; i < M; i++) {
    tmp[i] = 0.0;
    for (j = 0; j < N; j++)
      tmp[i] = tmp[i] + A[i][j] * x[j];
    for (j = 0; j < N; j++)
      y[j] = y[j] + A[i][j] * tmp[i];
  }
  for (t = 0; t < T; t++)
    for (j = 0; j < N; j++)
      z[j] = z[j] * 0.5 + x[j];
  for (t = 0; t < T; t++) {
    for (j = 1; j <= N; j++)
      v[j] = (w[j - 1] + w[j] + w[j + 1]) / 3;
    for (j = 1; j <= N; j++)
      w[j] = v[j];
  }
#pragma endscop
}

int main(void)
{
  int i, j;
  for (i = 0; i < M; i++)
    for (j = 0; j < N; j++)
      A[i][j] = (double)((i * 5 + j * 3) % 13) / 13 - 0.25;
  for (j = 0; j < N; j++) {
    x[j] = (double)(j % 7) / 7 + 0.5;
    z[j] = (double)(j % 3);
  }
  for (j = 0; j < N + 2; j++)
    w[j] = (double)((j * 11) % 17) / 17;
  kernels();
  for (j = 0; j < N; j++)
    printf("%.17g %.17g %.17g\n", y[j], z[j], w[j + 1]);
  for (i = 0; i < M; i++)
    printf("%.17g\n", tmp[i]);
  return 0;
}
