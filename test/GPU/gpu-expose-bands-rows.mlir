// RUN: weft-opt %s --gpu-expose-bands | FileCheck %s
// RUN: weft-opt %s --gpu-expose-bands=split-fp-reductions=0 | FileCheck %s --check-prefix=ORDERED

// gemv with its initialisation in the row loop: `j` carries only the sums
// into y[i] and is in A's and x's last subscript, a row reduction
// (DeviceNests.h, bandReductions), which counts as a 2-D band with `i`:
// `y[i] = 0` is cut from it. Where floating-point sums keep their order,
// `j` runs in each thread and nothing is cut.
// CHECK-LABEL: func.func @gemv
// CHECK:      affine.for %[[I:.*]] = 0 to %{{.*}} {
// CHECK-NEXT:   affine.store %{{.*}}, %{{.*}}[%[[I]]]
// CHECK-NEXT: }
// CHECK-NEXT: affine.for %[[I2:.*]] = 0 to %{{.*}} {
// CHECK-NEXT:   affine.for
// ORDERED-LABEL: func.func @gemv
// ORDERED:      affine.for %[[I:.*]] = 0 to %{{.*}} {
// ORDERED-NEXT:   affine.store %{{.*}}, %{{.*}}[%[[I]]]
// ORDERED-NEXT:   affine.for
func.func @gemv(%y: memref<?xf64>, %a: memref<?x?xf64>, %x: memref<?xf64>, %m: index, %n: index, %zero: f64) {
  affine.for %i = 0 to %m {
    affine.store %zero, %y[%i] : memref<?xf64>
    affine.for %j = 0 to %n {
      %acc = affine.load %y[%i] : memref<?xf64>
      %v = affine.load %a[%i, %j] : memref<?x?xf64>
      %w = affine.load %x[%j] : memref<?xf64>
      %p = arith.mulf %v, %w : f64
      %s = arith.addf %acc, %p : f64
      affine.store %s, %y[%i] : memref<?xf64>
    }
  }
  return
}

// Transposed (`z[i] += A[j][i] * x[j]`): a column reduction, `j` along y
// with `i` along x, a 2-D band too: `z[i] = 0` is cut. Ordered, nothing is.
// CHECK-LABEL: func.func @transposed
// CHECK:      affine.for %[[I:.*]] = 0 to %{{.*}} {
// CHECK-NEXT:   affine.store %{{.*}}, %{{.*}}[%[[I]]]
// CHECK-NEXT: }
// CHECK-NEXT: affine.for %[[I2:.*]] = 0 to %{{.*}} {
// CHECK-NEXT:   affine.for
// ORDERED-LABEL: func.func @transposed
// ORDERED:      affine.for %[[I:.*]] = 0 to %{{.*}} {
// ORDERED-NEXT:   affine.store %{{.*}}, %{{.*}}[%[[I]]]
// ORDERED-NEXT:   affine.for
func.func @transposed(%z: memref<?xf64>, %a: memref<?x?xf64>, %x: memref<?xf64>, %m: index, %n: index, %zero: f64) {
  affine.for %i = 0 to %m {
    affine.store %zero, %z[%i] : memref<?xf64>
    affine.for %j = 0 to %n {
      %acc = affine.load %z[%i] : memref<?xf64>
      %v = affine.load %a[%j, %i] : memref<?x?xf64>
      %w = affine.load %x[%j] : memref<?xf64>
      %p = arith.mulf %v, %w : f64
      %s = arith.addf %acc, %p : f64
      affine.store %s, %z[%i] : memref<?xf64>
    }
  }
  return
}

// A column's mean (covariance's `mean[j]`): initialisation, sum and
// division; the sum is cut from both.
// CHECK-LABEL: func.func @mean
// CHECK:      affine.for %{{.*}} = 0 to %{{.*}} {
// CHECK-NEXT:   affine.store
// CHECK-NEXT: }
// CHECK-NEXT: affine.for %{{.*}} = 0 to %{{.*}} {
// CHECK-NEXT:   affine.for
// CHECK:      affine.for %[[J:.*]] = 0 to %{{.*}} {
// CHECK-NEXT:   affine.load %{{.*}}[%[[J]]]
// CHECK-NEXT:   arith.divf
func.func @mean(%mean: memref<?xf64>, %data: memref<?x?xf64>, %m: index, %n: index, %zero: f64, %count: f64) {
  affine.for %j = 0 to %n {
    affine.store %zero, %mean[%j] : memref<?xf64>
    affine.for %i = 0 to %m {
      %acc = affine.load %mean[%j] : memref<?xf64>
      %v = affine.load %data[%i, %j] : memref<?x?xf64>
      %s = arith.addf %acc, %v : f64
      affine.store %s, %mean[%j] : memref<?xf64>
    }
    %t = affine.load %mean[%j] : memref<?xf64>
    %q = arith.divf %t, %count : f64
    affine.store %q, %mean[%j] : memref<?xf64>
  }
  return
}
