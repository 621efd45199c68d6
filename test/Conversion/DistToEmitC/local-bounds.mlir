// RUN: weft-opt %s --convert-dist-to-emitc | FileCheck %s

// The runtime's balanced blocks: lo and hi from the same operands, step 1;
// only the results that are used become calls (C compilers warn about
// unused variables).
// CHECK-LABEL: func.func @block
// CHECK-SAME: (%[[LB:.*]]: index, %[[UB:.*]]: index, %[[P:.*]]: index, %[[NP:.*]]: index
// CHECK-DAG: %[[LB64:.*]] = builtin.unrealized_conversion_cast %[[LB]] : index to i64
// CHECK-DAG: %[[UB64:.*]] = builtin.unrealized_conversion_cast %[[UB]] : index to i64
// CHECK-DAG: %[[P64:.*]] = builtin.unrealized_conversion_cast %[[P]] : index to i64
// CHECK-DAG: %[[NP64:.*]] = builtin.unrealized_conversion_cast %[[NP]] : index to i64
// CHECK: emitc.call_opaque "weft_rt_block_lo"(%[[LB64]], %[[UB64]], %[[P64]], %[[NP64]]) : (i64, i64, i64, i64) -> i64
// CHECK: emitc.call_opaque "weft_rt_block_hi"(%[[LB64]], %[[UB64]], %[[P64]], %[[NP64]]) : (i64, i64, i64, i64) -> i64
// CHECK: "emitc.constant"() <{value = 1 : i64}>
// CHECK-LABEL: func.func @only_lo
// CHECK: weft_rt_block_lo
// CHECK-NOT: weft_rt_block_hi
// CHECK-NOT: emitc.constant
// CHECK: return
func.func @block(%lb: index, %ub: index, %p: index, %np: index, %out: memref<3xindex>) {
  %lo, %hi, %st = dist.local_bounds %lb to %ub at %p of %np by #dist.dim<block on 0>
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  memref.store %lo, %out[%c0] : memref<3xindex>
  memref.store %hi, %out[%c1] : memref<3xindex>
  memref.store %st, %out[%c2] : memref<3xindex>
  return
}

func.func @only_lo(%lb: index, %ub: index, %p: index, %np: index, %out: memref<1xindex>) {
  %lo, %hi, %st = dist.local_bounds %lb to %ub at %p of %np by #dist.dim<block on 0>
  %c0 = arith.constant 0 : index
  memref.store %lo, %out[%c0] : memref<1xindex>
  return
}

// Weighted blocks (equal work) call the weighted functions with the two
// weights after the plain operands.
// CHECK-LABEL: func.func @weighted
// CHECK-SAME: (%[[LB:.*]]: index, %[[UB:.*]]: index, %[[P:.*]]: index, %[[NP:.*]]: index, %[[W0:.*]]: index, %[[W1:.*]]: index
// CHECK-DAG: %[[W064:.*]] = builtin.unrealized_conversion_cast %[[W0]] : index to i64
// CHECK-DAG: %[[W164:.*]] = builtin.unrealized_conversion_cast %[[W1]] : index to i64
// CHECK: emitc.call_opaque "weft_rt_weighted_block_lo"(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %[[W064]], %[[W164]]) : (i64, i64, i64, i64, i64, i64) -> i64
// CHECK: emitc.call_opaque "weft_rt_weighted_block_hi"(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %[[W064]], %[[W164]]) : (i64, i64, i64, i64, i64, i64) -> i64
func.func @weighted(%lb: index, %ub: index, %p: index, %np: index, %w0: index, %w1: index, %out: memref<2xindex>) {
  %lo, %hi, %st = dist.local_bounds %lb to %ub at %p of %np by #dist.dim<block on 0> weighted(%w0, %w1)
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  memref.store %lo, %out[%c0] : memref<2xindex>
  memref.store %hi, %out[%c1] : memref<2xindex>
  return
}
