// RUN: weft compile --target=cuda --report %s -o %t.cu 2>&1 | FileCheck %s
// RUN: weft compile --target=mpi-cuda --report %s -o %t.mpi.cu 2>&1 \
// RUN:   | FileCheck %s --check-prefix=MPI

// --report on PolyBench's gemm and syrk (N = 1024, the cost model's
// choice): gpu-expose-bands distributes the i loop over its two j loops and
// interchanges k with the j inside it; the parts are 2-D grids, placed
// together (alone, the scaling by beta would stay on the host: C's copies).
// gemm's product and syrk's triangle (j <= i) get shared-memory tiles; with
// --target=mpi-cuda so do each rank's block of rows of both.

#define N 1024
double A[N][N], B[N][N], C[N][N], D[N][N];

void gemm(double alpha, double beta) {
  int i, j, k;
#pragma scop
  for (i = 0; i < N; i++) {
    for (j = 0; j < N; j++)
      C[i][j] *= beta;
    for (k = 0; k < N; k++)
      for (j = 0; j < N; j++)
        C[i][j] += alpha * A[i][k] * B[k][j];
  }
#pragma endscop
}

void syrk(double alpha, double beta) {
  int i, j, k;
#pragma scop
  for (i = 0; i < N; i++) {
    for (j = 0; j <= i; j++)
      D[i][j] *= beta;
    for (k = 0; k < N; k++)
      for (j = 0; j <= i; j++)
        D[i][j] += alpha * A[i][k] * A[j][k];
  }
#pragma endscop
}

// CHECK: cuda-report-bands.c:18:3: remark: distributed into 2 loops over the parts of its body, so that the loops at line 19, line 21 with it are 2-D bands
// CHECK: cuda-report-bands.c:21:5: remark: interchanged with the loop at line 22, which carries no dependence and becomes the second grid dimension; this loop runs in each thread
// CHECK: cuda-report-bands.c:31:3: remark: distributed into 2 loops over the parts of its body, so that the loops at line 32, line 34 with it are 2-D bands
// CHECK: cuda-report-bands.c:34:5: remark: interchanged with the loop at line 35, which carries no dependence and becomes the second grid dimension; this loop runs in each thread
// CHECK: cuda-report-bands.c:18:3: remark: runs on the device: the iterations of its 2 outer loops are the threads of a 2-D grid, the loop at line 19 along threadIdx.x (the arrays' contiguous dimension); placed with the other part of the loop distributed at line 18: predicted 1.73 ms for the 2 parts with this one on the device (copies 1.38 ms, 346 us less than charged to each device part alone) against 2 ms with it on the host (copies 1.38 ms); alone, predicted 280 us on the CPU against 702 us on the device
// CHECK: cuda-report-bands.c:18:3: remark: runs on the device: the iterations of its 2 outer loops are the threads of a 2-D grid, the loop at line 22 along threadIdx.x (the arrays' contiguous dimension); {{.*}}; blocks of 32 x 8 threads, each computing 2 x 4 elements, the loop at line 21 in shared-memory tiles of 32
// CHECK: cuda-report-bands.c:31:3: remark: runs on the device: the iterations of its 2 outer loops are the threads of a 2-D grid, the loop at line 32 along threadIdx.x (the arrays' contiguous dimension); placed with the other part of the loop distributed at line 31:
// CHECK: cuda-report-bands.c:31:3: remark: runs on the device: the iterations of its 2 outer loops are the threads of a 2-D grid, the loop at line 35 along threadIdx.x (the arrays' contiguous dimension); placed with the other part of the loop distributed at line 31: {{.*}}; alone, predicted {{[^;]*}}; blocks of 32 x 16 threads, each computing 2 x 2 elements, the loop at line 34 in shared-memory tiles of 32
// CHECK: cuda-report-bands.c:17:1: remark: device copies: C goes in before the first kernel (its flow-in elements), comes back after the last (its live-out elements); A goes in
// CHECK: cuda-report-bands.c:21:5: remark: the loop is tiled by 32 in shared memory, each thread computing 2 x 4 elements in registers: the 32 x 8 threads of a block stage A (32 x 32) and B (32 x 64) at each step, 24576 bytes
// CHECK: cuda-report-bands.c:34:5: remark: the loop is tiled by 32 in shared memory, each thread computing 2 x 2 elements in registers: the 32 x 16 threads of a block stage A (32 x 32) and A (32 x 64) at each step, 24576 bytes

// MPI: cuda-report-bands.c:18:3: remark: distributed into 2 loops over the parts of its body
// MPI: cuda-report-bands.c:21:5: remark: interchanged with the loop at line 22
// MPI: cuda-report-bands.c:18:3: remark: runs on the device: the iterations of its 2 outer loops are the threads of a 2-D grid, the loop at line 22 along threadIdx.x
// MPI: cuda-report-bands.c:31:3: remark: distributed into 2 loops over the parts of its body
// MPI: cuda-report-bands.c:34:5: remark: interchanged with the loop at line 35
// MPI: cuda-report-bands.c:31:3: remark: runs on the device: the iterations of its 2 outer loops are the threads of a 2-D grid, the loop at line 35 along threadIdx.x
// MPI: cuda-report-bands.c:21:5: remark: the loop is tiled by 32 in shared memory
// MPI: cuda-report-bands.c:34:5: remark: the loop is tiled by 32 in shared memory
