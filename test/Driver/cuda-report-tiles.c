// RUN: weft compile --target=cuda --report %s -o %t.cu 2>&1 | FileCheck %s
// RUN: weft compile --target=cuda --report --gpu=T4 %s -o %t.t4.cu 2>&1 \
// RUN:   | FileCheck %s --check-prefix=T4
// RUN: awk '/^static __global__ void weft_/,/^}/' %t.cu | grep -c '__syncthreads();' | FileCheck %s --check-prefix=SYNC

// --report on a matrix product: the cost model's block shape and tile
// width for the --gpu device (predicted launch times with and without
// tiles; docs/cost-model.md), then what gpu-stage-tiles staged. On the
// default A100-40GB, 32 x 16 blocks whose threads each compute 2 x 4
// elements (with one element a thread, the reads of the tiles in shared
// memory bound the product); on a T4, whose fp64 rate bounds every shape,
// the first shape considered, 32 x 8, one element a thread.

#define N 1024
double A[N][N], B[N][N], C[N][N];

void product(void) {
  int i, j, k;
#pragma scop
// CHECK: cuda-report-tiles.c:[[@LINE+3]]:3: remark: runs on the device: {{.*}}; blocks of 32 x 16 threads, each computing 2 x 4 elements, the loop at line [[@LINE+7]] in shared-memory tiles of 32 where gpu-stage-tiles can stage its reads: predicted 374 us a launch with tiles, 7.39 ms with 32 x 8 blocks and none
// T4: cuda-report-tiles.c:[[@LINE+2]]:3: remark: runs on the device: {{.*}}; blocks of 32 x 8 threads, the loop at line [[@LINE+6]] in shared-memory tiles of 32 where gpu-stage-tiles can stage its reads: predicted 8.72 ms a launch with tiles, 38.2 ms with 32 x 8 blocks and none
// T4: cuda-report-tiles.c:[[@LINE+5]]:7: remark: the loop is tiled by 32 in shared memory: the 32 x 8 threads of a block stage A (8 x 32) and B (32 x 32) at each step, 10240 bytes
  for (i = 0; i < N; i++)
    for (j = 0; j < N; j++) {
      C[i][j] = 0.0;
// CHECK: cuda-report-tiles.c:[[@LINE+1]]:7: remark: the loop is tiled by 32 in shared memory, each thread computing 2 x 4 elements in registers: the 32 x 16 threads of a block stage A (64 x 32) and B (32 x 64) at each step, 32768 bytes
      for (k = 0; k < N; k++)
        C[i][j] += A[i][k] * B[k][j];
    }
#pragma endscop
}
// SYNC: 2
