// RUN: weft compile --target=seq --emit=mlir %s -o - | FileCheck %s

// A loop bound that the region writes, but not inside that loop, is read
// from its memref when the loop starts: the loop becomes scf.for with that
// value as its upper bound.

// CHECK-LABEL: func.func @weft_shrink_scop0(
// CHECK-SAME: %[[M:[a-z0-9]+]]: memref<i32> {weft.c_arg = "&m", weft.region_only}
// CHECK: affine.for
// CHECK: %[[MV:.*]] = affine.load %[[M]][] : memref<i32>
// CHECK-NEXT: %[[UB:.*]] = arith.index_cast %[[MV]] : i32 to index
// CHECK: scf.for %{{.*}} = %{{.*}} to %[[UB]] step %{{.*}} {
// CHECK: }
// CHECK: affine.load %[[M]][] : memref<i32>
// CHECK: arith.subi
// CHECK: affine.store %{{.*}}, %[[M]][] : memref<i32>
void shrink(int n, double A[100]) {
  int m = n;
#pragma scop
  for (int t = 0; t < 3; t++) {
    for (int i = 0; i < m; i++)
      A[i] += 1.0;
    m = m - 1;
  }
#pragma endscop
}
