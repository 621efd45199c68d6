// RUN: weft-opt %s --convert-loops-to-emitc=flat-arguments=1 --split-input-file --verify-diagnostics | FileCheck %s

// With flat-arguments (the CUDA pipelines: C++ has no variably modified
// parameters), every array is a pointer to its elements, in the region
// ABI's order, and the calls' C arguments stay the importer's; the
// accesses were linearised (linearize-memref-accesses flat-arguments=1).
// A local array is still a C array of its shape.
// CHECK-LABEL: emitc.func @flat
// CHECK-SAME: (%[[N:.*]]: i32 {weft.c_arg = "n"}, %[[A:.*]]: !emitc.opaque<"double *restrict"> {weft.c_arg = "(double *)(A)"}, %[[B:.*]]: !emitc.opaque<"float *restrict"> {weft.c_arg = "(float *)(B)"}, %[[E:.*]]: i64 {weft.c_arg = "(long)(sizeof(A[0]) / sizeof(A[0][0]))"})
// CHECK: %[[T:.*]] = "emitc.variable"() <{value = #emitc.opaque<"">}> : () -> !emitc.array<2x3xf64>
// CHECK: emitc.subscript %[[A]][%{{.*}}] : (!emitc.opaque<"double *restrict">, i64) -> f64
// CHECK: emitc.subscript %[[T]][%{{.*}}, %{{.*}}] : (!emitc.array<2x3xf64>, i64, i64) -> f64
func.func @flat(%n: i32 {weft.c_arg = "n"},
                %A: memref<?x?x4xf64> {weft.c_arg = "(double *)(A)", weft.dim_args = array<i64: -1, 3, -1>},
                %B: memref<2x8xf32> {weft.c_arg = "(float *)(B)"},
                %e: index {weft.c_arg = "(long)(sizeof(A[0]) / sizeof(A[0][0]))"}) {
  %c0 = arith.constant 0 : index
  %t = memref.alloca() : memref<2x3xf64>
  %flat = memref.collapse_shape %A [[0, 1, 2]] : memref<?x?x4xf64> into memref<?xf64>
  %v = memref.load %flat[%c0] : memref<?xf64>
  memref.store %v, %t[%c0, %c0] : memref<2x3xf64>
  return
}

// A call from another region function keeps the order too; arrays that may
// overlap are plain pointers.
// CHECK-LABEL: emitc.func @calls_flat
// CHECK-SAME: (%[[N:[a-z0-9]+]]: i32, %[[A:[a-z0-9]+]]: !emitc.ptr<f64>, %[[B:[a-z0-9]+]]: !emitc.ptr<f32>, %[[E:[a-z0-9]+]]: i64)
// CHECK: emitc.call_opaque "flat"(%[[N]], %[[A]], %[[B]], %[[E]])
func.func @calls_flat(%n: i32, %A: memref<?x?x4xf64> {weft.dim_args = array<i64: -1, 3, -1>, weft.may_alias},
                      %B: memref<2x8xf32> {weft.may_alias}, %e: index) {
  func.call @flat(%n, %A, %B, %e) : (i32, memref<?x?x4xf64>, memref<2x8xf32>, index) -> ()
  return
}

// -----

func.func @not_linearised(%A: memref<4x4xf64>, %i: index) {
  // expected-error @+1 {{run linearize-memref-accesses first}}
  %v = memref.load %A[%i, %i] : memref<4x4xf64>
  return
}

// -----

// A reduction's atomic updates (gpu-map-loops, gpu-reduce-blocks) call the
// CUDA runtime with the array's pointer, the element's linear index (0 for
// a scalar) and the value.
// CHECK-LABEL: emitc.func @atomics
// CHECK-SAME: (%[[S:.*]]: !emitc.opaque<"double *restrict">, %[[C:.*]]: !emitc.opaque<"int32_t *restrict">, %[[V:.*]]: f64, %[[K:.*]]: i32, %[[I:.*]]: i64)
// CHECK: %[[ZERO:.*]] = "emitc.constant"() <{value = 0 : i64}> : () -> i64
// CHECK: emitc.call_opaque "weft_cuda_atomic_add"(%[[S]], %[[ZERO]], %[[V]])
// CHECK: emitc.call_opaque "weft_cuda_atomic_max"(%[[C]], %[[I]], %[[K]])
// CHECK: emitc.call_opaque "weft_cuda_atomic_mul"(%[[S]], %{{.*}}, %[[V]])
// CHECK: emitc.call_opaque "weft_cuda_atomic_min"(%[[C]], %[[I]], %[[K]])
func.func @atomics(%s: memref<f64>, %c: memref<?xi32>, %v: f64, %k: i32, %i: index) {
  %0 = memref.atomic_rmw addf %v, %s[] : (f64, memref<f64>) -> f64
  %1 = memref.atomic_rmw maxs %k, %c[%i] : (i32, memref<?xi32>) -> i32
  %2 = memref.atomic_rmw mulf %v, %s[] : (f64, memref<f64>) -> f64
  %3 = memref.atomic_rmw mins %k, %c[%i] : (i32, memref<?xi32>) -> i32
  return
}

// -----

// An update C has no runtime call for is an error.
func.func @assign(%s: memref<f64>, %v: f64) {
  // expected-error @below {{has an update C cannot express}}
  %0 = memref.atomic_rmw assign %v, %s[] : (f64, memref<f64>) -> f64
  return
}
