// RUN: weft-opt %s --convert-dist-to-emitc | FileCheck %s

// A broadcast: the set's table, the array, the element size, the root,
// then the values: the first element's index and the set's parameters (a
// 1-D array has no extents to pass).
// CHECK-LABEL: func.func @broadcast
// CHECK-SAME: (%[[A:[^:]*]]: memref<?xf64>, %[[ROOT:[^:]*]]: index, %[[N:[^:]*]]: index)
// CHECK-DAG: %[[NC:.*]] = builtin.unrealized_conversion_cast %[[N]] : index to i64
// CHECK-DAG: %[[RC:.*]] = builtin.unrealized_conversion_cast %[[ROOT]] : index to i64
// CHECK-DAG: %[[T:.*]] = "emitc.variable"() <{value = #emitc.opaque<"{1, 1, 1, {{.*}}}">}>
// CHECK-DAG: %[[S8:.*]] = "emitc.constant"() <{value = 8 : i64}>
// CHECK-DAG: %[[Z:.*]] = "emitc.constant"() <{value = 0 : i64}>
// CHECK: %[[V:.*]] = emitc.call_opaque "weft_rt_values"(%[[Z]], %[[NC]])
// CHECK: emitc.call_opaque "weft_rt_bcast_elements"(%[[T]], %{{.*}}, %[[S8]], %[[RC]], %[[V]])
func.func @broadcast(%a: memref<?xf64>, %root: index, %n: index) {
  dist.broadcast %a elements "[n] -> { A[i] : 0 <= i < n }" (%n) root %root : memref<?xf64>
  return
}

// An all-reduce, in place: element type and operator as runtime codes
// (f64 -> 0, i32 -> 3; add -> 0, max -> 3) after the element size.
// CHECK-LABEL: func.func @combine
// CHECK-DAG: %[[Z:.*]] = "emitc.constant"() <{value = 0 : i64}>
// CHECK-DAG: %[[THREE:.*]] = "emitc.constant"() <{value = 3 : i64}>
// CHECK: %[[V:.*]] = emitc.call_opaque "weft_rt_values"(%[[Z]])
// CHECK: emitc.call_opaque "weft_rt_allreduce_elements"(%{{.*}}, %{{.*}}, %{{.*}}, %[[Z]], %[[Z]], %[[V]])
// CHECK: %[[V2:.*]] = emitc.call_opaque "weft_rt_values"(%[[Z]])
// CHECK: emitc.call_opaque "weft_rt_allreduce_elements"(%{{.*}}, %{{.*}}, %{{.*}}, %[[THREE]], %[[THREE]], %[[V2]])
func.func @combine(%b: memref<8xf64>, %c: memref<8xi32>) {
  dist.allreduce add %b elements "{ B[i] : 0 <= i < 8 }" () : memref<8xf64>
  dist.allreduce max %c elements "{ C[i] : 0 <= i < 8 }" () : memref<8xi32>
  return
}
