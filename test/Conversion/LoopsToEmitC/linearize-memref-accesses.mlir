// RUN: weft-opt %s --linearize-memref-accesses --split-input-file | FileCheck %s

// Heap storage of rank >= 2 is accessed at a row-major linear index of a
// 1-D view, created once after the allocation; static extents become
// constants, dynamic ones are the allocation's sizes.
// CHECK-LABEL: func.func @static_2d
// CHECK-SAME: (%[[I:.*]]: index, %[[J:.*]]: index)
// CHECK: %[[A:.*]] = memref.alloc() : memref<4x7xf64>
// CHECK-DAG: %[[FLAT:.*]] = memref.collapse_shape %[[A]] {{\[}}[0, 1]] : memref<4x7xf64> into memref<28xf64>
// CHECK-DAG: %[[C7:.*]] = arith.constant 7 : index
// CHECK: %[[MUL:.*]] = arith.muli %[[I]], %[[C7]] : index
// CHECK: %[[LIN:.*]] = arith.addi %[[MUL]], %[[J]] : index
// CHECK: %[[V:.*]] = memref.load %[[FLAT]][%[[LIN]]] : memref<28xf64>
// CHECK: memref.store %[[V]], %[[FLAT]][%{{.*}}] : memref<28xf64>
// CHECK-NOT: collapse_shape
func.func @static_2d(%i: index, %j: index) {
  %A = memref.alloc() : memref<4x7xf64>
  %v = memref.load %A[%i, %j] : memref<4x7xf64>
  memref.store %v, %A[%j, %i] : memref<4x7xf64>
  memref.dealloc %A : memref<4x7xf64>
  return
}

// -----

// Arguments and local arrays keep their subscripts (C subscripts them
// through a pointer to their rows), and so do ranks 0 and 1.
// CHECK-LABEL: func.func @kept
// CHECK-NOT: collapse_shape
// CHECK: memref.load %{{.*}}[%{{.*}}, %{{.*}}, %{{.*}}] : memref<?x?x5xi32>
// CHECK: memref.store %{{.*}}, %{{.*}}[%{{.*}}, %{{.*}}] : memref<3x3xi32>
// CHECK: memref.load %{{.*}}[] : memref<f32>
// CHECK: memref.store %{{.*}}, %{{.*}}[%{{.*}}] : memref<?xf32>
func.func @kept(%A: memref<?x?x5xi32> {weft.dim_args = array<i64: -1, 4, -1>},
                %s: memref<f32>, %x: memref<?xf32>, %i: index, %m: index) {
  %v = memref.load %A[%i, %i, %i] : memref<?x?x5xi32>
  %t = memref.alloca() : memref<3x3xi32>
  memref.store %v, %t[%i, %i] : memref<3x3xi32>
  %f = memref.load %s[] : memref<f32>
  memref.store %f, %x[%i] : memref<?xf32>
  return
}

// -----

// An allocation's dynamic extents come from its operands (rank-local
// storage of a column block).
// CHECK-LABEL: func.func @alloc_columns
// CHECK-SAME: (%[[N:.*]]: index, %[[I:.*]]: index, %[[J:.*]]: index)
// CHECK: %[[L:.*]] = memref.alloc(%[[N]]) : memref<8x?xf64>
// CHECK: %[[FLAT:.*]] = memref.collapse_shape %[[L]]
// CHECK: %[[MUL:.*]] = arith.muli %[[I]], %[[N]] : index
// CHECK: %[[LIN:.*]] = arith.addi %[[MUL]], %[[J]] : index
// CHECK: memref.load %[[FLAT]][%[[LIN]]]
func.func @alloc_columns(%n: index, %i: index, %j: index) -> f64 {
  %l = memref.alloc(%n) : memref<8x?xf64>
  %v = memref.load %l[%i, %j] : memref<8x?xf64>
  memref.dealloc %l : memref<8x?xf64>
  return %v : f64
}
