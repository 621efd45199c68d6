// RUN: weft-opt %s --gpu-localize-scalars -split-input-file | FileCheck %s

// symm's temp2: a scalar no code outside the region reads, written before
// it is read in every iteration. It becomes a local of the function (the
// argument stays, unused); gpu-select-nests may then give each thread its
// own.
// CHECK-LABEL: func.func @temporary
// CHECK-SAME: (%[[T:[a-z0-9]+]]: memref<f64> {weft.region_only}
// CHECK-NEXT: %[[LOCAL:.*]] = memref.alloca() : memref<f64>
// CHECK: affine.store %{{.*}}, %[[LOCAL]][]
// CHECK: affine.load %[[LOCAL]][]
// CHECK-NOT: %[[T]][]
func.func @temporary(%t: memref<f64> {weft.region_only}, %a: memref<16xf64>, %b: memref<16xf64>) {
  affine.for %i = 0 to 16 {
    %x = affine.load %a[%i] : memref<16xf64>
    affine.store %x, %t[] : memref<f64>
    %y = affine.load %t[] : memref<f64>
    %z = arith.addf %y, %y : f64
    affine.store %z, %b[%i] : memref<16xf64>
  }
  return
}

// -----

// Left alone: a region-only scalar whose first read sees the value from
// before the region (the region may run again: it carries that value), a
// scalar code outside the region may read (no weft.region_only), and an
// array.
// CHECK-LABEL: func.func @kept
// CHECK-NOT: memref.alloca
// CHECK: return
func.func @kept(%s: memref<f64> {weft.region_only}, %u: memref<f64>, %v: memref<1xf64> {weft.region_only}, %a: memref<16xf64>) {
  affine.for %i = 0 to 16 {
    %old = affine.load %s[] : memref<f64>
    %x = affine.load %a[%i] : memref<16xf64>
    %sum = arith.addf %old, %x : f64
    affine.store %sum, %s[] : memref<f64>
    affine.store %x, %u[] : memref<f64>
    %y = affine.load %u[] : memref<f64>
    affine.store %y, %v[0] : memref<1xf64>
    %w = affine.load %v[0] : memref<1xf64>
    affine.store %w, %a[%i] : memref<16xf64>
  }
  return
}
