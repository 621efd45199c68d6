// RUN: weft compile --target=seq --emit=mlir %s -o - | FileCheck %s

// C's usual arithmetic conversions: compound assignments compute in the
// common type and convert back (int += double goes through f64 and
// fptosi), float arithmetic with a double constant is done in f64, and
// short / char operands are promoted to int.

// CHECK-LABEL: func.func @weft_conv_scop0(
// CHECK-SAME: %[[B:[a-z0-9]+]]: memref<?xi32> {weft.c_arg = "(int32_t *)(B)", weft.may_alias}
// CHECK-SAME: %[[X:[a-z0-9]+]]: f64 {weft.c_arg = "x"}
// CHECK-SAME: %[[F:[a-z0-9]+]]: memref<?xf32> {weft.c_arg = "(float *)(F)", weft.may_alias}
// CHECK-SAME: %[[R:[a-z0-9]+]]: memref<?xi32> {weft.c_arg = "(int32_t *)(R)", weft.may_alias}
// CHECK-SAME: %[[S:[a-z0-9]+]]: memref<?xi16> {weft.c_arg = "(int16_t *)(S)", weft.may_alias}
// CHECK-SAME: %[[C:[a-z0-9]+]]: memref<?xi8> {weft.c_arg = "(int8_t *)(C)", weft.may_alias}
// CHECK-SAME: %[[L:[a-z0-9]+]]: memref<?xi64> {weft.c_arg = "(int64_t *)(L)", weft.may_alias}
// CHECK: affine.for %[[I:[a-z0-9]+]] =

// B[i] += x;
// CHECK: %[[BI:.*]] = affine.load %[[B]][%[[I]]] : memref<?xi32>
// CHECK-NEXT: %[[BF:.*]] = arith.sitofp %[[BI]] : i32 to f64
// CHECK-NEXT: %[[SUM:.*]] = arith.addf %[[BF]], %[[X]] : f64
// CHECK-NEXT: %[[BACK:.*]] = arith.fptosi %[[SUM]] : f64 to i32
// CHECK-NEXT: affine.store %[[BACK]], %[[B]][%[[I]]] : memref<?xi32>

// F[i] = F[i] * 0.1;
// CHECK: %[[FI:.*]] = affine.load %[[F]][%[[I]]] : memref<?xf32>
// CHECK-NEXT: %[[FE:.*]] = arith.extf %[[FI]] : f32 to f64
// CHECK: %[[PROD:.*]] = arith.mulf %[[FE]], %{{.*}} : f64
// CHECK-NEXT: %[[FT:.*]] = arith.truncf %[[PROD]] : f64 to f32
// CHECK-NEXT: affine.store %[[FT]], %[[F]][%[[I]]] : memref<?xf32>

// F[i] *= 2.0f; stays in f32.
// CHECK: %[[FI2:.*]] = affine.load %[[F]][%[[I]]] : memref<?xf32>
// CHECK-NEXT: %[[TWO:.*]] = arith.constant 2.000000e+00 : f32
// CHECK-NEXT: %[[FM:.*]] = arith.mulf %[[FI2]], %[[TWO]] : f32
// CHECK-NEXT: affine.store %[[FM]], %[[F]][%[[I]]] : memref<?xf32>

// R[i] = S[i] * S[i + 1]; multiplies in i32, not i16.
// CHECK: %[[S0:.*]] = affine.load %[[S]][%[[I]]] : memref<?xi16>
// CHECK-NEXT: %[[S0E:.*]] = arith.extsi %[[S0]] : i16 to i32
// CHECK-NEXT: %[[S1:.*]] = affine.load %[[S]][%[[I]] + 1] : memref<?xi16>
// CHECK-NEXT: %[[S1E:.*]] = arith.extsi %[[S1]] : i16 to i32
// CHECK-NEXT: %[[SP:.*]] = arith.muli %[[S0E]], %[[S1E]] overflow<nsw> : i32
// CHECK-NEXT: affine.store %[[SP]], %[[R]][%[[I]]] : memref<?xi32>

// C[i] = C[i] + 1; adds in i32 and truncates back to i8.
// CHECK: %[[C0:.*]] = affine.load %[[C]][%[[I]]] : memref<?xi8>
// CHECK-NEXT: %[[C0E:.*]] = arith.extsi %[[C0]] : i8 to i32
// CHECK: %[[CA:.*]] = arith.addi %[[C0E]], %{{.*}} : i32
// CHECK-NEXT: %[[CT:.*]] = arith.trunci %[[CA]] : i32 to i8
// CHECK-NEXT: affine.store %[[CT]], %[[C]][%[[I]]] : memref<?xi8>

// L[i] = x; double to long.
// CHECK: %[[XL:.*]] = arith.fptosi %[[X]] : f64 to i64
// CHECK-NEXT: affine.store %[[XL]], %[[L]][%[[I]]] : memref<?xi64>
// CHECK: return
void conv(int n, int B[100], double x, float F[100], short S[101], int R[100],
          signed char C[100], long L[100]) {
#pragma scop
  for (int i = 0; i < n; i++) {
    B[i] += x;
    F[i] = F[i] * 0.1;
    F[i] *= 2.0f;
    R[i] = S[i] * S[i + 1];
    C[i] = C[i] + 1;
    L[i] = x;
  }
#pragma endscop
}
