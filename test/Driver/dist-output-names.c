// RUN: weft compile %s -o - | grep -v '^// CHECK' | FileCheck %s

// The names the MPI output gives what distribution adds.
//
// A scalar argument of a distributed region comes from code outside it,
// which other ranks may have run on outdated copies of arrays an earlier
// region left on rank 0: when that is so, rank 0 broadcasts it. It goes
// through a one-element array named after it, and every scalar shares one
// message table.

// CHECK: static WEFT_RT_REGION void weft_scale_scop0_distributed(
// CHECK: static const int64_t scalar_message[9] =
// CHECK: bool replicas_stale = weft_rt_replicas_stale();
// CHECK-NEXT: int32_t n_on_rank0[1];
// CHECK-NEXT: n_on_rank0[0] = n;
// CHECK-NEXT: if (replicas_stale) {
// CHECK: weft_rt_bcast_elements(scalar_message, n_on_rank0, 4, 0, values);
// CHECK: double f_on_rank0[1];
// CHECK-NEXT: f_on_rank0[0] = f;
// CHECK: weft_rt_bcast_elements(scalar_message, f_on_rank0, 8, 0, values);
// CHECK: double f_1 = f_on_rank0[0];
// CHECK: int64_t block_lo = weft_rt_block_lo(0, {{.*}}, self, nranks);

// A rank's place in a 2-D grid and its blocks, and a peer's.
// CHECK: static WEFT_RT_REGION void weft_smooth_scop0_distributed(
// CHECK: int64_t grid_row = self / grid_cols;
// CHECK-NEXT: int64_t grid_col = self % grid_cols;
// CHECK-NEXT: int64_t row_block_lo = weft_rt_block_lo(1, {{.*}}, grid_row, grid_rows);
// CHECK-NEXT: int64_t row_block_hi = weft_rt_block_hi(1, {{.*}}, grid_row, grid_rows);
// CHECK-NEXT: int64_t col_block_lo = weft_rt_block_lo(1, {{.*}}, grid_col, grid_cols);
// CHECK-NEXT: int64_t col_block_hi = weft_rt_block_hi(1, {{.*}}, grid_col, grid_cols);
// The loops' bounds cut to the rank's block are named after the loops;
// messages go to and come from each peer.
// CHECK: int64_t i_lo = 1 > row_block_lo ? 1 : row_block_lo;
// CHECK-NEXT: int64_t i_hi = 39 < row_block_hi ? 39 : row_block_hi;
// CHECK-NEXT: for (int64_t i = i_lo; i < i_hi; i++) {
// CHECK: for (int64_t peer = 0; peer < nranks; peer++) {
// CHECK-NEXT: if (peer != self) {
// CHECK-NEXT: int64_t peer_row = peer / grid_cols;
// CHECK-NEXT: int64_t peer_col = peer % grid_cols;
// CHECK-NEXT: int64_t peer_row_block_lo = weft_rt_block_lo(1, {{.*}}, peer_row, grid_rows);

// The range a block distribution splits is named after its loop.
// CHECK: static WEFT_RT_REGION void weft_relax_scop0_distributed(
// CHECK: int64_t i_end = n_{{[0-9]+}} - 1;
// CHECK: int64_t block_lo = weft_rt_block_lo(1, i_end, self, nranks);

double A[100];

void scale(int n, double f) {
  int i;
#pragma scop
#pragma weft distribute(i: block)
  for (i = 0; i < n; i++)
    A[i] = f * A[i];
#pragma endscop
}

#define N 40
double B[N][N], C[N][N];

void smooth(void) {
  int i, j;
#pragma scop
#pragma weft distribute(i: block, j: block)
  for (i = 1; i < N - 1; i++)
    for (j = 1; j < N - 1; j++)
      C[i][j] = B[i - 1][j] + B[i + 1][j] + B[i][j - 1] + B[i][j + 1];
#pragma endscop
}

double D[100];

void relax(int n) {
  int i;
#pragma scop
#pragma weft distribute(i: block)
  for (i = 1; i < n - 1; i++)
    D[i] = 0.5 * (A[i - 1] + A[i + 1]);
#pragma endscop
}
