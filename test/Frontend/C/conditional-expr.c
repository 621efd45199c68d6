// RUN: weft compile --target=seq --emit=mlir %s -o - | FileCheck %s

// `?:` becomes scf.if yielding the value of the taken branch; `&&` and `||`
// become scf.if yielding i1, so the right operand is only evaluated when it
// decides the result.

// CHECK-LABEL: func.func @weft_select_scop0(
// CHECK-SAME: %[[T:[a-z0-9]+]]: memref<f64> {weft.c_arg = "&t", weft.region_only}
// CHECK-SAME: %[[A:[a-z0-9]+]]: memref<?xf64>
// CHECK-SAME: %[[X:[a-z0-9]+]]: f64 {weft.c_arg = "x"}
// CHECK-SAME: %[[C:[a-z0-9]+]]: memref<i32> {weft.c_arg = "&c", weft.region_only}
// CHECK: affine.for %[[I:[a-z0-9]+]] =

// t = i > 2 ? A[i] : x;
// CHECK: %[[GT:.*]] = arith.cmpi sgt, %{{.*}}, %{{.*}} : i32
// CHECK: %[[SEL:.*]] = scf.if %[[GT]] -> (f64) {
// CHECK-NEXT: %[[AI:.*]] = affine.load %[[A]][%[[I]]] : memref<?xf64>
// CHECK-NEXT: scf.yield %[[AI]] : f64
// CHECK-NEXT: } else {
// CHECK-NEXT: scf.yield %[[X]] : f64
// CHECK-NEXT: }
// CHECK-NEXT: affine.store %[[SEL]], %[[T]][] : memref<f64>

// if (i > 1 && A[i - 1] > 0.0) c += 1;
// CHECK: %[[L:.*]] = arith.cmpi sgt, %{{.*}}, %{{.*}} : i32
// CHECK: %[[AND:.*]] = scf.if %[[L]] -> (i1) {
// CHECK: affine.load %[[A]][%[[I]] - 1] : memref<?xf64>
// CHECK: %[[R:.*]] = arith.cmpf ogt
// CHECK: scf.yield %[[R]] : i1
// CHECK: } else {
// CHECK: %[[F:.*]] = arith.constant false
// CHECK: scf.yield %[[F]] : i1
// CHECK: }
// CHECK: scf.if %[[AND]] {
// CHECK: affine.load %[[C]][] : memref<i32>
// CHECK: arith.addi
// CHECK: affine.store %{{.*}}, %[[C]][] : memref<i32>

// if (A[i] < 0.0 || i == 0) c -= 1;
// CHECK: %[[L2:.*]] = arith.cmpf olt
// CHECK: %[[OR:.*]] = scf.if %[[L2]] -> (i1) {
// CHECK: %[[TR:.*]] = arith.constant true
// CHECK: scf.yield %[[TR]] : i1
// CHECK: } else {
// CHECK: %[[R2:.*]] = arith.cmpi eq
// CHECK: scf.yield %[[R2]] : i1
// CHECK: }
// CHECK: scf.if %[[OR]] {
// CHECK: arith.subi
// CHECK: return
void select(int n, double A[100], double x) {
  double t;
  int c = 0;
#pragma scop
  for (int i = 0; i < n; i++) {
    t = i > 2 ? A[i] : x;
    if (i > 1 && A[i - 1] > 0.0)
      c += 1;
    if (A[i] < 0.0 || i == 0)
      c -= 1;
  }
#pragma endscop
}
