// RUN: weft compile --target=cuda --report %s -o %t.cu 2>&1 | FileCheck %s
// RUN: weft compile --target=cuda --report --gpu-choice=always %s -o %t.always.cu 2>&1 \
// RUN:   | FileCheck %s --check-prefix=ALWAYS
// RUN: weft compile --target=cuda --report --gpu=H100 %s -o %t.h100.cu 2>&1 \
// RUN:   | FileCheck %s --check-prefix=H100
// RUN: not weft compile --target=cuda --gpu=X100 %s -o %t.bad.cu 2>&1 | FileCheck %s --check-prefix=BADGPU
// RUN: not weft compile --target=cuda --gpu-choice=maybe %s -o %t.bad.cu 2>&1 | FileCheck %s --check-prefix=BADCHOICE
// RUN: test ! -e %t.bad.cu

// --report with --target=cuda says where each loop nest runs and why, with
// the cost model's predictions (GPU time: the kernels' roofline, their
// launches, the copies; CPU time: one core; adjacent nests placed
// together), and how each array moves between host and device. Sizes unknown at compile time (tsteps) take the
// nominal size, 4096.

#define N 300
double a[N][N], b[N][N], s[N], c[N];

void step(int tsteps) {
  int t, i, j;
#pragma scop
// CHECK: cuda-report.c:[[@LINE+1]]:3: remark: stays on the host: it carries a dependence through a; the loops in it are candidates
  for (t = 0; t < tsteps; t++) {
// CHECK: cuda-report.c:[[@LINE+4]]:5: remark: runs on the device: the iterations of its 2 outer loops are the threads of a 2-D grid, the loop at line [[@LINE+5]] along threadIdx.x (the arrays' contiguous dimension)
// CHECK-SAME: ; placed with the adjacent nest at line [[@LINE+7]]: predicted 49.5 ms for the 2 nests with this one on the device (copies 116 us) against 555 ms with it on the host (copies 472 ms)
// CHECK-SAME: ; alone, predicted 24.8 ms on the device (kernels 4.24 ms, 4096 launches 20.5 ms, copies 77.2 us) against 58 ms on the CPU (tsteps, unknown at compile time, taken as 4096)
// H100: cuda-report.c:[[@LINE+1]]:5: remark: runs on the device: {{.*}}; alone, predicted 22.6 ms on the device (kernels 2.11 ms, 4096 launches 20.5 ms, copies 48.6 us) against 58 ms on the CPU
    for (i = 1; i < N - 1; i++)
      for (j = 1; j < N - 1; j++)
        b[i][j] = 0.25 * (a[i - 1][j] + a[i + 1][j] + a[i][j - 1] + a[i][j + 1]);
// CHECK: cuda-report.c:[[@LINE+1]]:5: remark: runs on the device
    for (i = 1; i < N - 1; i++)
      for (j = 1; j < N - 1; j++)
        a[i][j] = b[i][j];
  }
// A sweep carries a dependence: it stays on the host.
// CHECK: cuda-report.c:[[@LINE+1]]:3: remark: stays on the host: it carries a dependence through s
  for (i = 1; i < N; i++)
    s[i] = s[i - 1] + a[i][i];
// A small nest: one launch and its copies cost more than the CPU's pass.
// CHECK: cuda-report.c:[[@LINE+2]]:3: remark: stays on the host: predicted 0.0064 us on the CPU against 25 us on the device (kernels 0.000116 us, 1 launch 5 us, copies 20 us)
// ALWAYS: cuda-report.c:[[@LINE+1]]:3: remark: runs on the device: its iterations are the threads of a 1-D grid; gpu-choice=always
  for (i = 0; i < 20; i++)
    c[i] = 2 * c[i];
#pragma endscop
// BADGPU: weft compile: error: --gpu: unknown GPU type 'X100' (known: T4, P100,
// BADCHOICE: weft compile: error: --gpu-choice must be 'cost' or 'always', got 'maybe'
// CHECK: cuda-report.c:21:1: remark: device copies: a moves before and after each statement whose kernels use it (host code uses it too); b is not copied in, comes back after the last (its live-out elements)
}

// RUN: not weft compile --target=cuda --gpu-register-tile=3 %s -o %t.badtile.cu 2>&1 | FileCheck %s --check-prefix=BADTILE
// RUN: test ! -e %t.badtile.cu
// BADTILE: weft compile: error: --gpu-register-tile must be 1, 2, 4 or 8, got 3
