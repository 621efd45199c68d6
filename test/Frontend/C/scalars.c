// RUN: weft compile --target=seq --emit=mlir %s -o - | FileCheck %s
// RUN: weft compile --target=seq --emit=mlir %s -o %t.mlir && weft-opt %t.mlir -o /dev/null

// Scalars the region only reads are passed by value; scalars it writes are
// rank-0 memrefs passed as `&name`; scalars declared in the region are
// memref.alloca inside the function.

// CHECK-LABEL: func.func @weft_scalars_scop0(
// CHECK-SAME: %[[SUM:[a-z0-9]+]]: memref<f64> {weft.c_arg = "&sum"}
// CHECK-SAME: %[[N:[a-z0-9]+]]: i32 {weft.c_arg = "n"}
// CHECK-SAME: %[[A:[a-z0-9]+]]: memref<?xf64> {weft.c_arg = "(double *)(A)", weft.may_alias}
// CHECK-SAME: %[[SCALE:[a-z0-9]+]]: f32 {weft.c_arg = "scale"}
// CHECK-SAME: %[[CNT:[a-z0-9]+]]: memref<i64> {weft.c_arg = "&count"}
// CHECK-NOT: weft.c_arg = "&scale"

// CHECK: %[[ZERO:.*]] = arith.constant 0.000000e+00 : f64
// CHECK-NEXT: affine.store %[[ZERO]], %[[SUM]][] : memref<f64>
// CHECK: affine.for %[[I:[a-z0-9]+]] =
// CHECK: %[[TMP:.*]] = memref.alloca() : memref<f64>
// CHECK: %[[AI:.*]] = affine.load %[[A]][%[[I]]] : memref<?xf64>
// CHECK: %[[SC:.*]] = arith.extf %[[SCALE]] : f32 to f64
// CHECK: %[[P:.*]] = arith.mulf %[[AI]], %[[SC]] : f64
// CHECK: affine.store %[[P]], %[[TMP]][] : memref<f64>
// CHECK: %[[OLD:.*]] = affine.load %[[SUM]][] : memref<f64>
// CHECK: %[[T:.*]] = affine.load %[[TMP]][] : memref<f64>
// CHECK: %[[NEW:.*]] = arith.addf %[[OLD]], %[[T]] : f64
// CHECK: affine.store %[[NEW]], %[[SUM]][] : memref<f64>
// CHECK: affine.load %[[CNT]][] : memref<i64>
// CHECK: arith.addi %{{.*}}, %{{.*}} : i64
// CHECK: affine.store %{{.*}}, %[[CNT]][] : memref<i64>
// CHECK: return
double scalars(int n, double A[100], float scale, long *out) {
  double sum;
  long count = 0;
#pragma scop
  sum = 0.0;
  for (int i = 0; i < n; i++) {
    double tmp = A[i] * scale;
    sum += tmp;
    count++;
  }
#pragma endscop
  *out = count;
  return sum;
}
