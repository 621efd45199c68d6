// RUN: weft compile --target=seq --emit=mlir -I %S/Inputs -D N=64 -DSTEPS %s -o - | FileCheck %s
// RUN: weft compile --target=seq --emit=mlir -I %S/Inputs -DN=32 -D STEPS=3 %s -o - | FileCheck %s --check-prefix=SMALL
// RUN: not weft compile --target=seq --emit=mlir -DN=32 %s -o - 2>&1 | FileCheck %s --check-prefix=NOINC

// Regions see the preprocessed program: macros from a header found with -I
// and from -D (with and without a value) are expanded before import.

// NOINC: macros.c:[[@LINE+1]]:10: fatal error: 'stencil.h' file not found
#include "stencil.h"

// CHECK-LABEL: func.func @weft_smooth_scop0(
// CHECK-SAME: memref<?x64xf64>
// CHECK: affine.for %{{.*}} = 0 to 1 {
// CHECK: affine.for %[[I:.*]] = 1 to 63 {
// CHECK: affine.for %[[J:.*]] = 1 to 63 {
// CHECK: arith.constant 2.500000e-01 : f64
// CHECK: affine.load %{{.*}}[%[[I]] - 1, %[[J]]]
// CHECK: affine.load %{{.*}}[%[[I]] + 1, %[[J]]]
// CHECK: affine.load %{{.*}}[%[[I]], %[[J]] - 1]
// CHECK: affine.load %{{.*}}[%[[I]], %[[J]] + 1]

// SMALL-LABEL: func.func @weft_smooth_scop0(
// SMALL-SAME: memref<?x32xf64>
// SMALL: affine.for %{{.*}} = 0 to 3 {
// SMALL: affine.for %{{.*}} = 1 to 31 {
void smooth(double A[N][N], double B[N][N]) {
#pragma scop
  for (int t = 0; t < STEPS; t++)
    for (int i = 1; i < N - 1; i++)
      for (int j = 1; j < N - 1; j++)
        B[i][j] = AVG(A, i, j);
#pragma endscop
}
