// RUN: weft-opt %s --gpu-select-nests=report -split-input-file -verify-diagnostics | FileCheck %s
// RUN: not weft-opt %s --gpu-select-nests='gpu=X100' -split-input-file 2>&1 | FileCheck %s --check-prefix=BADGPU
// RUN: not weft-opt %s --gpu-select-nests='gpu-choice=maybe' -split-input-file 2>&1 | FileCheck %s --check-prefix=BADCHOICE
// RUN: not weft-opt %s --gpu-select-nests='register-tile=3' -split-input-file 2>&1 | FileCheck %s --check-prefix=BADTILE
// RUN: not weft-opt %s --gpu-select-nests='size=n' -split-input-file 2>&1 | FileCheck %s --check-prefix=BADSIZE

// BADGPU: error: unknown GPU type 'X100' (known: T4, P100,
// BADCHOICE: error: gpu-choice must be 'cost' or 'always', got 'maybe'
// BADTILE: error: register-tile must be 1, 2, 4 or 8, got 3
// BADSIZE: error: size: 'n' is not NAME=VALUE with NAME a scalar of the C source

// The cost model's choice (gpu-choice=cost, A100-40GB against one core of
// the `cpu` device), each nest alone in its function (adjacent nests are
// placed together: gpu-select-nests-parts.mlir): a small nest stays on the
// host (one launch and two copies against 64 accesses).
// CHECK-LABEL: func.func @small
// CHECK-NOT: weft.gpu.band
// CHECK: return
func.func @small(%a: memref<4096x4096xf64>, %b: memref<4096x4096xf64>) {
  // expected-remark @below {{stays on the host: predicted 0.0171 us on the CPU against 25 us on the device (kernels 0.000371 us, 1 launch 5 us, copies 20 us)}}
  affine.for %i = 0 to 32 {
    %v = affine.load %a[0, %i] : memref<4096x4096xf64>
    affine.store %v, %b[0, %i] : memref<4096x4096xf64>
  }
  return
}

// -----

// One pass over two large arrays stays on the host: their copies cost more
// than the CPU's pass (transfer-bound).
// CHECK-LABEL: func.func @transfer
// CHECK-NOT: weft.gpu.band
// CHECK: return
func.func @transfer(%a: memref<4096x4096xf64>, %b: memref<4096x4096xf64>) {
  // expected-remark @below {{stays on the host: predicted 8.95 ms on the CPU against 11 ms on the device (kernels 194 us, 1 launch 5 us, copies 10.8 ms)}}
  affine.for %i = 0 to 4096 {
    affine.for %j = 0 to 4096 {
      %v = affine.load %a[%i, %j] : memref<4096x4096xf64>
      %w = arith.mulf %v, %v : f64
      affine.store %w, %b[%i, %j] : memref<4096x4096xf64>
    }
  }
  return
}

// -----

// A matrix product runs on the device. Its threads run a k loop whose
// reads A[i][k] and B[k][j] rows and columns of threads share: 32 x 16
// blocks of threads that compute 1 x 2 elements (256 blocks still fill the
// 108 SMs), tiles of 32 for gpu-stage-tiles (the widest whose 20 KiB keep
// the SM's 4 blocks).
// CHECK-LABEL: func.func @product
// CHECK: } {weft.gpu.coarsen = array<i64: 1, 2>, weft.gpu.tile = 32 : i64}
// CHECK: {weft.gpu.band = 2 : i64, weft.gpu.block = array<i64: 32, 16>, weft.gpu.coalesced = 1 : i64}
// CHECK: return
func.func @product(%x: memref<512x512xf64>, %y: memref<512x512xf64>, %z: memref<512x512xf64>) {
  // expected-remark @below {{runs on the device: the iterations of its 2 outer loops are the threads of a 2-D grid, the loop at line 15 along threadIdx.x (the arrays' contiguous dimension); predicted 408 us on the device (kernels 27.7 us, 1 launch 5 us, copies 376 us) against 72.8 ms on the CPU; blocks of 32 x 16 threads, each computing 1 x 2 elements, the loop at line 16 in shared-memory tiles of 32 where gpu-stage-tiles can stage its reads: predicted 92.9 us a launch with tiles, 1.48 ms with 32 x 8 blocks and none}}
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
  }
  return
}

// -----

// A nest under a host loop is launched once per iteration of it (here, the
// launches cost more than the CPU's passes).
// CHECK-LABEL: func.func @launches
// CHECK-NOT: weft.gpu.band
// CHECK: return
func.func @launches(%a: memref<4096x4096xf64>, %n: index) {
  // expected-remark @below {{stays on the host: it carries a dependence through #0; the loops in it are candidates}}
  affine.for %t = 0 to %n {
    // expected-remark @below {{stays on the host: predicted 8.07 ms on the CPU against 20.7 ms on the device (kernels 194 us, 4096 launches 20.5 ms, copies 22.6 us) (p0, unknown at compile time, taken as 4096)}}
    affine.for %i = 1 to 4095 {
      %l = affine.load %a[%i - 1, 0] : memref<4096x4096xf64>
      %r = affine.load %a[%i + 1, 0] : memref<4096x4096xf64>
      %v = arith.addf %l, %r : f64
      affine.store %v, %a[%i, 1] : memref<4096x4096xf64>
    }
  }
  return
}

// -----

// `#pragma weft device` and `host` (weft.gpu.place) override the
// prediction; a loop holding either is not a nest of its own.
// CHECK-LABEL: func.func @forced
// CHECK: {weft.gpu.band = 1 : i64, weft.gpu.coalesced = 0 : i64, weft.gpu.place = "device"}
// CHECK-NOT: weft.gpu.band
// CHECK: {weft.gpu.place = "host"}
// CHECK: {weft.gpu.band = 1 : i64, weft.gpu.coalesced = 0 : i64, weft.gpu.place = "device"}
// CHECK-NOT: weft.gpu.band
// CHECK: return
func.func @forced(%a: memref<4096x4096xf64>, %b: memref<4096x4096xf64>) {
  // expected-remark @below {{runs on the device: its iterations are the threads of a 1-D grid; #pragma weft device}}
  affine.for %i = 0 to 8 {
    %v = affine.load %a[0, %i] : memref<4096x4096xf64>
    affine.store %v, %b[0, %i] : memref<4096x4096xf64>
  } {weft.gpu.place = "device"}
  // expected-remark @below {{stays on the host: #pragma weft host}}
  affine.for %i = 0 to 4096 {
    affine.for %j = 0 to 4096 {
      %v = affine.load %a[%i, %j] : memref<4096x4096xf64>
      affine.store %v, %b[%i, %j] : memref<4096x4096xf64>
    }
  } {weft.gpu.place = "host"}
  // expected-remark @below {{stays on the host: a loop in it has a '#pragma weft device' or 'host'; the loops in it are candidates}}
  affine.for %i = 0 to 64 {
    // expected-remark @below {{runs on the device: its iterations are the threads of a 1-D grid; #pragma weft device}}
    affine.for %j = 0 to 64 {
      %v = affine.load %a[%i, %j] : memref<4096x4096xf64>
      affine.store %v, %b[%i, %j] : memref<4096x4096xf64>
    } {weft.gpu.place = "device"}
  }
  return
}

// -----

// A loop forced onto the device that cannot run there is an error.
func.func private @g(f64)
func.func @illegal(%a: memref<8xf64>, %s: memref<8xf64>) {
  // expected-error @below {{'#pragma weft device': the loop cannot run on the device: it calls a function}}
  affine.for %i = 0 to 8 {
    %v = affine.load %a[%i] : memref<8xf64>
    func.call @g(%v) : (f64) -> ()
  } {weft.gpu.place = "device"}
  // expected-error @below {{'#pragma weft device': the loop cannot run on the device: it carries a dependence through #1}}
  affine.for %i = 1 to 8 {
    %v = affine.load %s[%i - 1] : memref<8xf64>
    affine.store %v, %s[%i] : memref<8xf64>
  } {weft.gpu.place = "device"}
  return
}
