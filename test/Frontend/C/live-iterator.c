// RUN: weft compile --target=seq --emit=mlir %s -o - | FileCheck %s

// An iterator declared outside the region and read after it is a rank-0
// memref argument; after its loop the region stores the C final value
// (the first value that fails the condition, or the start value when the
// loop does not run). Iterators not read afterwards get no argument.

// CHECK-DAG: #[[ZERO:.*]] = affine_map<()[s0] -> (0)>
// CHECK-DAG: #[[UB:.*]] = affine_map<()[s0] -> (s0)>

// CHECK-LABEL: func.func @weft_live_scop0(
// CHECK-SAME: %[[I:[a-z0-9]+]]: memref<i32> {weft.c_arg = "&i"}
// CHECK-SAME: %[[N:[a-z0-9]+]]: i32 {weft.c_arg = "n"}
// CHECK-NOT: weft.c_arg = "&j"
// CHECK: %[[NI:.*]] = arith.index_cast %[[N]] : i32 to index
// CHECK: affine.for %{{.*}} = 0 to %[[NI]] step 3 {
// CHECK: affine.for
// CHECK: }
// CHECK: }
// final i = lb + max(ub - lb, 0) ceildiv 3 * 3
// CHECK-NEXT: %[[LB:.*]] = affine.max #[[ZERO]]()[%[[NI]]]
// CHECK-NEXT: %[[UBV:.*]] = affine.min #[[UB]]()[%[[NI]]]
// CHECK-NEXT: %[[D:.*]] = arith.subi %[[UBV]], %[[LB]] : index
// CHECK: %[[DP:.*]] = arith.maxsi %[[D]], %{{.*}} : index
// CHECK: %[[Q:.*]] = arith.divsi %{{.*}}, %{{.*}} : index
// CHECK: %[[OFF:.*]] = arith.muli %[[Q]], %{{.*}} : index
// CHECK: %[[FIN:.*]] = arith.addi %[[LB]], %[[OFF]] : index
// CHECK: %[[FIN32:.*]] = arith.index_cast %[[FIN]] : index to i32
// CHECK: affine.store %[[FIN32]], %[[I]][] : memref<i32>
// CHECK-NEXT: return
int live(int n, double A[100][100]) {
  int i, j;
#pragma scop
  for (i = 0; i < n; i += 3)
    for (j = 0; j < n; j++)
      A[i][j] = 0.0;
#pragma endscop
  return i;
}
