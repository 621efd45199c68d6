// RUN: weft compile --target=seq --emit=mlir %s -o - | FileCheck %s
// RUN: weft compile --target=seq --emit=mlir %s -o %t.mlir && weft-opt %t.mlir -o /dev/null

// An affine loop nest: bounds that use integer parameters, a non-unit step
// with a `<=` bound, and subscripts that are affine in the iterators.

// CHECK-DAG: #[[UBM1:.*]] = affine_map<()[s0] -> (s0 - 1)>

// CHECK-LABEL: func.func @weft_kernel_scop0(
// CHECK-SAME: %[[N:[a-z0-9]+]]: i32 {weft.c_arg = "n"}
// CHECK-SAME: %[[M:[a-z0-9]+]]: i32 {weft.c_arg = "m"}
// CHECK-SAME: %[[A:[a-z0-9]+]]: memref<?x200xf64> {weft.c_arg = "(double *)(A)", weft.may_alias}
// CHECK-SAME: %[[ALPHA:[a-z0-9]+]]: f64 {weft.c_arg = "alpha"}
// CHECK-SAME: %[[B:[a-z0-9]+]]: memref<?x200xf64> {weft.c_arg = "(double *)(B)", weft.may_alias}
// CHECK-DAG: %[[NI:.*]] = arith.index_cast %[[N]] : i32 to index
// CHECK-DAG: %[[MI:.*]] = arith.index_cast %[[M]] : i32 to index
// CHECK: affine.for %[[I:.*]] = 0 to %[[NI]] {
// CHECK: affine.for %[[J:.*]] = 1 to %[[MI]] step 2 {
// CHECK: %[[X:.*]] = affine.load %[[B]][%[[I]] + 1, %[[J]] * 2 - 1] : memref<?x200xf64>
// CHECK: %[[Y:.*]] = arith.mulf %[[ALPHA]], %[[X]] : f64
// CHECK: %[[Z:.*]] = affine.load %[[A]][%[[I]], %[[J]] - 1] : memref<?x200xf64>
// CHECK: %[[S:.*]] = arith.addf %[[Y]], %[[Z]] : f64
// CHECK: affine.store %[[S]], %[[A]][%[[I]], %[[J]]] : memref<?x200xf64>
// CHECK: affine.for %{{.*}} = 0 to #[[UBM1]]()[%[[NI]]] step 3 {
// CHECK: affine.store %{{.*}}, %[[A]][%{{.*}} * 2 + 5, 7] : memref<?x200xf64>
// CHECK: return
void kernel(int n, int m, double A[100][200], double alpha, double B[100][200]) {
  int i, j;
#pragma scop
  for (i = 0; i < n; i++)
    for (j = 1; j <= m - 1; j += 2)
      A[i][j] = alpha * B[i + 1][2 * j - 1] + A[i][j - 1];
  for (int k = 0; k < n - 1; k += 3)
    A[2 * k + 5][7] = 0.0;
#pragma endscop
}
