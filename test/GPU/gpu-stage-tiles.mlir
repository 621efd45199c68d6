// RUN: weft-opt %s --gpu-map-loops --lower-affine --convert-parallel-loops-to-gpu --gpu-launch-sink-index-computations --gpu-kernel-outlining --lower-affine --gpu-stage-tiles=report -split-input-file -verify-diagnostics | FileCheck %s

// The kernels of 2-D nests as gpu-map-loops and the outlining make them,
// with the tile width and block shape gpu-select-nests would choose.

// A product: A[i][k] is the same for a row of threads (y), B[k][j] for a
// column (x). Both are staged: the loop runs in steps of 16, every thread of
// the 16 x 16 block loads elements of each tile (guarded at the edges and
// past the loop's end), between two barriers; the threads inside the
// iteration space then read the tiles. A's tile is [rows][T], its elements
// along k to consecutive threads; B's [T][columns], along j.
// CHECK-LABEL: gpu.func @product_kernel
// CHECK-SAME: workgroup(%[[AT:.*]] : memref<16x16xf64, #gpu.address_space<workgroup>>, %[[BT:.*]] : memref<16x16xf64, #gpu.address_space<workgroup>>)
// CHECK: %[[INSIDE:.*]] = arith.andi
// CHECK-NOT: scf.if %[[INSIDE]]
// CHECK: scf.for %[[KK:.*]] = %{{.*}} to %[[NK:.*]] step
// CHECK: scf.for %[[E:.*]] = %{{.*}} to %c256{{.*}} step %c256
// CHECK: %[[R:.*]] = arith.divui %[[E]], %[[C16:.*]] : index
// CHECK: %[[C:.*]] = arith.remui %[[E]], %[[C16]] : index
// CHECK: arith.cmpi slt, %{{.*}}, %[[NK]] : index
// CHECK: scf.if
// CHECK: %[[V:.*]] = memref.load %arg{{.*}} : memref<?x?xf64>
// CHECK: memref.store %[[V]], %[[AT]][%[[R]], %[[C]]]
// CHECK: scf.for
// CHECK: memref.store %{{.*}}, %[[BT]]
// CHECK: gpu.barrier
// CHECK-NEXT: scf.if %[[INSIDE]] {
// CHECK: arith.minsi
// CHECK: scf.for %[[COL:.*]] =
// CHECK: %[[TY:.*]] = gpu.thread_id y
// CHECK: memref.load %[[AT]][%[[TY]], %[[COL]]]
// CHECK: %[[TX:.*]] = gpu.thread_id x
// CHECK: memref.load %[[BT]][%[[COL]], %[[TX]]]
// CHECK: gpu.barrier
// CHECK-NEXT: }
// CHECK-NEXT: gpu.return
func.func @product(%c: memref<?x?xf64> loc("C"), %a: memref<?x?xf64> loc("A"),
                   %b: memref<?x?xf64> loc("B"), %ni: index, %nj: index, %nk: index) {
  affine.for %i = 0 to %ni {
    affine.for %j = 0 to %nj {
      // expected-remark @below {{the loop is tiled by 16 in shared memory: the 16 x 16 threads of a block stage A (16 x 16) and B (16 x 16) at each step, 4096 bytes}}
      affine.for %k = 0 to %nk {
        %x = affine.load %c[%i, %j] : memref<?x?xf64>
        %y = affine.load %a[%i, %k] : memref<?x?xf64>
        %w = affine.load %b[%k, %j] : memref<?x?xf64>
        %p = arith.mulf %y, %w : f64
        %s = arith.addf %x, %p : f64
        affine.store %s, %c[%i, %j] : memref<?x?xf64>
      } {weft.gpu.tile = 16 : i64}
    }
  } {weft.gpu.band = 2 : i64, weft.gpu.coalesced = 1 : i64, weft.gpu.block = array<i64: 16, 16>}
  return
}

// -----

// Statements before and after the loop keep their guard; a read shared by
// the whole block (x[2k + 1]) has a tile of one row; the loop starts at 1.
// CHECK-LABEL: gpu.func @around_kernel
// CHECK-SAME: workgroup(%[[XT:.*]] : memref<1x8xf32, #gpu.address_space<workgroup>>)
// CHECK: scf.if
// CHECK: memref.store %{{.*}} : memref<?x?xf32>
// CHECK: scf.for
// CHECK: memref.store %{{.*}}, %[[XT]]
// CHECK: gpu.barrier
// CHECK: memref.load %[[XT]][%c0
// CHECK: gpu.barrier
// CHECK: scf.if
// CHECK: arith.mulf
// CHECK: gpu.return
func.func @around(%c: memref<?x?xf32> loc("C"), %x: memref<?xf32> loc("x"),
                  %n: index) {
  affine.for %i = 0 to %n {
    affine.for %j = 0 to %n {
      %z = arith.constant 0.0 : f32
      affine.store %z, %c[%i, %j] : memref<?x?xf32>
      // expected-remark @below {{the loop is tiled by 8 in shared memory: the 32 x 8 threads of a block stage x (1 x 8) at each step, 32 bytes}}
      affine.for %k = 1 to %n {
        %v = affine.load %x[2 * %k + 1] : memref<?xf32>
        %o = affine.load %c[%i, %j] : memref<?x?xf32>
        %s = arith.addf %o, %v : f32
        affine.store %s, %c[%i, %j] : memref<?x?xf32>
      } {weft.gpu.tile = 8 : i64}
      %f = affine.load %c[%i, %j] : memref<?x?xf32>
      %g = arith.mulf %f, %f : f32
      affine.store %g, %c[%i, %j] : memref<?x?xf32>
    }
  } {weft.gpu.band = 2 : i64, weft.gpu.coalesced = 1 : i64}
  return
}

// -----

// Not tiled: the only shared read's array is written in the kernel (the
// kernel is left as it was: no barrier, no workgroup memory).
// CHECK-LABEL: gpu.func @written_kernel
// CHECK-NOT: workgroup
// CHECK-NOT: gpu.barrier
// CHECK: gpu.return
func.func @written(%a: memref<?x?xf64> loc("A"), %n: index) {
  affine.for %i = 0 to %n {
    affine.for %j = 0 to %n {
      // expected-remark @below {{the loop is not tiled: A is written in the kernel}}
      affine.for %k = 0 to %n {
        %v = affine.load %a[%i, %k + 1000] : memref<?x?xf64>
        affine.store %v, %a[%i, %j] : memref<?x?xf64>
      } {weft.gpu.tile = 16 : i64}
    }
  } {weft.gpu.band = 2 : i64, weft.gpu.coalesced = 1 : i64}
  return
}

// -----

// Not tiled: the subscript of B comes from memory; that of A is not affine
// in the loop's iterator.
// CHECK-LABEL: gpu.func @indirect_kernel
// CHECK-NOT: gpu.barrier
func.func @indirect(%a: memref<?x?xf64> loc("A"), %b: memref<?x?xf64> loc("B"),
                    %idx: memref<?xindex> loc("idx"), %c: memref<?x?xf64> loc("C"),
                    %n: index) {
  affine.for %i = 0 to %n {
    affine.for %j = 0 to %n {
      // expected-remark @below {{the loop is not tiled: the subscripts of a read of A are not affine in the loop's and the thread's indices; the subscripts of a read of B are not affine in the loop's and the thread's indices}}
      affine.for %k = 0 to %n {
        %v = affine.load %a[%i, %k floordiv 2] : memref<?x?xf64>
        %r = affine.load %idx[%k] : memref<?xindex>
        %w = memref.load %b[%r, %j] : memref<?x?xf64>
        %s = arith.addf %v, %w : f64
        affine.store %s, %c[%i, %j] : memref<?x?xf64>
      } {weft.gpu.tile = 16 : i64}
    }
  } {weft.gpu.band = 2 : i64, weft.gpu.coalesced = 1 : i64}
  return
}

// -----

// Not tiled: a triangular loop (its bounds differ between threads).
func.func @triangular(%a: memref<?x?xf64> loc("A"), %c: memref<?x?xf64> loc("C"),
                      %n: index) {
  affine.for %i = 0 to %n {
    affine.for %j = 0 to %n {
      // expected-remark @below {{the loop is not tiled: its bounds differ between threads}}
      affine.for %k = 0 to affine_map<(d0) -> (d0)>(%i) {
        %v = affine.load %a[%i, %k] : memref<?x?xf64>
        affine.store %v, %c[%i, %j] : memref<?x?xf64>
      } {weft.gpu.tile = 16 : i64}
    }
  } {weft.gpu.band = 2 : i64, weft.gpu.coalesced = 1 : i64}
  return
}

// -----

// Not tiled: a value read before the loop is used in it.
func.func @before(%a: memref<?x?xf64> loc("A"), %c: memref<?x?xf64> loc("C"),
                  %n: index) {
  affine.for %i = 0 to %n {
    affine.for %j = 0 to %n {
      %s = affine.load %c[%i, %j] : memref<?x?xf64>
      // expected-remark @below {{the loop is not tiled: a value computed before it in each thread is used in it or after it}}
      affine.for %k = 0 to %n {
        %v = affine.load %a[%i, %k] : memref<?x?xf64>
        %t = arith.addf %v, %s : f64
        affine.store %t, %c[%i, %j] : memref<?x?xf64>
      } {weft.gpu.tile = 16 : i64}
    }
  } {weft.gpu.band = 2 : i64, weft.gpu.coalesced = 1 : i64}
  return
}

// -----

// Not tiled: 32 x 8 x 4096 doubles exceed CUDA's 48 KiB of static shared
// memory a block.
func.func @too_wide(%a: memref<?x?xf64> loc("A"), %c: memref<?x?xf64> loc("C"),
                    %n: index) {
  affine.for %i = 0 to %n {
    affine.for %j = 0 to %n {
      // expected-remark @below {{the loop is not tiled: the tile of A would exceed 49152 bytes of shared memory}}
      affine.for %k = 0 to %n {
        %v = affine.load %a[%k, %j] : memref<?x?xf64>
        affine.store %v, %c[%i, %j] : memref<?x?xf64>
      } {weft.gpu.tile = 4096 : i64}
    }
  } {weft.gpu.band = 2 : i64, weft.gpu.coalesced = 1 : i64}
  return
}
