// RUN: bash %S/../run-seq.sh %s %t
// RUN: WEFT_TARGET=cuda WEFT_GPU_CHOICE=cost bash %S/../run-seq.sh %s %t.cuda
// RUN: grep -c '^ *WEFT_CUDA_LAUNCH(weft_main_' %t.cuda.out.cu | FileCheck %s --check-prefix=LAUNCHES
// RUN: weft compile --target=cuda --report %s -o %t.report.cu 2>&1 | FileCheck %s
// RUN: bash %S/../run-mpi.sh %s %t 1 3
// RUN: WEFT_TARGET=mpi-cuda WEFT_GPU_CHOICE=cost bash %S/../run-mpi.sh %s %t.mc 1 3
// RUN: grep -c '^ *WEFT_CUDA_LAUNCH(weft_main_' %t.mc.mpi.cu | FileCheck %s --check-prefix=LAUNCHES
/* #pragma weft device and host override the cost model's choice of where
   a loop nest runs (--target=cuda); the other targets ignore them. Through
   the CUDA emulation (--target=cuda, and mpi-cuda on 1 and 3 ranks), against
   the sequential program: a small nest forced
   onto the device (one kernel), a nest of parametric size forced onto the
   host, and a small nest the cost model keeps on the host. */
#include <stdio.h>

#define N 23

int main(void)
{
  double a[N], b[N][N], c[N][N];
  int n = N;
  int i, j;

  for (i = 0; i < N; i++) {
    a[i] = (double)(i % 7) / 7;
    for (j = 0; j < N; j++) {
      b[i][j] = (double)((i * j + 3) % 11) / 11;
      c[i][j] = (double)((i + 2 * j) % 5) / 5;
    }
  }

#pragma scop
// CHECK: placement-directives.c:[[@LINE+2]]:3: remark: runs on the device: the iterations of its 2 outer loops are the threads of a 2-D grid, the loop at line [[@LINE+3]] along threadIdx.x (the arrays' contiguous dimension); #pragma weft device
#pragma weft device
  for (i = 0; i < N; i++)
    for (j = 0; j < N; j++)
      b[i][j] = b[i][j] * 0.5 + a[j];
// CHECK: placement-directives.c:[[@LINE+2]]:3: remark: stays on the host: #pragma weft host
#pragma weft host
  for (i = 0; i < n; i++)
    for (j = 0; j < n; j++)
      c[i][j] = c[i][j] + b[j][i];
// CHECK: placement-directives.c:[[@LINE+1]]:3: remark: stays on the host: predicted {{.*}} us on the CPU against {{.*}} us on the device (kernels {{.*}}, 1 launch 5 us, copies {{.*}})
  for (i = 0; i < N; i++)
    a[i] = a[i] + c[i][i];
#pragma endscop

  for (i = 0; i < N; i++)
    printf("%d %.6f %.6f %.6f\n", i, a[i], b[i][N - 1 - i], c[i][i]);
  return 0;
}
// LAUNCHES: 1
