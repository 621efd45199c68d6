// RUN: weft-opt %s --pass-pipeline='builtin.module(dist-partition{nominal-size=1000000},func.func(dist-materialize{max-isl-ops=2000}))' 2>&1 | FileCheck %s
// RUN: weft-opt %s --pass-pipeline='builtin.module(dist-partition{nominal-size=1000000},func.func(dist-materialize{max-isl-ops=2000 live-out-everywhere=1}))' 2>&1 | FileCheck %s --check-prefix=EVERY

// When ISL cannot compute a region's messages within the quota, the region
// is not distributed (nothing is rewritten; dist-run-on-root then runs it on
// rank 0 alone) with a warning, rather than failing the compile. Where
// values live after it go to every rank, it runs on every rank.
// CHECK: warning: this region is not distributed: its messages cannot be computed (communication analysis exceeded its quota of 2000 ISL operations)
// EVERY: warning: this region runs on every rank: its messages cannot be computed
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
