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
// CHECK-NOT: gpu.all_reduce
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
// A full tile runs 16 iterations, marked for unrolling; the last, partial
// one the iterations left.
// CHECK: %[[LEFT:.*]] = arith.subi %[[NK]], %[[KK]] : index
// CHECK: %[[FULL:.*]] = arith.cmpi sge, %[[LEFT]], %[[T:.*]] : index
// CHECK-NEXT: scf.if %[[FULL]] {
// CHECK-NEXT: scf.for %[[COL:.*]] = %{{.*}} to %[[T]] step
// CHECK: %[[TY:.*]] = gpu.thread_id y
// CHECK: memref.load %[[AT]][%[[TY]], %[[COL]]]
// CHECK: %[[TX:.*]] = gpu.thread_id x
// CHECK: memref.load %[[BT]][%[[COL]], %[[TX]]]
// CHECK: } {weft.unroll}
// CHECK-NEXT: } else {
// CHECK-NEXT: scf.for %[[COL2:.*]] = %{{.*}} to %[[LEFT]] step
// CHECK: memref.load %[[AT]][%{{.*}}, %[[COL2]]]
// CHECK: memref.load %[[BT]][%[[COL2]], %{{.*}}]
// CHECK: }{{$}}
// CHECK-NEXT: }
// CHECK-NEXT: }
// CHECK-NEXT: gpu.barrier
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

// Known trip counts: 64 iterations by tiles of 16 are full tiles only (one
// loop of 16, unrolled, no test), 8 only a partial one (no loop to unroll).
// CHECK-LABEL: gpu.func @known_trips_kernel
// CHECK: gpu.barrier
// CHECK-NOT: arith.cmpi sge
// CHECK: scf.for %{{.*}} = %{{.*}} to %c16{{.*}} step
// CHECK: } {weft.unroll}
// CHECK-NEXT: }
// CHECK-NEXT: gpu.barrier
// CHECK-LABEL: gpu.module @known_trips_kernel_0
// CHECK: gpu.barrier
// CHECK-NOT: arith.cmpi sge
// CHECK: %[[LEFT:.*]] = arith.subi %c8{{.*}}, %{{.*}} : index
// CHECK-NEXT: scf.for %{{.*}} = %{{.*}} to %[[LEFT]] step
// CHECK-NOT: weft.unroll
// CHECK: gpu.barrier
func.func @known_trips(%c: memref<?x?xf64> loc("C"), %a: memref<?x?xf64> loc("A"),
                       %b: memref<?x?xf64> loc("B"), %ni: index, %nj: index) {
  affine.for %i = 0 to %ni {
    affine.for %j = 0 to %nj {
      // expected-remark @below {{the loop is tiled by 16 in shared memory}}
      affine.for %k = 0 to 64 {
        %x = affine.load %c[%i, %j] : memref<?x?xf64>
        %y = affine.load %a[%i, %k] : memref<?x?xf64>
        %w = affine.load %b[%k, %j] : memref<?x?xf64>
        %p = arith.mulf %y, %w : f64
        %s = arith.addf %x, %p : f64
        affine.store %s, %c[%i, %j] : memref<?x?xf64>
      } {weft.gpu.tile = 16 : i64}
    }
  } {weft.gpu.band = 2 : i64, weft.gpu.coalesced = 1 : i64, weft.gpu.block = array<i64: 16, 16>}
  affine.for %i = 0 to %ni {
    affine.for %j = 0 to %nj {
      // expected-remark @below {{the loop is tiled by 16 in shared memory}}
      affine.for %k = 0 to 8 {
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

// A triangle (j <= i), as gpu-select-nests stages it (every row and column
// of the grid's box holds an element): the tiles' loads keep the
// conditions along their own dimension (rows of A below n, columns of B in
// the box), not the triangle's `j < i + 1`, which only guards the
// computation. A block first votes whether any of its threads is inside
// (those above the diagonal skip the tiles).
// CHECK-LABEL: gpu.func @triangle_kernel
// CHECK: %[[DIAG:.*]] = arith.addi %{{.*}}, %c1{{.*}} : index
// CHECK: %[[TRI:.*]] = arith.cmpi slt, %{{.*}}, %[[DIAG]] : index
// CHECK: %[[WITHIN:.*]] = arith.andi %{{.*}}, %[[TRI]] : i1
// CHECK: %[[INSIDE:.*]] = arith.andi %{{.*}}, %[[WITHIN]] : i1
// CHECK: %[[ANY:.*]] = gpu.all_reduce or %[[INSIDE]] uniform
// CHECK: scf.if %[[ANY]] {
// CHECK: scf.for
// CHECK-NOT: %[[TRI]]
// CHECK-NOT: %[[INSIDE]]
// CHECK: gpu.barrier
// CHECK-NEXT: scf.if %[[INSIDE]] {
func.func @triangle(%c: memref<?x?xf64> loc("C"), %a: memref<?x?xf64> loc("A"),
                    %b: memref<?x?xf64> loc("B"), %n: index, %nk: index) {
  affine.for %i = 0 to %n {
    affine.for %j = 0 to affine_map<(d0) -> (d0 + 1)>(%i) {
      // expected-remark @below {{the loop is tiled by 16 in shared memory}}
      affine.for %k = 0 to %nk {
        %x = affine.load %c[%i, %j] : memref<?x?xf64>
        %y = affine.load %a[%i, %k] : memref<?x?xf64>
        %w = affine.load %b[%j, %k] : memref<?x?xf64>
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

// Tiled: the loop's bound `n - 1` is computed before it in each thread but
// alike in all (from the kernel's arguments): it moves before the guard
// with the constants.
// CHECK-LABEL: gpu.func @uniform_bound_kernel
// CHECK: %[[BOUND:.*]] = arith.addi %{{.*}}, %c-1{{.*}} : index
// CHECK-NOT: scf.if
// CHECK: scf.for %{{.*}} = %{{.*}} to %[[BOUND]] step
func.func @uniform_bound(%a: memref<?x?xf64> loc("A"), %c: memref<?x?xf64> loc("C"),
                         %n: index) {
  affine.for %i = 0 to %n {
    affine.for %j = 0 to %n {
      // expected-remark @below {{the loop is tiled by 16 in shared memory}}
      affine.for %k = 0 to affine_map<()[s0] -> (s0 - 1)>()[%n] {
        %v = affine.load %a[%i, %k] : memref<?x?xf64>
        %s = affine.load %c[%i, %j] : memref<?x?xf64>
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

// -----

// Register tiles (weft.gpu.coarsen = [2, 2], gpu-select-nests' choice): a
// block stands for 2 x 2 blocks of the grid before, so the launch has
// ceil(blocks / 2) along each dimension and its tiles twice the rows; each
// thread keeps its 4 elements of C in variables (memref.alloca), loaded
// inside the iteration space and zero outside it, runs the tile's
// iterations for the 4 of them (one read of A's tile per row of elements,
// one of B's per column), and stores each element back inside the
// iteration space. Threads past the edges compute with stale tiles and
// store nothing.
// CHECK-LABEL: func.func @registers
// CHECK: %[[GX:.*]] = arith.ceildivsi %{{.*}}, %c2{{.*}} : index
// CHECK: %[[GY:.*]] = arith.ceildivsi %{{.*}}, %c2{{.*}} : index
// CHECK: gpu.launch_func @registers_kernel::@registers_kernel blocks in (%[[GX]], %[[GY]], %{{.*}}) threads in (%c16{{.*}}, %c8{{.*}}, %{{.*}})
// CHECK-LABEL: gpu.func @registers_kernel
// CHECK-SAME: workgroup(%[[AT:.*]] : memref<16x8xf64, #gpu.address_space<workgroup>>, %[[BT:.*]] : memref<8x32xf64, #gpu.address_space<workgroup>>)
// CHECK-COUNT-4: %{{.*}} = memref.alloca() : memref<f64>
// CHECK: scf.for
// CHECK: scf.for
// CHECK: memref.store %{{.*}}, %[[AT]]
// CHECK: scf.for
// CHECK: memref.store %{{.*}}, %[[BT]]
// CHECK: gpu.barrier
// CHECK: %[[FULL:.*]] = arith.cmpi sge
// CHECK-NEXT: scf.if %[[FULL]] {
// CHECK-NEXT: scf.for %[[COL:.*]] =
// CHECK-COUNT-2: memref.load %[[AT]][%{{.*}}, %[[COL]]]
// CHECK-COUNT-2: memref.load %[[BT]][%[[COL]], %{{.*}}]
// CHECK-COUNT-4: arith.addf
// CHECK: } {weft.unroll}
// CHECK-NEXT: } else {
// CHECK-NEXT: scf.for
// CHECK-COUNT-4: arith.addf
// CHECK: gpu.barrier
// CHECK-COUNT-4: scf.if
// CHECK: gpu.return
func.func @registers(%c: memref<?x?xf64> loc("C"), %a: memref<?x?xf64> loc("A"),
                     %b: memref<?x?xf64> loc("B"), %ni: index, %nj: index, %nk: index) {
  affine.for %i = 0 to %ni {
    affine.for %j = 0 to %nj {
      // expected-remark @below {{the loop is tiled by 8 in shared memory, each thread computing 2 x 2 elements in registers: the 16 x 8 threads of a block stage A (16 x 8) and B (8 x 32) at each step, 3072 bytes}}
      affine.for %k = 0 to %nk {
        %x = affine.load %c[%i, %j] : memref<?x?xf64>
        %y = affine.load %a[%i, %k] : memref<?x?xf64>
        %w = affine.load %b[%k, %j] : memref<?x?xf64>
        %p = arith.mulf %y, %w : f64
        %s = arith.addf %x, %p : f64
        affine.store %s, %c[%i, %j] : memref<?x?xf64>
      } {weft.gpu.tile = 8 : i64, weft.gpu.coarsen = array<i64: 2, 2>}
    }
  } {weft.gpu.band = 2 : i64, weft.gpu.coalesced = 1 : i64, weft.gpu.block = array<i64: 16, 8>}
  return
}

// -----

// Register tiles need a loop whose every access is a staged read or the
// element it accumulates into: here the loop also reads s[i][j], which no
// tile holds and a thread past the edges must not read. The loop is tiled
// with one element a thread.
// CHECK-LABEL: gpu.func @unstaged_kernel
// CHECK-NOT: memref.alloca
// CHECK: gpu.return
func.func @unstaged(%c: memref<?x?xf64> loc("C"), %a: memref<?x?xf64> loc("A"),
                    %t: memref<?x?xf64> loc("s"), %n: index) {
  affine.for %i = 0 to %n {
    affine.for %j = 0 to %n {
      // expected-remark @below {{the loop is tiled by 8 in shared memory: the 32 x 8 threads of a block stage A (8 x 8) at each step, 512 bytes; no register tiles: the read of s is not staged}}
      affine.for %k = 0 to %n {
        %x = affine.load %c[%i, %j] : memref<?x?xf64>
        %y = affine.load %a[%i, %k] : memref<?x?xf64>
        %z = affine.load %t[%i, %j] : memref<?x?xf64>
        %p = arith.mulf %y, %z : f64
        %s = arith.addf %x, %p : f64
        affine.store %s, %c[%i, %j] : memref<?x?xf64>
      } {weft.gpu.tile = 8 : i64, weft.gpu.coarsen = array<i64: 1, 2>}
    }
  } {weft.gpu.band = 2 : i64, weft.gpu.coalesced = 1 : i64, weft.gpu.block = array<i64: 32, 8>}
  return
}

// -----

// An integer division in the loop would trap in a thread past the edges
// (the emulation's CPU) or compute nothing useful: no register tiles.
func.func @division(%c: memref<?x?xi64> loc("C"), %a: memref<?x?xi64> loc("A"),
                    %n: index) {
  affine.for %i = 0 to %n {
    affine.for %j = 0 to %n {
      // expected-remark @below {{the loop is tiled by 8 in shared memory: the 32 x 8 threads of a block stage A (8 x 8) at each step, 512 bytes; no register tiles: the loop's update of C is not an accumulation into one element of floating-point type}}
      affine.for %k = 0 to %n {
        %x = affine.load %c[%i, %j] : memref<?x?xi64>
        %y = affine.load %a[%i, %k] : memref<?x?xi64>
        %q = arith.divsi %x, %y : i64
        affine.store %q, %c[%i, %j] : memref<?x?xi64>
      } {weft.gpu.tile = 8 : i64, weft.gpu.coarsen = array<i64: 2, 1>}
    }
  } {weft.gpu.band = 2 : i64, weft.gpu.coalesced = 1 : i64, weft.gpu.block = array<i64: 32, 8>}
  return
}

// -----

func.func @fdivision(%c: memref<?x?xf64> loc("C"), %a: memref<?x?xf64> loc("A"),
                     %n: index) {
  affine.for %i = 0 to %n {
    affine.for %j = 0 to %n {
      // expected-remark @below {{the loop is tiled by 8 in shared memory: the 32 x 8 threads of a block stage A (8 x 8) at each step, 512 bytes; no register tiles: the loop's body has control flow, effects or an integer division}}
      affine.for %k = 0 to %n {
        %x = affine.load %c[%i, %j] : memref<?x?xf64>
        %y = affine.load %a[%i, %k] : memref<?x?xf64>
        %yi = arith.fptosi %y : f64 to i64
        %d = arith.remsi %yi, %yi : i64
        %df = arith.sitofp %d : i64 to f64
        %s = arith.addf %x, %df : f64
        affine.store %s, %c[%i, %j] : memref<?x?xf64>
      } {weft.gpu.tile = 8 : i64, weft.gpu.coarsen = array<i64: 2, 1>}
    }
  } {weft.gpu.band = 2 : i64, weft.gpu.coalesced = 1 : i64, weft.gpu.block = array<i64: 32, 8>}
  return
}

// -----

// Register tiles the cost model would not choose (weft.gpu.coarsen is
// read as given): more than 64 elements a thread, or tiles past 48 KiB.
func.func @too_many(%c: memref<?x?xf64> loc("C"), %a: memref<?x?xf64> loc("A"),
                    %b: memref<?x?xf64> loc("B"), %n: index) {
  affine.for %i = 0 to %n {
    affine.for %j = 0 to %n {
      // expected-remark @below {{the loop is tiled by 8 in shared memory: the 32 x 8 threads of a block stage A (8 x 8) and B (8 x 32) at each step, 2560 bytes; no register tiles: more than 64 elements a thread}}
      affine.for %k = 0 to %n {
        %x = affine.load %c[%i, %j] : memref<?x?xf64>
        %y = affine.load %a[%i, %k] : memref<?x?xf64>
        %w = affine.load %b[%k, %j] : memref<?x?xf64>
        %p = arith.mulf %y, %w : f64
        %s = arith.addf %x, %p : f64
        affine.store %s, %c[%i, %j] : memref<?x?xf64>
      } {weft.gpu.tile = 8 : i64, weft.gpu.coarsen = array<i64: 16, 8>}
    }
  } {weft.gpu.band = 2 : i64, weft.gpu.coalesced = 1 : i64, weft.gpu.block = array<i64: 32, 8>}
  return
}

// -----

func.func @too_wide(%c: memref<?x?xf64> loc("C"), %a: memref<?x?xf64> loc("A"),
                    %b: memref<?x?xf64> loc("B"), %n: index) {
  affine.for %i = 0 to %n {
    affine.for %j = 0 to %n {
      // expected-remark @below {{the loop is tiled by 32 in shared memory: the 32 x 32 threads of a block stage A (32 x 32) and B (32 x 32) at each step, 16384 bytes; no register tiles: the tiles would exceed 49152 bytes of shared memory}}
      affine.for %k = 0 to %n {
        %x = affine.load %c[%i, %j] : memref<?x?xf64>
        %y = affine.load %a[%i, %k] : memref<?x?xf64>
        %w = affine.load %b[%k, %j] : memref<?x?xf64>
        %p = arith.mulf %y, %w : f64
        %s = arith.addf %x, %p : f64
        affine.store %s, %c[%i, %j] : memref<?x?xf64>
      } {weft.gpu.tile = 32 : i64, weft.gpu.coarsen = array<i64: 4, 4>}
    }
  } {weft.gpu.band = 2 : i64, weft.gpu.coalesced = 1 : i64, weft.gpu.block = array<i64: 32, 32>}
  return
}
