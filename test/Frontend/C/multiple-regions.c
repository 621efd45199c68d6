// RUN: weft compile --target=seq --emit=mlir %s -o - | FileCheck %s
// RUN: weft compile --target=seq --emit=mlir %s -o %t.mlir && weft-opt %t.mlir -o /dev/null

// Each region becomes its own function, numbered per enclosing function in
// source order; a region only takes the variables it uses.

// CHECK-LABEL: func.func @weft_first_scop0(
// CHECK-SAME: %{{.*}}: memref<?xf64> {weft.c_arg = "(double *)(A)", weft.may_alias})
// CHECK: affine.for %{{.*}} = 0 to 10 {
// CHECK: return

// CHECK-LABEL: func.func @weft_first_scop1(
// CHECK-SAME: %{{.*}}: memref<?xf64> {weft.c_arg = "(double *)(B)", weft.may_alias}
// CHECK-SAME: %{{.*}}: f64 {weft.c_arg = "s"})
// CHECK: affine.for %{{.*}} = 0 to 20 {
// CHECK: return

// CHECK-LABEL: func.func @weft_second_scop0(
// CHECK-SAME: %{{.*}}: memref<i32> {weft.c_arg = "&k"})
// CHECK: return
// CHECK-NOT: func.func
void first(double A[10], double B[20], double s) {
#pragma scop
  for (int i = 0; i < 10; i++)
    A[i] = 0.0;
#pragma endscop
  s = s * 2;
#pragma scop
  for (int i = 0; i < 20; i++)
    B[i] = s;
#pragma endscop
}

int second(void) {
  int k;
#pragma scop
  k = 42;
#pragma endscop
  return k;
}
