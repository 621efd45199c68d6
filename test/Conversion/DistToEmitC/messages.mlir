// RUN: weft-opt %s --convert-dist-to-emitc | FileCheck %s

// A message buffer of the runtime (slot, peer, count, bytes per element),
// sent and received with the element size and the tag; wait_all completes
// both.
// CHECK-LABEL: func.func @exchange
// CHECK: %[[SLOT:.*]] = "emitc.constant"() <{value = 5 : i64}>
// CHECK: %[[SIZE:.*]] = "emitc.constant"() <{value = 4 : i64}>
// CHECK: %[[BUF:.*]] = emitc.call_opaque "weft_rt_buffer"(%[[SLOT]], %[[PEER:[0-9]+]], %[[N:[0-9]+]], %[[SIZE]]) : (i64, i64, i64, i64) -> !emitc.ptr<f32>
// The buffer's users (stores of the packing loops) see a memref again.
// CHECK-NEXT: %[[MEM:.*]] = builtin.unrealized_conversion_cast %[[BUF]] : !emitc.ptr<f32> to memref<?xf32>
// CHECK: %[[S4:.*]] = "emitc.constant"() <{value = 4 : i64}>
// CHECK: %[[TAG:.*]] = "emitc.constant"() <{value = 1 : i64}>
// CHECK: emitc.call_opaque "weft_rt_isend"(%[[BUF]], %[[N]], %[[S4]], %[[PEER]], %[[TAG]])
// CHECK: "emitc.constant"() <{value = 4 : i64}>
// CHECK: "emitc.constant"() <{value = 2 : i64}>
// CHECK: emitc.call_opaque "weft_rt_irecv"(%[[BUF]], %[[N]], %{{.*}}, %[[PEER]], %{{.*}})
// CHECK: emitc.call_opaque "weft_rt_wait_all"() : () -> ()
// CHECK: memref.store %{{.*}}, %[[MEM]]
func.func @exchange(%peer: index, %n: index, %x: f32) {
  %b = dist.message_buffer 5, %peer, %n : memref<?xf32>
  dist.isend %b[%n] to %peer tag 1 : memref<?xf32>
  dist.irecv %b[%n] from %peer tag 2 : memref<?xf32>
  dist.wait_all
  %c0 = arith.constant 0 : index
  memref.store %x, %b[%c0] : memref<?xf32>
  return
}

// An index element travels as 8 bytes, an i8 as 1.
// CHECK-LABEL: func.func @sizes
// CHECK: "emitc.constant"() <{value = 8 : i64}>
// CHECK: emitc.call_opaque "weft_rt_buffer"{{.*}} -> !emitc.ptr<i64>
// CHECK: "emitc.constant"() <{value = 1 : i64}>
// CHECK: emitc.call_opaque "weft_rt_buffer"{{.*}} -> !emitc.ptr<i8>
func.func @sizes(%peer: index, %n: index) {
  %a = dist.message_buffer 0, %peer, %n : memref<?xindex>
  %b = dist.message_buffer 1, %peer, %n : memref<?xi8>
  dist.isend %a[%n] to %peer tag 0 : memref<?xindex>
  dist.isend %b[%n] to %peer tag 1 : memref<?xi8>
  return
}
