// RUN: weft-opt %s --convert-dist-to-emitc | FileCheck %s

// Whether only rank 0 holds current data, and recording that it does.
// CHECK-LABEL: func.func @stale
// CHECK: %[[S:.*]] = emitc.call_opaque "weft_rt_replicas_stale"() : () -> i1
// CHECK: scf.if %[[S]]
// CHECK: emitc.call_opaque "weft_rt_set_replicas_stale"() : () -> ()
func.func @stale() {
  %s = dist.replicas_stale
  scf.if %s {
    dist.set_replicas_stale
  }
  return
}

// The overlap test of dist-alias-check: each range with its element size.
// CHECK-LABEL: func.func @overlap
// CHECK-SAME: (%[[A:.*]]: memref<?xf64>, %[[B:.*]]: memref<?x4xi32>
// CHECK-DAG: %[[AP:.*]] = builtin.unrealized_conversion_cast %[[A]] : memref<?xf64> to !emitc.ptr<f64>
// CHECK-DAG: %[[BP:.*]] = builtin.unrealized_conversion_cast %[[B]] : memref<?x4xi32> to !emitc.ptr<i32>
// CHECK: %[[S8:.*]] = "emitc.constant"() <{value = 8 : i64}>
// CHECK: %[[S4:.*]] = "emitc.constant"() <{value = 4 : i64}>
// CHECK: emitc.call_opaque "weft_rt_ranges_overlap"(%[[AP]], %{{.*}}, %{{.*}}, %[[S8]], %[[BP]], %{{.*}}, %{{.*}}, %[[S4]]) : (!emitc.ptr<f64>, i64, i64, i64, !emitc.ptr<i32>, i64, i64, i64) -> i1
func.func @overlap(%a: memref<?xf64>, %b: memref<?x4xi32>, %lo: index, %hi: index) -> i1 {
  %o = dist.ranges_overlap %a[%lo, %hi], %b[%lo, %hi] : memref<?xf64>, memref<?x4xi32>
  return %o : i1
}
