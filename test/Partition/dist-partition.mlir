// RUN: weft-opt %s --split-input-file --verify-diagnostics \
// RUN:   --pass-pipeline='builtin.module(dist-partition{report=1})' | FileCheck %s

// A time loop around two parallel sweeps of 10^7 elements (80 MB each: no
// cache holds them): the sweeps are the units and both are distributed; the
// time loop runs on every rank.
// CHECK-LABEL: func.func @jacobi
// CHECK: affine.for
// CHECK-NEXT: affine.for {{.*}} {
// CHECK: } {dist.distribute = #dist.dim<block on 0>, dist.unit}
// CHECK: } {dist.distribute = #dist.dim<block on 0>, dist.unit}
// CHECK-NOT: dist.unit
// CHECK: return
// expected-remark @below {{partition chosen by the dynamic program over 2 units (2 candidates, 3 states): predicted region time at 4 ranks}}
func.func @jacobi(%a: memref<?xf64>, %b: memref<?xf64>, %t: index) {
  %n = arith.constant 10000000 : index
  affine.for %s = 0 to %t {
    // expected-remark @below {{distributed: blocks of its iterations on each rank}}
    affine.for %i = 1 to affine_map<()[s0] -> (s0 - 1)>()[%n] {
      %x = affine.load %a[%i - 1] : memref<?xf64>
      %y = affine.load %a[%i + 1] : memref<?xf64>
      %z = arith.addf %x, %y : f64
      affine.store %z, %b[%i] : memref<?xf64>
    }
    // expected-remark @below {{distributed: blocks of its iterations on each rank}}
    affine.for %i = 1 to affine_map<()[s0] -> (s0 - 1)>()[%n] {
      %x = affine.load %b[%i] : memref<?xf64>
      affine.store %x, %a[%i] : memref<?xf64>
    }
  }
  return
}

// -----

// A recurrence with no parallel loop inside is one replicated unit; the
// report still predicts the region.
// CHECK-LABEL: func.func @recurrence
// CHECK: } {dist.unit}
// expected-remark @below {{no unit can be distributed: predicted region time at 4 ranks}}
func.func @recurrence(%a: memref<?xf64>) {
  // expected-remark @below {{not distributed: the loop carries a flow dependence}}
  affine.for %i = 1 to 100 {
    %x = affine.load %a[%i - 1] : memref<?xf64>
    affine.store %x, %a[%i] : memref<?xf64>
  }
  return
}

// -----

// A store outside loops and a stepped loop stay replicated.
// expected-remark @below {{no unit can be distributed: predicted region time at 4 ranks}}
func.func @replicated(%a: memref<?xf64>, %s: memref<f64>) {
  %c = arith.constant 1.0 : f64
  // expected-remark @below {{not distributed: not a loop}}
  affine.store %c, %s[] : memref<f64>
  // expected-remark @below {{not distributed: the loop has a step other than 1}}
  affine.for %i = 0 to 100 step 2 {
    affine.store %c, %a[%i] : memref<?xf64>
  }
  return
}

// -----

// A parallel loop whose bounds follow an enclosing sequential loop (the
// triangular sweeps of LU) is split in blocks of the hull of its ranges.
// expected-remark @below {{partition chosen by the dynamic program over 1 units (1 candidates, 1 states)}}
func.func @triangular(%a: memref<2048x2048xf64>) {
  affine.for %k = 0 to 2048 {
    // expected-remark @below {{distributed: blocks of its iterations on each rank}}
    affine.for %i = affine_map<(d0) -> (d0 + 1)>(%k) to 2048 {
      affine.for %j = affine_map<(d0) -> (d0 + 1)>(%k) to 2048 {
        %x = affine.load %a[%i, %j] : memref<2048x2048xf64>
        %l = affine.load %a[%i, %k] : memref<2048x2048xf64>
        %u = affine.load %a[%k, %j] : memref<2048x2048xf64>
        %p = arith.mulf %l, %u : f64
        %y = arith.subf %x, %p : f64
        affine.store %y, %a[%i, %j] : memref<2048x2048xf64>
      }
    }
  }
  return
}

// -----

// Bounds read from memory during the region are not known where the
// blocks are computed (before the first unit).
// expected-remark @below {{no unit can be distributed: predicted region time at 4 ranks}}
func.func @late_bounds(%a: memref<100xf64>, %nref: memref<index>) {
  %c = arith.constant 1.0 : f64
  // expected-remark @below {{not distributed: not a loop}}
  affine.store %c, %a[0] : memref<100xf64>
  // expected-remark @below {{not distributed: not a loop}}
  %n = affine.load %nref[] : memref<index>
  // expected-remark @below {{not distributed: the loop bounds change during the region}}
  affine.for %i = 1 to %n {
    affine.store %c, %a[%i] : memref<100xf64>
  }
  return
}

// -----

// Not a static control part: nothing is marked, the region runs replicated.
// CHECK-LABEL: func.func @dynamic
// CHECK-NOT: dist.unit
// expected-remark @below {{not distributed: not a static control part}}
func.func @dynamic(%a: memref<?xf64>, %idx: memref<100xindex>) {
  affine.for %i = 0 to 100 {
    %j = affine.load %idx[%i] : memref<100xindex>
    %x = memref.load %a[%j] : memref<?xf64>
    affine.store %x, %a[%i] : memref<?xf64>
  }
  return
}
