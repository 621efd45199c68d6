// RUN: bash %S/../run-seq.sh %s %t
// RUN: WEFT_TARGET=cuda bash %S/../run-seq.sh %s %t.cuda
// RUN: bash %S/../run-mpi.sh %s %t 1 3
// RUN: WEFT_TARGET=mpi-cuda bash %S/../run-mpi.sh %s %t.mc 1 2 3 4
// RUN: WEFT_DEFINES="-DN=7 -DM=5 -DTSTEPS=2" WEFT_TARGET=mpi-cuda bash %S/../run-mpi.sh %s %t.small 2 3
// RUN: weft compile --target=mpi-cuda --gpu-choice=always --report %s -o %t.report.cu 2>&1 | FileCheck %s
/* Host code between device nests that share its arrays (--target=mpi-cuda
   keeps the arrays on the device across nests and time steps): in a time
   loop, a stencil on the device writes B from A; a nest forced onto the
   host reads B where the device wrote it, and writes A and B; a second
   device nest reads both where the host wrote them and writes A, whose
   halo the next step's stencil reads from the other ranks. A rectangular
   N x M grid of awkward sizes, so that blocks differ between ranks; on
   4 ranks a 2 x 2 grid of blocks whose rows are partial (one box run per
   row). Against gcc's build of the original. */
#include <stdio.h>

#ifndef N
#define N 19
#endif
#ifndef M
#define M 13
#endif
#ifndef TSTEPS
#define TSTEPS 4
#endif

static void kernel(int tsteps, int n, int m, double A[n][m], double B[n][m]) {
  int t, i, j;

#pragma scop
  for (t = 0; t < tsteps; t++) {
    // CHECK: host-device-coherence.c:[[@LINE+1]]:5: remark: runs on the device
    for (i = 1; i < n - 1; i++)
      for (j = 1; j < m - 1; j++)
        B[i][j] = 0.2 * (A[i][j] + A[i - 1][j] + A[i + 1][j] + A[i][j - 1] +
                         A[i][j + 1]);
// CHECK: host-device-coherence.c:[[@LINE+2]]:5: remark: stays on the host: #pragma weft host
#pragma weft host
    for (i = 1; i < n - 1; i++)
      for (j = 1; j < m - 1; j++) {
        A[i][j] = 0.5 * B[i][j] + 0.25 * A[i][j];
        B[i][j] = 0.5 * B[i][j] + 1.0 / (i + j);
      }
    // CHECK: host-device-coherence.c:[[@LINE+1]]:5: remark: runs on the device
    for (i = 1; i < n - 1; i++)
      for (j = 1; j < m - 1; j++)
        A[i][j] = A[i][j] + 0.1 * B[i][j];
  }
#pragma endscop
}

int main(void) {
  static double A[N][M], B[N][M];
  int i, j;

  for (i = 0; i < N; i++)
    for (j = 0; j < M; j++) {
      A[i][j] = ((double)i * (j + 2) + 2) / N;
      B[i][j] = ((double)i * (j + 3) + 3) / M;
    }
  kernel(TSTEPS, N, M, A, B);
  for (i = 0; i < N; i++) {
    for (j = 0; j < M; j++)
      printf("%.15g %.15g ", A[i][j], B[i][j]);
    printf("\n");
  }
  return 0;
}
