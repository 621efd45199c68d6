// RUN: weft compile --target=seq --emit=mlir %s -o - | FileCheck %s

// A narrowing integer cast is not affine: `(signed char)k < 0` is true for k
// in [128, 256), so it must not become the affine condition `k < 0`. The
// value is truncated to i8, sign-extended back and compared with scf.if.

// CHECK-LABEL: func.func @weft_wrap_scop0(
// CHECK: affine.for
// CHECK-NOT: affine.if
// CHECK: %[[T:.*]] = arith.trunci %{{.*}} : i32 to i8
// CHECK-NEXT: %[[E:.*]] = arith.extsi %[[T]] : i8 to i32
// CHECK: %[[C:.*]] = arith.cmpi slt, %[[E]], %{{.*}} : i32
// CHECK-NEXT: scf.if %[[C]] {
void wrap(int B[300]) {
#pragma scop
  for (int k = 0; k < 300; k++)
    if ((signed char)k < 0)
      B[k] = 1;
#pragma endscop
}
