// RUN: weft-opt %s -canonicalize | FileCheck %s

// CHECK-LABEL: func.func @static_grid_shape()
// CHECK-DAG: %[[C4:.*]] = arith.constant 4 : index
// CHECK-DAG: %[[C2:.*]] = arith.constant 2 : index
// CHECK-NOT: dist.grid_shape
// CHECK: return %[[C4]], %[[C2]]
func.func @static_grid_shape() -> (index, index) {
  %s:2 = dist.grid_shape #dist.grid<[4, 2]>
  return %s#0, %s#1 : index, index
}

// A grid with a run-time extent is not folded.
// CHECK-LABEL: func.func @dynamic_grid_shape()
// CHECK: %[[S:.*]]:2 = dist.grid_shape #dist.grid<[?, 2]>
// CHECK: return %[[S]]#0, %[[S]]#1
func.func @dynamic_grid_shape() -> (index, index) {
  %s:2 = dist.grid_shape #dist.grid<[?, 2]>
  return %s#0, %s#1 : index, index
}

// A replicated dimension is owned entirely.
// CHECK-LABEL: func.func @replicated_bounds(
// CHECK-SAME: %[[LB:[^:]*]]: index, %[[UB:[^:]*]]: index
// CHECK: %[[C1:.*]] = arith.constant 1 : index
// CHECK-NOT: dist.local_bounds
// CHECK: return %[[LB]], %[[UB]], %[[C1]]
func.func @replicated_bounds(%lb: index, %ub: index, %p: index, %np: index) -> (index, index, index) {
  %lo, %hi, %st = dist.local_bounds %lb to %ub at %p of %np by #dist.dim<replicated>
  return %lo, %hi, %st : index, index, index
}

// So is a block or cyclic dimension over a single process.
// CHECK-LABEL: func.func @single_process_bounds(
// CHECK-SAME: %[[LB:[^:]*]]: index, %[[UB:[^:]*]]: index
// CHECK: %[[C1:.*]] = arith.constant 1 : index
// CHECK-NOT: dist.local_bounds
// CHECK: return %[[LB]], %[[UB]], %[[C1]], %[[LB]], %[[UB]], %[[C1]]
func.func @single_process_bounds(%lb: index, %ub: index) -> (index, index, index, index, index, index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %lo, %hi, %st = dist.local_bounds %lb to %ub at %c0 of %c1 by #dist.dim<block on 0>
  %lo2, %hi2, %st2 = dist.local_bounds %lb to %ub at %c0 of %c1 by #dist.dim<cyclic on 0>
  return %lo, %hi, %st, %lo2, %hi2, %st2 : index, index, index, index, index, index
}

// Block-cyclic bounds enumerate block starts and are kept.
// CHECK-LABEL: func.func @block_cyclic_bounds(
// CHECK: dist.local_bounds {{.*}} by #dist.dim<block_cyclic(4) on 0>
func.func @block_cyclic_bounds(%lb: index, %ub: index) -> (index, index, index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %lo, %hi, %st = dist.local_bounds %lb to %ub at %c0 of %c1 by #dist.dim<block_cyclic(4) on 0>
  return %lo, %hi, %st : index, index, index
}

// Communication is never removed, even when its result is unused.
// CHECK-LABEL: func.func @keep_communication(
// CHECK: dist.allreduce add
// CHECK: dist.wait_all
func.func @keep_communication(%x: f64) {
  %0 = dist.allreduce add %x : f64
  dist.wait_all
  return
}
