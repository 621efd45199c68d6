// RUN: weft compile --target=seq --emit=mlir %s -o - | FileCheck %s

// Calls to math library functions become math dialect operations on the
// type of the C function: sqrt/fabs/pow on f64, sqrtf/powf on f32 (so a
// float argument of sqrt is first extended to f64), abs on i32.

#include <math.h>
#include <stdlib.h>

// CHECK-LABEL: func.func @weft_m_scop0(
// CHECK-SAME: %[[A:[a-z0-9]+]]: memref<?xf64>
// CHECK-SAME: %[[F:[a-z0-9]+]]: memref<?xf32>
// CHECK-SAME: %[[B:[a-z0-9]+]]: memref<?xi32>
// CHECK: affine.for %[[I:[a-z0-9]+]] =

// A[i] = sqrt(fabs(A[i]));
// CHECK: %[[X:.*]] = affine.load %[[A]][%[[I]]] : memref<?xf64>
// CHECK-NEXT: %[[ABS:.*]] = math.absf %[[X]] : f64
// CHECK-NEXT: %[[SQ:.*]] = math.sqrt %[[ABS]] : f64
// CHECK-NEXT: affine.store %[[SQ]], %[[A]][%[[I]]] : memref<?xf64>

// F[i] = powf(F[i], 2.0f);
// CHECK: %[[FX:.*]] = affine.load %[[F]][%[[I]]] : memref<?xf32>
// CHECK-NEXT: %[[TWO:.*]] = arith.constant 2.000000e+00 : f32
// CHECK-NEXT: %[[PF:.*]] = math.powf %[[FX]], %[[TWO]] : f32
// CHECK-NEXT: affine.store %[[PF]], %[[F]][%[[I]]] : memref<?xf32>

// F[i] = sqrtf(F[i]) + sqrt(F[i]);
// CHECK: %[[FY:.*]] = affine.load %[[F]][%[[I]]] : memref<?xf32>
// CHECK-NEXT: %[[SF:.*]] = math.sqrt %[[FY]] : f32
// CHECK-NEXT: %[[SFE:.*]] = arith.extf %[[SF]] : f32 to f64
// CHECK-NEXT: %[[FZ:.*]] = affine.load %[[F]][%[[I]]] : memref<?xf32>
// CHECK-NEXT: %[[FZE:.*]] = arith.extf %[[FZ]] : f32 to f64
// CHECK-NEXT: %[[SD:.*]] = math.sqrt %[[FZE]] : f64
// CHECK-NEXT: %[[SUM:.*]] = arith.addf %[[SFE]], %[[SD]] : f64
// CHECK-NEXT: %[[SUMF:.*]] = arith.truncf %[[SUM]] : f64 to f32
// CHECK-NEXT: affine.store %[[SUMF]], %[[F]][%[[I]]] : memref<?xf32>

// A[i] = pow(A[i], 0.5) + exp(A[i]);
// CHECK: math.powf %{{.*}}, %{{.*}} : f64
// CHECK: math.exp %{{.*}} : f64

// B[i] = abs(B[i]);
// CHECK: %[[BI:.*]] = affine.load %[[B]][%[[I]]] : memref<?xi32>
// CHECK-NEXT: %[[BA:.*]] = math.absi %[[BI]] : i32
// CHECK-NEXT: affine.store %[[BA]], %[[B]][%[[I]]] : memref<?xi32>
// CHECK-NOT: call
// CHECK: return
void m(int n, double A[100], float F[100], int B[100]) {
#pragma scop
  for (int i = 0; i < n; i++) {
    A[i] = sqrt(fabs(A[i]));
    F[i] = powf(F[i], 2.0f);
    F[i] = sqrtf(F[i]) + sqrt(F[i]);
    A[i] = pow(A[i], 0.5) + exp(A[i]);
    B[i] = abs(B[i]);
  }
#pragma endscop
}
