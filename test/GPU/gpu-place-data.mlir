// RUN: weft-opt %s --gpu-place-data=report -split-input-file -verify-diagnostics | FileCheck %s

// Arrays only the device nests access get a buffer each, filled before the
// first statement holding a nest and emptied after the last: the flow-in box
// of x (all of it) goes in, the live-out box of y ([1, n - 1)) comes back.
// The nests inside the time loop use the buffers.
// CHECK-LABEL: func.func @stencil
// CHECK-SAME: (%[[X:.*]]: memref<?xf64>, %[[Y:.*]]: memref<?xf64>, %[[T:.*]]: index, %[[N:.*]]: index)
// CHECK-DAG: %[[DX:.*]] = gpu.alloc (%{{.*}}) : memref<?xf64>
// CHECK-DAG: %[[DY:.*]] = gpu.alloc (%{{.*}}) : memref<?xf64>
// CHECK: %[[HX:.*]] = memref.subview %[[X]]
// CHECK: %[[BX:.*]] = memref.subview %[[DX]]
// CHECK: gpu.memcpy %[[BX]], %[[HX]]
// CHECK-NOT: gpu.memcpy
// CHECK: affine.for
// CHECK: affine.load %[[DX]]
// CHECK: affine.store %{{.*}}, %[[DY]]
// CHECK: affine.load %[[DY]]
// CHECK: affine.store %{{.*}}, %[[DX]]
// CHECK: %[[HX2:.*]] = memref.subview %[[X]]
// CHECK: %[[BX2:.*]] = memref.subview %[[DX]]
// CHECK: gpu.memcpy %[[HX2]], %[[BX2]]
// CHECK: %[[HY:.*]] = memref.subview %[[Y]]
// CHECK: %[[BY:.*]] = memref.subview %[[DY]]
// CHECK: gpu.memcpy %[[HY]], %[[BY]]
// CHECK: gpu.dealloc %[[DX]]
// CHECK: gpu.dealloc %[[DY]]
// CHECK-NEXT: return
// expected-remark @below {{device copies: #0 goes in before the first kernel (the box of its flow-in elements), comes back after the last (its live-out elements); #1 is not copied in, comes back after the last (its live-out elements)}}
func.func @stencil(%x: memref<?xf64>, %y: memref<?xf64>, %t: index, %n: index) {
  affine.for %s = 0 to %t {
    affine.for %i = 1 to affine_map<()[s0] -> (s0 - 1)>()[%n] {
      %a = affine.load %x[%i - 1] : memref<?xf64>
      %c = affine.load %x[%i + 1] : memref<?xf64>
      %v = arith.addf %a, %c : f64
      affine.store %v, %y[%i] : memref<?xf64>
    } {weft.gpu.band = 1 : i64, weft.gpu.coalesced = 0 : i64}
    affine.for %i = 1 to affine_map<()[s0] -> (s0 - 1)>()[%n] {
      %v = affine.load %y[%i] : memref<?xf64>
      affine.store %v, %x[%i] : memref<?xf64>
    } {weft.gpu.band = 1 : i64, weft.gpu.coalesced = 0 : i64}
  }
  return
}

// -----

// An array host code also uses moves around each nest that uses it: to the
// device before, back after when the nest writes it. A scalar one nest alone
// uses gets no buffer. The extents after the first are the host array's.
// CHECK-LABEL: func.func @shared
// CHECK-SAME: (%[[A:.*]]: memref<?x?xf64> {weft.dim_args = array<i64: -1, 2>}, %[[N:.*]]: index, %[[M:.*]]: index)
// CHECK: %[[DA:.*]] = gpu.alloc (%{{.*}}, %[[M]]) : memref<?x?xf64>
// CHECK-NOT: gpu.alloc
// CHECK: affine.for
// CHECK: gpu.memcpy %{{.*}}, %{{.*}} : memref<?x?xf64, strided<[?, 1], offset: ?>>
// CHECK: affine.for
// CHECK: memref.alloca() : memref<f64>
// CHECK: affine.load %[[DA]]
// CHECK: gpu.memcpy
// CHECK: affine.load %[[A]][0, 0]
// CHECK: gpu.dealloc %[[DA]]
// expected-remark @below {{device copies: #0 moves before and after each statement whose kernels use it (host code uses it too)}}
func.func @shared(%a: memref<?x?xf64> {weft.dim_args = array<i64: -1, 2>}, %n: index, %m: index) {
  affine.for %t = 0 to 4 {
    affine.for %i = 0 to %n {
      affine.for %j = 0 to %m {
        %s = memref.alloca() : memref<f64>
        %v = affine.load %a[%i, %j] : memref<?x?xf64>
        affine.store %v, %s[] : memref<f64>
        %w = affine.load %s[] : memref<f64>
        %d = arith.addf %w, %w : f64
        affine.store %d, %a[%i, %j] : memref<?x?xf64>
      }
    } {weft.gpu.band = 2 : i64, weft.gpu.coalesced = 1 : i64}
    %h = affine.load %a[0, 0] : memref<?x?xf64>
    affine.store %h, %a[0, 1] : memref<?x?xf64>
  }
  return
}

// -----

// What the pass cannot place leaves the nest on the host, unmarked.
// CHECK-LABEL: func.func @strided
// CHECK-NOT: gpu.
// CHECK-NOT: weft.gpu.band
func.func @strided(%a: memref<8xf64, strided<[2]>>) {
  // expected-remark @below {{stays on the host: an array it accesses has a layout or memory space}}
  affine.for %i = 0 to 8 {
    %v = affine.load %a[%i] : memref<8xf64, strided<[2]>>
    %d = arith.addf %v, %v : f64
    affine.store %d, %a[%i] : memref<8xf64, strided<[2]>>
  } {weft.gpu.band = 1 : i64, weft.gpu.coalesced = 0 : i64}
  return
}
