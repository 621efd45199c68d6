// RUN: weft-opt %s --convert-dist-to-emitc | FileCheck %s

// A broadcast of a buffer's first n elements: count, bytes, root.
// CHECK-LABEL: func.func @broadcast
// CHECK: %[[BUF:.*]] = emitc.call_opaque "weft_rt_buffer"
// CHECK: %[[S8:.*]] = "emitc.constant"() <{value = 8 : i64}>
// CHECK: emitc.call_opaque "weft_rt_bcast"(%[[BUF]], %{{.*}}, %[[S8]], %{{.*}}) : (!emitc.ptr<f64>, i64, i64, i64) -> ()
func.func @broadcast(%root: index, %n: index) {
  %b = dist.message_buffer 0, %root, %n : memref<?xf64>
  dist.broadcast %b[0] [%n] root %root : memref<?xf64>
  return
}

// An all-reduce of a message buffer, in place: element type and operator
// as runtime codes (f64 -> 0, i32 -> 3; add -> 0, max -> 3), the count from
// the buffer.
// CHECK-LABEL: func.func @combine
// CHECK-SAME: (%[[N:.*]]: index)
// CHECK: %[[N64:.*]] = builtin.unrealized_conversion_cast %[[N]] : index to i64
// CHECK: %[[B:.*]] = emitc.call_opaque "weft_rt_buffer"
// CHECK-NEXT: %[[T:.*]] = "emitc.constant"() <{value = 0 : i64}>
// CHECK-NEXT: %[[K:.*]] = "emitc.constant"() <{value = 0 : i64}>
// CHECK-NEXT: emitc.call_opaque "weft_rt_allreduce"(%[[B]], %[[N64]], %[[T]], %[[K]])
// CHECK: %[[C:.*]] = emitc.call_opaque "weft_rt_buffer"
// CHECK-NEXT: %[[T2:.*]] = "emitc.constant"() <{value = 3 : i64}>
// CHECK-NEXT: %[[K2:.*]] = "emitc.constant"() <{value = 3 : i64}>
// CHECK-NEXT: emitc.call_opaque "weft_rt_allreduce"(%[[C]], %[[N64]], %[[T2]], %[[K2]])
func.func @combine(%n: index) {
  %me = dist.rank
  %b = dist.message_buffer 0, %me, %n : memref<?xf64>
  dist.allreduce add %b : memref<?xf64>
  %c = dist.message_buffer 2, %me, %n : memref<?xi32>
  dist.allreduce max %c : memref<?xi32>
  return
}
