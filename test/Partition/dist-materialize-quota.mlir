// RUN: weft-opt %s --pass-pipeline='builtin.module(dist-partition{nominal-size=1000000},func.func(dist-materialize{max-isl-ops=2000}))' 2>&1 | FileCheck %s

// When ISL cannot compute a region's messages within the quota, the region
// runs on every rank (nothing is rewritten) with a warning, rather than
// failing the compile.
// CHECK: warning: this region runs on every rank: its messages cannot be computed (communication analysis exceeded its quota of 2000 ISL operations)
// CHECK-LABEL: func.func @sweeps
// CHECK-NOT: dist.
// CHECK: return
func.func @sweeps(%a: memref<?xf64>, %b: memref<?xf64>, %t: index, %n: index) {
  affine.for %s = 0 to %t {
    affine.for %i = 1 to affine_map<()[s0] -> (s0 - 1)>()[%n] {
      %x = affine.load %a[%i - 1] : memref<?xf64>
      %y = affine.load %a[%i + 1] : memref<?xf64>
      %z = arith.addf %x, %y : f64
      affine.store %z, %b[%i] : memref<?xf64>
    }
    affine.for %i = 1 to affine_map<()[s0] -> (s0 - 1)>()[%n] {
      %x = affine.load %b[%i] : memref<?xf64>
      affine.store %x, %a[%i] : memref<?xf64>
    }
  }
  return
}
