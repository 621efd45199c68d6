// RUN: weft-opt %s --gpu-select-nests=report -split-input-file -verify-diagnostics | FileCheck %s

// gpu-expose-bands marks the loops it distributes one loop into with
// weft.gpu.parts; gpu-select-nests places them together: it compares every
// placement of the parts (kernels and launches of those on the device, CPU
// time of the others, and the copies the placement as a whole makes: an
// array the device parts share moves once, one a host part shares with
// them moves across) and takes the fastest.

// PolyBench's gemm as gpu-expose-bands leaves it (4096^3, A100-40GB): alone,
// the scaling by beta stays on the host (C's copies charged to it outweigh
// its kernel); with the product on the device, C moves anyway, so the
// scaling runs there too.
// CHECK-LABEL: func.func @gemm
// CHECK: {weft.gpu.band = 2 : i64, weft.gpu.coalesced = 1 : i64, weft.gpu.parts = 0 : i64}
// CHECK: {weft.gpu.band = 2 : i64, weft.gpu.block = array<i64: 32, 16>, weft.gpu.coalesced = 1 : i64, weft.gpu.parts = 0 : i64}
func.func @gemm(%C: memref<4096x4096xf64>, %A: memref<4096x4096xf64>, %B: memref<4096x4096xf64>, %alpha: f64, %beta: f64) {
  // expected-remark @below {{runs on the device: the iterations of its 2 outer loops are the threads of a 2-D grid, the loop at line 20 along threadIdx.x (the arrays' contiguous dimension); placed with the other part of the loop distributed at line 19: predicted 42.9 ms for the 2 parts with this one on the device (copies 21.5 ms, 5.38 ms less than charged to each device part alone) against 51.7 ms with it on the host (copies 21.5 ms); alone, predicted 8.95 ms on the CPU against 10.9 ms on the device (kernels 97.2 us, 1 launch 5 us, copies 10.8 ms)}}
  affine.for %i = 0 to 4096 {
    affine.for %j = 0 to 4096 {
      %c = affine.load %C[%i, %j] : memref<4096x4096xf64>
      %s = arith.mulf %c, %beta : f64
      affine.store %s, %C[%i, %j] : memref<4096x4096xf64>
    }
  } {weft.gpu.parts = 0 : i64}
  // expected-remark @below {{placed with the other part of the loop distributed at line 27: predicted 42.9 ms for the 2 parts with this one on the device (copies 21.5 ms, 5.38 ms less than charged to each device part alone) against 73.3 s with it on the host (copies 10.8 ms); alone, predicted 37.4 ms on the device}}
  affine.for %i = 0 to 4096 {
    affine.for %j = 0 to 4096 {
      affine.for %k = 0 to 4096 {
        %a = affine.load %A[%i, %k] : memref<4096x4096xf64>
        %b = affine.load %B[%k, %j] : memref<4096x4096xf64>
        %c = affine.load %C[%i, %j] : memref<4096x4096xf64>
        %m = arith.mulf %a, %b : f64
        %n = arith.mulf %alpha, %m : f64
        %v = arith.addf %c, %n : f64
        affine.store %v, %C[%i, %j] : memref<4096x4096xf64>
      }
    }
  } {weft.gpu.parts = 0 : i64}
  return
}

// -----

// The same loops without weft.gpu.parts are placed one by one: the scaling
// stays on the host.
// CHECK-LABEL: func.func @unmarked
// CHECK-NOT: weft.gpu.band
// CHECK: } {weft.gpu.coarsen = array<i64: 1, 4>, weft.gpu.tile = 32 : i64}
// CHECK: {weft.gpu.band = 2 : i64, weft.gpu.block = array<i64: 32, 16>, weft.gpu.coalesced = 1 : i64}
func.func @unmarked(%C: memref<4096x4096xf64>, %A: memref<4096x4096xf64>, %B: memref<4096x4096xf64>, %alpha: f64, %beta: f64) {
  // expected-remark @below {{stays on the host: predicted 8.95 ms on the CPU against 10.9 ms on the device (kernels 97.2 us, 1 launch 5 us, copies 10.8 ms)}}
  affine.for %i = 0 to 4096 {
    affine.for %j = 0 to 4096 {
      %c = affine.load %C[%i, %j] : memref<4096x4096xf64>
      %s = arith.mulf %c, %beta : f64
      affine.store %s, %C[%i, %j] : memref<4096x4096xf64>
    }
  }
  // expected-remark @below {{runs on the device: the iterations of its 2 outer loops are the threads of a 2-D grid, the loop at line 20 along threadIdx.x (the arrays' contiguous dimension); predicted 37.4 ms on the device}}
  affine.for %i = 0 to 4096 {
    affine.for %j = 0 to 4096 {
      affine.for %k = 0 to 4096 {
        %a = affine.load %A[%i, %k] : memref<4096x4096xf64>
        %b = affine.load %B[%k, %j] : memref<4096x4096xf64>
        %c = affine.load %C[%i, %j] : memref<4096x4096xf64>
        %m = arith.mulf %a, %b : f64
        %n = arith.mulf %alpha, %m : f64
        %v = arith.addf %c, %n : f64
        affine.store %v, %C[%i, %j] : memref<4096x4096xf64>
      }
    }
  }
  return
}

// -----

// `#pragma weft host` on a part wins: it stays on the host, and the other
// part is placed alone.
// CHECK-LABEL: func.func @forced
// CHECK: {weft.gpu.parts = 0 : i64, weft.gpu.place = "host"}
// CHECK: {weft.gpu.band = 2 : i64, weft.gpu.block = array<i64: 32, 16>, weft.gpu.coalesced = 1 : i64, weft.gpu.parts = 0 : i64}
func.func @forced(%C: memref<4096x4096xf64>, %A: memref<4096x4096xf64>, %B: memref<4096x4096xf64>, %alpha: f64, %beta: f64) {
  // expected-remark @below {{stays on the host: #pragma weft host}}
  affine.for %i = 0 to 4096 {
    affine.for %j = 0 to 4096 {
      %c = affine.load %C[%i, %j] : memref<4096x4096xf64>
      %s = arith.mulf %c, %beta : f64
      affine.store %s, %C[%i, %j] : memref<4096x4096xf64>
    }
  } {weft.gpu.parts = 0 : i64, weft.gpu.place = "host"}
  // expected-remark @below {{runs on the device: the iterations of its 2 outer loops are the threads of a 2-D grid, the loop at line 19 along threadIdx.x (the arrays' contiguous dimension); predicted 37.4 ms on the device (kernels 21.3 ms, 1 launch 5 us, copies 16.1 ms) against 73.3 s on the CPU}}
  affine.for %i = 0 to 4096 {
    affine.for %j = 0 to 4096 {
      affine.for %k = 0 to 4096 {
        %a = affine.load %A[%i, %k] : memref<4096x4096xf64>
        %b = affine.load %B[%k, %j] : memref<4096x4096xf64>
        %c = affine.load %C[%i, %j] : memref<4096x4096xf64>
        %m = arith.mulf %a, %b : f64
        %n = arith.mulf %alpha, %m : f64
        %v = arith.addf %c, %n : f64
        affine.store %v, %C[%i, %j] : memref<4096x4096xf64>
      }
    }
  } {weft.gpu.parts = 0 : i64}
  return
}

// -----

// A small part next to a device part stays on the host where the model
// says so: its launch costs more than its CPU time, and the columns of z
// it reads come back to the host anyway (z lives after the region).
// CHECK-LABEL: func.func @small
// CHECK: {weft.gpu.band = 2 : i64, weft.gpu.block = array<i64: 32, 16>, weft.gpu.coalesced = 1 : i64, weft.gpu.parts = 3 : i64}
// CHECK-NOT: weft.gpu.band
// CHECK: {weft.gpu.parts = 3 : i64}
func.func @small(%x: memref<512x512xf64>, %y: memref<512x512xf64>, %z: memref<512x512xf64>, %w: memref<512x2xf64>) {
  // expected-remark @below {{predicted 409 us for the 2 parts with this one on the device (copies 376 us) against 143 ms with it on the host (copies 0 us)}}
  affine.for %i = 0 to 512 {
    affine.for %j = 0 to 512 {
      affine.for %k = 0 to 512 {
        %p = affine.load %x[%i, %k] : memref<512x512xf64>
        %q = affine.load %y[%k, %j] : memref<512x512xf64>
        %r = affine.load %z[%i, %j] : memref<512x512xf64>
        %m = arith.mulf %p, %q : f64
        %v = arith.addf %r, %m : f64
        affine.store %v, %z[%i, %j] : memref<512x512xf64>
      }
    }
  } {weft.gpu.parts = 3 : i64}
  // expected-remark @below {{stays on the host: placed with the other part of the loop distributed at line 25: predicted 409 us for the 2 parts with this one on the host (copies 376 us) against 424 us with it on the device (copies 386 us); alone, predicted 0.546 us on the CPU against 15.3 us on the device}}
  affine.for %i = 0 to 512 {
    affine.for %j = 0 to 2 {
      %v = affine.load %z[%i, %j] : memref<512x512xf64>
      affine.store %v, %w[%i, %j] : memref<512x2xf64>
    }
  } {weft.gpu.parts = 3 : i64}
  return
}
