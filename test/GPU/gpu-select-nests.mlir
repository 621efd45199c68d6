// RUN: weft-opt %s --gpu-select-nests='report=1 gpu-choice=always' -split-input-file -verify-diagnostics | FileCheck %s

// A Jacobi step: the time loop carries the dependences and stays on the host;
// each sweep is a device nest of two loops, j (the last subscript) on x.
// CHECK-LABEL: func.func @jacobi
// CHECK: affine.for
// CHECK: affine.for
// CHECK: {weft.gpu.band = 2 : i64, weft.gpu.coalesced = 1 : i64}
// CHECK: {weft.gpu.band = 2 : i64, weft.gpu.coalesced = 1 : i64}
func.func @jacobi(%a: memref<?x64xf64>, %b: memref<?x64xf64>, %t: index, %n: index) {
  // expected-remark @below {{stays on the host: it carries a dependence through #0; the loops in it are candidates}}
  affine.for %s = 0 to %t {
    // expected-remark @below {{runs on the device: the iterations of its 2 outer loops are the threads of a 2-D grid, the loop at line 15 along threadIdx.x (the arrays' contiguous dimension)}}
    affine.for %i = 1 to affine_map<()[s0] -> (s0 - 1)>()[%n] {
      affine.for %j = 1 to 63 {
        %l = affine.load %a[%i, %j - 1] : memref<?x64xf64>
        %r = affine.load %a[%i, %j + 1] : memref<?x64xf64>
        %v = arith.addf %l, %r : f64
        affine.store %v, %b[%i, %j] : memref<?x64xf64>
      }
    }
    // expected-remark @below {{runs on the device}}
    affine.for %i = 1 to affine_map<()[s0] -> (s0 - 1)>()[%n] {
      affine.for %j = 1 to 63 {
        %v = affine.load %b[%i, %j] : memref<?x64xf64>
        affine.store %v, %a[%i, %j] : memref<?x64xf64>
      }
    }
  }
  return
}

// -----

// Walking the first subscript innermost: the outer loop maps to x. A loop
// whose bounds follow the nest's other loop in one affine expression each,
// with step 1, is a grid dimension (a triangle: gpu-map-loops guards it);
// one whose bound is a min of such expressions is not: it runs inside each
// thread.
// CHECK-LABEL: func.func @transposed
// CHECK: {weft.gpu.band = 2 : i64, weft.gpu.coalesced = 0 : i64}
// CHECK: {weft.gpu.band = 2 : i64, weft.gpu.coalesced = 1 : i64}
// CHECK: {weft.gpu.band = 1 : i64, weft.gpu.coalesced = 0 : i64}
func.func @transposed(%a: memref<64x64xf64>, %b: memref<64x64xf64>) {
  // expected-remark @below {{runs on the device}}
  affine.for %j = 0 to 64 {
    affine.for %i = 0 to 64 {
      %v = affine.load %a[%i, %j] : memref<64x64xf64>
      affine.store %v, %b[%i, %j] : memref<64x64xf64>
    }
  }
  // expected-remark @below {{runs on the device: the iterations of its 2 outer loops are the threads of a 2-D grid}}
  affine.for %i = 0 to 64 {
    affine.for %j = 0 to affine_map<(d0) -> (d0 + 1)>(%i) {
      %v = affine.load %a[%i, %j] : memref<64x64xf64>
      affine.store %v, %b[%i, %j] : memref<64x64xf64>
    }
  }
  // expected-remark @below {{runs on the device: its iterations are the threads of a 1-D grid}}
  affine.for %i = 0 to 64 {
    affine.for %j = 0 to min affine_map<(d0) -> (d0 + 1, 48)>(%i) {
      %v = affine.load %a[%i, %j] : memref<64x64xf64>
      affine.store %v, %b[%i, %j] : memref<64x64xf64>
    }
  }
  return
}

// -----

// Nests the device cannot run stay on the host: a call, a rank-4 array.
func.func private @g(f64)
// CHECK-LABEL: func.func @obstacles
// CHECK-NOT: weft.gpu.band
func.func @obstacles(%a: memref<8xf64>, %b: memref<2x2x2x2xf64>) {
  // expected-remark @below {{stays on the host: it calls a function}}
  affine.for %i = 0 to 8 {
    %v = affine.load %a[%i] : memref<8xf64>
    func.call @g(%v) : (f64) -> ()
  }
  // expected-remark @below {{stays on the host: it accesses an array of rank above 3}}
  affine.for %i = 0 to 2 {
    %v = affine.load %a[%i] : memref<8xf64>
    affine.store %v, %b[%i, 0, 0, 0] : memref<2x2x2x2xf64>
  }
  return
}

// -----

// Without a polyhedral model the whole region stays on the host.
// CHECK-LABEL: func.func @unmodelled
// CHECK-NOT: weft.gpu.band
// expected-remark @below {{the region runs on the host: it has no polyhedral model (see above)}}
func.func @unmodelled(%a: memref<8xf64>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.for %i = %c0 to %n step %c1 {
    // expected-remark @below {{not a static control part}}
    %v = memref.load %a[%i] : memref<8xf64>
    memref.store %v, %a[%i] : memref<8xf64>
  }
  return
}
