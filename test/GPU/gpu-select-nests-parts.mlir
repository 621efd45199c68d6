// RUN: weft-opt %s --gpu-select-nests=report -split-input-file -verify-diagnostics | FileCheck %s

// gpu-select-nests places adjacent nests together (up to 4, with nothing
// that touches memory between them; among them the loops gpu-expose-bands
// distributes one loop into, marked weft.gpu.parts): it compares every
// placement of them (kernels and launches of those on the device, CPU time
// of the others, and the copies the placement as a whole makes, as
// gpu-place-data moves data: an array the device nests share moves once,
// one a host nest accesses too moves around each launch of the device
// nests that access it) and takes the fastest.

// PolyBench's gemm as gpu-expose-bands leaves it (4096^3, A100-40GB; j
// moved outside k, weft.gpu.interchanged: the CPU would run k outside j):
// alone, the scaling by beta stays on the host (C's copies charged to it
// outweigh its kernel); with the product on the device, C moves anyway, so
// the scaling runs there too.
// CHECK-LABEL: func.func @gemm
// CHECK: {weft.gpu.band = 2 : i64, weft.gpu.coalesced = 1 : i64, weft.gpu.parts = 0 : i64}
// CHECK: {weft.gpu.band = 2 : i64, weft.gpu.block = array<i64: 32, 16>, weft.gpu.coalesced = 1 : i64, weft.gpu.parts = 0 : i64}
func.func @gemm(%C: memref<4096x4096xf64>, %A: memref<4096x4096xf64>, %B: memref<4096x4096xf64>, %alpha: f64, %beta: f64) {
  // expected-remark @below {{runs on the device: the iterations of its 2 outer loops are the threads of a 2-D grid, the loop at line 23 along threadIdx.x (the arrays' contiguous dimension); placed with the other part of the loop distributed at line 22: predicted 42.9 ms for the 2 parts with this one on the device (copies 21.5 ms, 5.38 ms less than charged to each device part alone) against 47.2 ms with it on the host (copies 21.5 ms); alone, predicted 4.47 ms on the CPU against 10.9 ms on the device (kernels 97.2 us, 1 launch 5 us, copies 10.8 ms)}}
  affine.for %i = 0 to 4096 {
    affine.for %j = 0 to 4096 {
      %c = affine.load %C[%i, %j] : memref<4096x4096xf64>
      %s = arith.mulf %c, %beta : f64
      affine.store %s, %C[%i, %j] : memref<4096x4096xf64>
    }
  } {weft.gpu.parts = 0 : i64}
  // expected-remark @below {{placed with the other part of the loop distributed at line 30: predicted 42.9 ms for the 2 parts with this one on the device (copies 21.5 ms, 5.38 ms less than charged to each device part alone) against 18.3 s with it on the host (copies 10.8 ms); alone, predicted 37.4 ms on the device}}
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
    } {weft.gpu.interchanged}
  } {weft.gpu.parts = 0 : i64}
  return
}

// -----

// The same loops without weft.gpu.parts: adjacent nests, placed together
// the same way.
// CHECK-LABEL: func.func @unmarked
// CHECK: {weft.gpu.band = 2 : i64, weft.gpu.coalesced = 1 : i64}
// CHECK: {weft.gpu.band = 2 : i64, weft.gpu.block = array<i64: 32, 16>, weft.gpu.coalesced = 1 : i64}
func.func @unmarked(%C: memref<4096x4096xf64>, %A: memref<4096x4096xf64>, %B: memref<4096x4096xf64>, %alpha: f64, %beta: f64) {
  // expected-remark @below {{placed with the adjacent nest at line 18: predicted 42.9 ms for the 2 nests with this one on the device (copies 21.5 ms, 5.38 ms less than charged to each device nest alone) against 47.2 ms with it on the host (copies 21.5 ms); alone, predicted 4.47 ms on the CPU against 10.9 ms on the device}}
  affine.for %i = 0 to 4096 {
    affine.for %j = 0 to 4096 {
      %c = affine.load %C[%i, %j] : memref<4096x4096xf64>
      %s = arith.mulf %c, %beta : f64
      affine.store %s, %C[%i, %j] : memref<4096x4096xf64>
    }
  }
  // expected-remark @below {{placed with the adjacent nest at line 10: predicted 42.9 ms for the 2 nests with this one on the device}}
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

// Host code between them (a store) separates them: each is placed alone,
// and the scaling stays on the host.
// CHECK-LABEL: func.func @separated
// CHECK-NOT: weft.gpu.band
// CHECK: {weft.gpu.band = 2 : i64, weft.gpu.block = array<i64: 32, 16>, weft.gpu.coalesced = 1 : i64}
func.func @separated(%C: memref<4096x4096xf64>, %A: memref<4096x4096xf64>, %B: memref<4096x4096xf64>, %alpha: f64, %beta: f64, %out: memref<f64>) {
  // expected-remark @below {{stays on the host: predicted 4.47 ms on the CPU against 10.9 ms on the device (kernels 97.2 us, 1 launch 5 us, copies 10.8 ms)}}
  affine.for %i = 0 to 4096 {
    affine.for %j = 0 to 4096 {
      %c = affine.load %C[%i, %j] : memref<4096x4096xf64>
      %s = arith.mulf %c, %beta : f64
      affine.store %s, %C[%i, %j] : memref<4096x4096xf64>
    }
  }
  affine.store %beta, %out[] : memref<f64>
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

// fdtd-2d's time step: alone, the nest that writes row 0 of ey stays on the
// host (1000 launches cost more than its CPU time); then ey, which the
// sweep reads and writes, would move in and out around each launch of the
// sweep (gpu-place-data), 1000 times. Placed together, both run on the
// device and ey moves once.
// CHECK-LABEL: func.func @time_step
// CHECK: {weft.gpu.band = 1 : i64, weft.gpu.coalesced = 0 : i64}
// CHECK: {weft.gpu.band = 2 : i64, weft.gpu.coalesced = 1 : i64}
func.func @time_step(%ey: memref<1000x1200xf64>, %hz: memref<1000x1200xf64>, %fict: memref<1000xf64>) {
  // expected-remark @below {{stays on the host: it carries a dependence through #0; the loops in it are candidates}}
  affine.for %t = 0 to 1000 {
    // expected-remark @below {{placed with the adjacent nest at line 20: predicted 25.1 ms for the 2 nests with this one on the device (copies 1.19 ms, 10 us less than charged to each device nest alone) against 807 ms with it on the host (copies 788 ms); alone, predicted 32.5 us on the CPU against 5.03 ms on the device}}
    affine.for %j = 0 to 1200 {
      %f = affine.load %fict[%t] : memref<1000xf64>
      affine.store %f, %ey[0, %j] : memref<1000x1200xf64>
    }
    // expected-remark @below {{placed with the adjacent nest at line 15: predicted 25.1 ms for the 2 nests with this one on the device (copies 1.19 ms, 10 us less than charged to each device nest alone) against 665 ms with it on the host (copies 20.8 ms)}}
    affine.for %i = 1 to 1000 {
      affine.for %j = 0 to 1200 {
        %e = affine.load %ey[%i, %j] : memref<1000x1200xf64>
        %h = affine.load %hz[%i, %j] : memref<1000x1200xf64>
        %g = affine.load %hz[%i - 1, %j] : memref<1000x1200xf64>
        %d = arith.subf %h, %g : f64
        %v = arith.subf %e, %d : f64
        affine.store %v, %ey[%i, %j] : memref<1000x1200xf64>
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
  // expected-remark @below {{runs on the device: the iterations of its 2 outer loops are the threads of a 2-D grid, the loop at line 19 along threadIdx.x (the arrays' contiguous dimension); predicted 37.4 ms on the device (kernels 21.3 ms, 1 launch 5 us, copies 16.1 ms) against 52.8 s on the CPU}}
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
  // expected-remark @below {{predicted 410 us for the 2 parts with this one on the device (copies 376 us) against 72.8 ms with it on the host (copies 0 us)}}
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
  // expected-remark @below {{stays on the host: placed with the other part of the loop distributed at line 25: predicted 410 us for the 2 parts with this one on the host (copies 376 us) against 424 us with it on the device (copies 386 us); alone, predicted 1.37 us on the CPU against 15.3 us on the device}}
  affine.for %i = 0 to 512 {
    affine.for %j = 0 to 2 {
      %v = affine.load %z[%i, %j] : memref<512x512xf64>
      affine.store %v, %w[%i, %j] : memref<512x2xf64>
    }
  } {weft.gpu.parts = 3 : i64}
  return
}

// -----

// A run of more than 4 adjacent nests is placed 4 at a time, cut where the
// parts of one distributed loop stay together: the three nests before
// gemm's parts form one group, the parts another.
// CHECK-LABEL: func.func @long_run
func.func @long_run(%C: memref<4096x4096xf64>, %A: memref<4096x4096xf64>, %B: memref<4096x4096xf64>, %x: memref<64xf64>, %alpha: f64, %beta: f64) {
  // expected-remark @below {{placed with the adjacent nests at line 13, line 17:}}
  affine.for %i = 0 to 64 {
    affine.store %beta, %x[%i] : memref<64xf64>
  }
  // expected-remark @below {{placed with the adjacent nests at line 9, line 17:}}
  affine.for %i = 0 to 64 {
    affine.store %alpha, %x[%i] : memref<64xf64>
  }
  // expected-remark @below {{placed with the adjacent nests at line 9, line 13:}}
  affine.for %i = 0 to 64 {
    affine.store %beta, %x[%i] : memref<64xf64>
  }
  // expected-remark @below {{placed with the other part of the loop distributed at line 21:}}
  affine.for %i = 0 to 4096 {
    affine.for %j = 0 to 4096 {
      %c = affine.load %C[%i, %j] : memref<4096x4096xf64>
      %s = arith.mulf %c, %beta : f64
      affine.store %s, %C[%i, %j] : memref<4096x4096xf64>
    }
  } {weft.gpu.parts = 0 : i64}
  // expected-remark @below {{placed with the other part of the loop distributed at line 29:}}
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
