// RUN: weft-opt %s --linearize-memref-accesses=flat-arguments=1 --split-input-file --verify-diagnostics | FileCheck %s

// With flat-arguments (the CUDA pipelines: C++ has no pointer to rows of
// run-time length), arguments of rank >= 2 are linearised too. Static
// extents become constants; the view is created once, at the entry.
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
// a dynamic outer extent is never needed. Local arrays keep their
// subscripts (C++ has arrays of static shape).
// CHECK-LABEL: func.func @dynamic_3d
// CHECK-SAME: (%[[A:.*]]: memref<?x?x5xi32> {weft.dim_args = array<i64: -1, 3, -1>}, %[[I:.*]]: index, %[[J:.*]]: index, %[[M:.*]]: index)
// CHECK: %[[FLAT:.*]] = memref.collapse_shape %[[A]] {{\[}}[0, 1, 2]] : memref<?x?x5xi32> into memref<?xi32>
// CHECK: %[[T0:.*]] = arith.muli %[[I]], %[[M]] : index
// CHECK: %[[T1:.*]] = arith.addi %[[T0]], %[[J]] : index
// CHECK: %[[T2:.*]] = arith.muli %[[T1]], %{{.*}} : index
// CHECK: %[[T3:.*]] = arith.addi %[[T2]], %[[I]] : index
// CHECK: %[[V:.*]] = memref.load %[[FLAT]][%[[T3]]] : memref<?xi32>
// CHECK: memref.store %[[V]], %{{.*}}[%[[I]], %[[J]]] : memref<3x3xi32>
func.func @dynamic_3d(%A: memref<?x?x5xi32> {weft.dim_args = array<i64: -1, 3, -1>},
                      %i: index, %j: index, %m: index) {
  %v = memref.load %A[%i, %j, %i] : memref<?x?x5xi32>
  %t = memref.alloca() : memref<3x3xi32>
  memref.store %v, %t[%i, %j] : memref<3x3xi32>
  return
}

// -----

func.func @missing_extent(%A: memref<?x?xf64>, %i: index) -> f64 {
  // expected-error @+1 {{'memref.load' op dynamic extent of dimension 1 is not available as a 'weft.dim_args' argument}}
  %v = memref.load %A[%i, %i] : memref<?x?xf64>
  return %v : f64
}

// -----

// A reduction's atomic update of an element is linearised like the loads
// and stores, and keeps its attributes.
// CHECK-LABEL: func.func @atomic_2d
// CHECK-SAME: (%[[A:.*]]: memref<4x7xf64>, %[[I:.*]]: index, %[[J:.*]]: index, %[[V:.*]]: f64)
// CHECK-DAG: %[[FLAT:.*]] = memref.collapse_shape %[[A]] {{\[}}[0, 1]] : memref<4x7xf64> into memref<28xf64>
// CHECK: %[[LIN:.*]] = arith.addi %{{.*}}, %[[J]] : index
// CHECK: memref.atomic_rmw maxnumf %[[V]], %[[FLAT]][%[[LIN]]] {weft.gpu.reduce = "max"} : (f64, memref<28xf64>) -> f64
func.func @atomic_2d(%A: memref<4x7xf64>, %i: index, %j: index, %v: f64) {
  %old = memref.atomic_rmw maxnumf %v, %A[%i, %j] {weft.gpu.reduce = "max"} : (f64, memref<4x7xf64>) -> f64
  return
}
