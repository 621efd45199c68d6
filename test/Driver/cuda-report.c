// RUN: weft compile --target=cuda --report %s -o %t.cu 2>&1 | FileCheck %s

// --report with --target=cuda says where each loop nest runs and why, and
// how each array moves between host and device.

#define N 300
double a[N][N], b[N][N], s[N];

void step(int tsteps) {
  int t, i, j;
#pragma scop
// CHECK: cuda-report.c:[[@LINE+1]]:3: remark: stays on the host: it carries a dependence through a; the loops in it are candidates
  for (t = 0; t < tsteps; t++) {
// CHECK: cuda-report.c:[[@LINE+1]]:5: remark: runs on the device: the iterations of its 2 outer loops are the threads of a 2-D grid, the loop at line [[@LINE+2]] along threadIdx.x (the arrays' contiguous dimension)
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
#pragma endscop
// CHECK: cuda-report.c:11:1: remark: device copies: a moves before and after each statement whose kernels use it (host code uses it too); b is not copied in, comes back after the last (its live-out elements)
}
