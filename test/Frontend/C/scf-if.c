// RUN: weft compile --target=seq --emit=mlir %s -o - | FileCheck %s

// Conditions that are not affine (they read arrays, compare floats, use
// `!=`, `||` or a product of iterators) become scf.if on an i1 computed with
// arith.cmpi / arith.cmpf.

// CHECK-LABEL: func.func @weft_clip_scop0(
// CHECK-SAME: %[[A:[a-z0-9]+]]: memref<?xf64>
// CHECK: affine.for %[[I:[a-z0-9]+]] =

// if (A[i] > 0.5)
// CHECK: %[[X:.*]] = affine.load %[[A]][%[[I]]] : memref<?xf64>
// CHECK: %[[H:.*]] = arith.constant 5.000000e-01 : f64
// CHECK: %[[C0:.*]] = arith.cmpf ogt, %[[X]], %[[H]] : f64
// CHECK: scf.if %[[C0]] {
// CHECK: affine.store
// CHECK: } else {
// CHECK: affine.store
// CHECK: }

// if (i != 3)
// CHECK: %[[I32:.*]] = arith.index_cast %[[I]] : index to i32
// CHECK: %[[C3:.*]] = arith.constant 3 : i32
// CHECK: %[[C1:.*]] = arith.cmpi ne, %[[I32]], %[[C3]] : i32
// CHECK: scf.if %[[C1]] {

// if (i * i < n)
// CHECK: arith.muli %{{.*}}, %{{.*}} : i32
// CHECK: %[[C2:.*]] = arith.cmpi slt, %{{.*}}, %{{.*}} : i32
// CHECK: scf.if %[[C2]] {
// CHECK-NOT: affine.if
// CHECK: return
void clip(int n, double A[100]) {
#pragma scop
  for (int i = 0; i < n; i++) {
    if (A[i] > 0.5)
      A[i] = 0.5;
    else
      A[i] = -A[i];
    if (i != 3)
      A[i] += 1.0;
    if (i * i < n)
      A[i] *= 2.0;
  }
#pragma endscop
}
