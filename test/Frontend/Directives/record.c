// Directives are checked against the region and recorded on the imported
// function as dist attributes for the partitioner.
// RUN: weft compile --target=seq --emit=mlir %s -o - | FileCheck %s
// RUN: weft compile --target=seq --emit=mlir %s -o %t.mlir && weft-opt %t.mlir -o /dev/null

#define N 64
double A[N][N], B[N][N], x[N];

// CHECK-LABEL: func.func @weft_k_scop0(
// CHECK-SAME: memref<64x64xf64> {dist.layout = #dist.layout<[block on 0, cyclic on 1], grid = [4, ?]>, weft.c_arg = "(double *)(A)"}
// CHECK-SAME: memref<64x64xf64> {weft.c_arg = "(double *)(B)", weft.local}
// CHECK-SAME: memref<64xf64> {dist.layout = #dist.layout<[replicated], grid = [4, ?]>, weft.c_arg = "(double *)(x)"}
// CHECK-SAME: attributes {dist.grid = #dist.grid<[4, ?]>, weft.nodist}
// CHECK: affine.for
// CHECK: } {dist.layout = #dist.layout<[block on 1, replicated], grid = [4, ?]>}
// CHECK: affine.for
// CHECK: } {weft.parallel}
void k(int n) {
  int i, j;
#pragma scop
#pragma weft grid(4, *)
#pragma weft distribute A(block, cyclic)
#pragma weft replicate(x)
#pragma weft local(B)
#pragma weft distribute(i: block@1, j: *)
  for (i = 0; i < n; i++)
    for (j = 0; j < n; j++)
      A[i][j] = B[i][j] + x[j];
#pragma weft parallel
  for (i = 0; i < n; i++)
    x[i] = 0;
#pragma weft nodist
#pragma endscop
}

// Without a grid directive, layouts get a grid of run-time extents with as
// many axes as they use; block_cyclic keeps its block size.
// CHECK-LABEL: func.func @weft_nogrid_scop0(
// CHECK-SAME: {dist.layout = #dist.layout<[block_cyclic(8) on 1, block on 0], grid = [?, ?]>
// CHECK-NOT: dist.grid =
void nogrid(int n) {
  int i, j;
#pragma weft scop
#pragma weft distribute A(block_cyclic(8)@1, block)
  for (i = 0; i < n; i++)
    for (j = 0; j < n; j++)
      A[i][j] = 2 * A[i][j];
#pragma weft endscop
}
