// RUN: weft compile --target=mpi-cuda --report --gpu-choice=always %s -o %t.cu 2>&1 | FileCheck %s
// RUN: weft compile --target=mpi-cuda --report %s -o %t.cost.cu 2>&1 | FileCheck %s --check-prefix=COST

// --report with --target=mpi-cuda: the distribution's remarks, then where
// each loop nest of a rank runs and what moves around it. With every nest
// that may run on the device there (--gpu-choice=always), the arrays stay
// on the device across nests and only what is newer on the host goes in;
// by default, the cost model's choice, predicted for the first rank's
// block at 4 ranks (--ranks): at N = 300 the copies the model charges each
// nest (its whole flow-in and written boxes, as if nothing stayed on the
// device) cost more than the CPU's pass over the block.

#define N 300
double a[N][N], b[N][N], s[N];

void step(int tsteps) {
  int t, i, j;
#pragma scop
// The time loop exchanges halos between its nests: it stays on the host.
// CHECK: mpi-cuda-report.c:[[@LINE+1]]:3: remark: stays on the host: it holds dist.local_bounds, which the polyhedral model does not describe; the loops in it are candidates
  for (t = 0; t < tsteps; t++) {
// Each rank's block of a nest runs as a kernel, its data moved around it.
// COST: mpi-cuda-report.c:[[@LINE+3]]:5: remark: stays on the host: predicted 12.2 us on the CPU against 39.8 us on the device (kernels 0.263 us, 1 launch 5 us, copies 34.5 us) (the first rank's block at 4 ranks)
// CHECK: mpi-cuda-report.c:[[@LINE+2]]:5: remark: runs on the device: the iterations of its 2 outer loops are the threads of a 2-D grid, the loop at line [[@LINE+3]] along threadIdx.x (the arrays' contiguous dimension)
// CHECK: mpi-cuda-report.c:[[@LINE+1]]:5: remark: device copies: a stays on the device across nests, goes in where newer on the host (the box of its flow-in elements); b stays on the device across nests, is not copied in, is newer there after the nest (its written elements)
    for (i = 1; i < N - 1; i++)
      for (j = 1; j < N - 1; j++)
        b[i][j] = 0.25 * (a[i - 1][j] + a[i + 1][j] + a[i][j - 1] + a[i][j + 1]);
// CHECK: mpi-cuda-report.c:[[@LINE+1]]:5: remark: runs on the device
    for (i = 1; i < N - 1; i++)
      for (j = 1; j < N - 1; j++)
        a[i][j] = b[i][j];
  }
// A sweep, replicated on every rank, carries a dependence: it stays on the
// host.
// CHECK: mpi-cuda-report.c:[[@LINE+1]]:3: remark: stays on the host: it carries a dependence through s
  for (i = 1; i < N; i++)
    s[i] = s[i - 1] + a[i][i];
#pragma endscop
}
