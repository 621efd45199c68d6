// RUN: weft-opt %s --linearize-memref-accesses --split-input-file --verify-diagnostics | FileCheck %s

// Static extents become constants; the view is created once, at the entry.
// CHECK-LABEL: func.func @static_2d
// CHECK-SAME: (%[[A:.*]]: memref<4x7xf64>, %[[I:.*]]: index, %[[J:.*]]: index)
// CHECK-DAG: %[[FLAT:.*]] = memref.collapse_shape %[[A]] {{\[}}[0, 1]] : memref<4x7xf64> into memref<28xf64>
// CHECK-DAG: %[[C7:.*]] = arith.constant 7 : index
// CHECK: %[[MUL:.*]] = arith.muli %[[I]], %[[C7]] : index
// CHECK: %[[LIN:.*]] = arith.addi %[[MUL]], %[[J]] : index
// CHECK: %[[V:.*]] = memref.load %[[FLAT]][%[[LIN]]] : memref<28xf64>
// CHECK: memref.store %[[V]], %[[FLAT]][%{{.*}}] : memref<28xf64>
// CHECK-NOT: collapse_shape
func.func @static_2d(%A: memref<4x7xf64>, %i: index, %j: index) {
  %v = memref.load %A[%i, %j] : memref<4x7xf64>
  memref.store %v, %A[%j, %i] : memref<4x7xf64>
  return
}

// -----

// A dynamic inner extent comes from the argument named by weft.dim_args;
// a dynamic outer extent is never needed.
// CHECK-LABEL: func.func @dynamic_3d
// CHECK-SAME: (%[[A:.*]]: memref<?x?x5xi32> {weft.dim_args = array<i64: -1, 3, -1>}, %[[I:.*]]: index, %[[J:.*]]: index, %[[M:.*]]: index)
// CHECK: %[[FLAT:.*]] = memref.collapse_shape %[[A]] {{\[}}[0, 1, 2]] : memref<?x?x5xi32> into memref<?xi32>
// CHECK: %[[T0:.*]] = arith.muli %[[I]], %[[M]] : index
// CHECK: %[[T1:.*]] = arith.addi %[[T0]], %[[J]] : index
// CHECK: %[[T2:.*]] = arith.muli %[[T1]], %{{.*}} : index
// CHECK: %[[T3:.*]] = arith.addi %[[T2]], %[[I]] : index
// CHECK: memref.load %[[FLAT]][%[[T3]]] : memref<?xi32>
func.func @dynamic_3d(%A: memref<?x?x5xi32> {weft.dim_args = array<i64: -1, 3, -1>},
                      %i: index, %j: index, %m: index) -> i32 {
  %v = memref.load %A[%i, %j, %i] : memref<?x?x5xi32>
  return %v : i32
}

// -----

// Rank 0 and rank 1 accesses are already what C can express.
// CHECK-LABEL: func.func @low_rank
// CHECK-NOT: collapse_shape
// CHECK: memref.load %{{.*}}[] : memref<f32>
// CHECK: memref.store %{{.*}}, %{{.*}}[%{{.*}}] : memref<?xf32>
func.func @low_rank(%s: memref<f32>, %x: memref<?xf32>, %i: index) {
  %v = memref.load %s[] : memref<f32>
  memref.store %v, %x[%i] : memref<?xf32>
  return
}

// -----

func.func @missing_extent(%A: memref<?x?xf64>, %i: index) -> f64 {
  // expected-error @+1 {{'memref.load' op dynamic extent of dimension 1 is not available as a 'weft.dim_args' argument}}
  %v = memref.load %A[%i, %i] : memref<?x?xf64>
  return %v : f64
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
