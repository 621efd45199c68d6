// RUN: WEFT_TARGET=cuda bash %S/../run-seq.sh %s %t
// RUN: WEFT_TARGET=cuda bash %S/../run-seq.sh %s %t.small -DNI=5 -DNJ=3 -DNK=7
// RUN: WEFT_TARGET=cuda bash %S/../run-seq.sh %s %t.even -DNI=64 -DNJ=128 -DNK=32
// RUN: WEFT_TARGET=cuda bash %S/../run-seq.sh %s %t.odd -DNI=70 -DNJ=131 -DNK=33
// RUN: weft compile --target=cuda --report %s -o %t.cu 2>&1 | FileCheck %s
// RUN: WEFT_TARGET=cuda WEFT_FLAGS="--gpu=H100-80GB --gpu-register-tile=8" bash %S/../run-seq.sh %s %t.wide -DNI=70 -DNJ=131 -DNK=33
// RUN: weft compile --target=cuda --report --gpu=H100-80GB --gpu-register-tile=8 %s -o %t.wide.cu 2>&1 | FileCheck %s --check-prefix=WIDE
// WIDE: remark: the loop is tiled by 32 in shared memory, each thread computing 4 x 8 elements in registers
// WIDE: remark: the loop is tiled by {{[0-9]+}} in shared memory, each thread computing 8 x 8 elements in registers
/* Matrix products whose threads each compute several elements (register
   tiles, docs/cuda.md): the sizes are the function's parameters, so the
   cost model chooses the shape for its nominal 4096 (several elements a
   thread) while the runs use sizes that are not multiples of the blocks
   (37 x 23 x 41 by default), smaller than one block, exact multiples, and
   odd. The kernels: a product after a statement of the same thread
   (C = 0), one through transposed operands followed by a statement (D *=
   0.5), one in float, two elements updated in one loop (G, H); and two
   that keep one element a thread: a maximum through `?:` (M: the cost
   model takes no register tiles for a loop with a condition) and one that
   reads an element the tiles cannot stage (D[i][j] in E's loop). Every output
   must print what the sequential program prints, bit for bit; also with up
   to 8 elements a thread along each dimension on an H100 (4 x 8 doubles, 8
   x 8 floats). */
#include <stdio.h>

#ifndef NI
#define NI 37
#endif
#ifndef NJ
#define NJ 23
#endif
#ifndef NK
#define NK 41
#endif

static double A[NI][NK], B[NK][NJ], At[NK][NI], Bt[NJ][NK], x[NK];
static double C[NI][NJ], D[NI][NJ], E[NI][NJ], G[NI][NJ], H[NI][NJ];
static double M[NI][NJ];
static float Af[NI][NK], Bf[NK][NJ], F[NI][NJ];

// CHECK: register-tiles.c:[[@LINE+13]]:7: remark: the loop is tiled by {{[0-9]+}} in shared memory, each thread computing {{[0-9]+}} x {{[0-9]+}} elements in registers
// CHECK: register-tiles.c:[[@LINE+18]]:7: remark: the loop is tiled by {{[0-9]+}} in shared memory, each thread computing {{[0-9]+}} x {{[0-9]+}} elements in registers
// CHECK: register-tiles.c:[[@LINE+24]]:7: remark: the loop is tiled by {{[0-9]+}} in shared memory{{.*}}; no register tiles: the read of D is not staged
// CHECK: register-tiles.c:[[@LINE+29]]:7: remark: the loop is tiled by {{[0-9]+}} in shared memory, each thread computing {{[0-9]+}} x {{[0-9]+}} elements in registers
// CHECK: register-tiles.c:[[@LINE+35]]:7: remark: the loop is tiled by {{[0-9]+}} in shared memory, each thread computing {{[0-9]+}} x {{[0-9]+}} elements in registers
// CHECK: register-tiles.c:[[@LINE+42]]:7: remark: the loop is tiled by {{[0-9]+}} in shared memory: the
static void products(int ni, int nj, int nk)
{
  int i, j, k;
#pragma scop
  for (i = 0; i < ni; i++)
    for (j = 0; j < nj; j++) {
      C[i][j] = 0.0;
      for (k = 0; k < nk; k++)
        C[i][j] += A[i][k] * B[k][j];
    }
  for (i = 0; i < ni; i++)
    for (j = 0; j < nj; j++) {
      D[i][j] = 1.0;
      for (k = 0; k < nk; k++)
        D[i][j] += At[k][i] * Bt[j][k];
      D[i][j] *= 0.5;
    }
  for (i = 0; i < ni; i++)
    for (j = 0; j < nj; j++) {
      E[i][j] = C[i][j];
      for (k = 1; k < nk; k += 2)
        E[i][j] += x[k] * A[i][k - 1] + D[i][j];
    }
  for (i = 0; i < ni; i++)
    for (j = 0; j < nj; j++) {
      F[i][j] = 0.5f;
      for (k = 0; k < nk; k++)
        F[i][j] += Af[i][k] * Bf[k][j];
    }
  for (i = 0; i < ni; i++)
    for (j = 0; j < nj; j++) {
      G[i][j] = 0.0;
      H[i][j] = 1.0;
      for (k = 0; k < nk; k++) {
        G[i][j] += A[i][k] * B[k][j];
        H[i][j] = H[i][j] * 0.75 + G[i][j] * x[k];
      }
    }
  for (i = 0; i < ni; i++)
    for (j = 0; j < nj; j++) {
      M[i][j] = -1.0;
      for (k = 0; k < nk; k++)
        M[i][j] = M[i][j] > A[i][k] * B[k][j] ? M[i][j] : A[i][k] * B[k][j];
    }
#pragma endscop
}

int main(void)
{
  int i, j, k;
  for (i = 0; i < NI; i++)
    for (k = 0; k < NK; k++) {
      A[i][k] = (double)((i * 7 + k * 3) % 11) / 11 - 0.5;
      At[k][i] = (double)((i * 5 + k) % 13) / 13;
      Af[i][k] = (float)((i * 3 + k * 5) % 9) / 9 - 0.25f;
    }
  for (k = 0; k < NK; k++) {
    x[k] = (double)(k % 5) / 5 + 0.25;
    for (j = 0; j < NJ; j++) {
      B[k][j] = (double)((k * 2 + j * 9) % 17) / 17;
      Bt[j][k] = (double)((k + j * 4) % 7) / 7 - 0.25;
      Bf[k][j] = (float)((k + j * 2) % 5) / 5;
    }
  }
  products(NI, NJ, NK);
  for (i = 0; i < NI; i++) {
    for (j = 0; j < NJ; j++)
      printf("%.17g %.17g %.17g %.9g %.17g %.17g %.17g ", C[i][j], D[i][j],
             E[i][j], (double)F[i][j], G[i][j], H[i][j], M[i][j]);
    printf("\n");
  }
  return 0;
}
