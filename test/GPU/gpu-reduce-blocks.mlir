// RUN: weft-opt %s --gpu-map-loops --lower-affine --convert-parallel-loops-to-gpu --gpu-launch-sink-index-computations --gpu-kernel-outlining --lower-affine --gpu-reduce-blocks -split-input-file | FileCheck %s

// A sum over a 1-D grid of 256-thread blocks: the lanes of each warp
// combine their partial results in five shuffles (offsets 16 to 1), each
// warp's first lane stores the warp's result in the block's shared array
// of one element per warp, and after one barrier the lanes combine those
// eight in three more shuffles; thread 0 alone adds the block's result
// atomically.
// CHECK-LABEL: gpu.func @sum_kernel
// CHECK-SAME: workgroup(%[[P:.*]] : memref<8xf64, #gpu.address_space<workgroup>>)
// CHECK: scf.if
// CHECK: }
// CHECK: %[[MINE:.*]] = memref.load %{{.*}}[] : memref<f64>
// CHECK: %[[T:.*]] = gpu.thread_id x
// CHECK-NOT: gpu.barrier
// CHECK: %[[S16:.*]], %{{.*}} = gpu.shuffle down %[[MINE]], %c16_i32, %c32_i32{{.*}} : f64
// CHECK: %[[V16:.*]] = arith.addf %[[MINE]], %[[S16]] : f64
// CHECK: gpu.shuffle down %[[V16]], %c8_i32
// CHECK: gpu.shuffle down %{{.*}}, %c4_i32
// CHECK: gpu.shuffle down %{{.*}}, %c2_i32
// CHECK: %[[S1:.*]], %{{.*}} = gpu.shuffle down %[[V2:.*]], %c1_i32
// CHECK: %[[WARP_SUM:.*]] = arith.addf %[[V2]], %[[S1]] : f64
// CHECK: %[[WARP:.*]] = arith.divsi %[[T]], %c32
// CHECK: %[[LANE:.*]] = arith.remsi %[[T]], %c32
// CHECK: %[[LEADS:.*]] = arith.cmpi eq, %[[LANE]], %c0
// CHECK: scf.if %[[LEADS]] {
// CHECK-NEXT: memref.store %[[WARP_SUM]], %[[P]][%[[WARP]]]
// CHECK-NEXT: }
// CHECK-NEXT: gpu.barrier
// CHECK: %[[WHICH:.*]] = arith.andi %[[LANE]], %c7 : index
// CHECK: %[[W:.*]] = memref.load %[[P]][%[[WHICH]]]
// CHECK: gpu.shuffle down %[[W]], %c4_i32
// CHECK: gpu.shuffle down %{{.*}}, %c2_i32
// CHECK: %[[S:.*]], %{{.*}} = gpu.shuffle down %[[V:.*]], %c1_i32
// CHECK: %[[R:.*]] = arith.addf %[[V]], %[[S]] : f64
// CHECK-NOT: gpu.barrier
// CHECK: %[[FIRST:.*]] = arith.cmpi eq, %[[T]], %c0
// CHECK: scf.if %[[FIRST]] {
// CHECK-NEXT: memref.atomic_rmw addf %[[R]], %arg{{[0-9]+}}[] {weft.gpu.reduce = "add"}
// CHECK-NOT: memref.atomic_rmw
// CHECK: gpu.return
func.func @sum(%s: memref<f64>, %a: memref<?xf64>, %n: index) {
  affine.for %i = 0 to %n {
    %acc = affine.load %s[] : memref<f64>
    %x = affine.load %a[%i] : memref<?xf64>
    %t = arith.addf %acc, %x : f64
    affine.store %t, %s[] {weft.gpu.reduce = "add"} : memref<f64>
  } {weft.gpu.band = 1 : i64, weft.gpu.coalesced = 0 : i64}
  return
}

// -----

// A 2-D grid of 32 x 8 blocks: thread (x, y) is thread x + 32 * y of the
// block, in the hardware's order, so its warp is y and its lane x; the
// integer maximum combines with maxsi.
// CHECK-LABEL: gpu.func @count_kernel
// CHECK-SAME: workgroup(%[[P:.*]] : memref<8xi32, #gpu.address_space<workgroup>>)
// CHECK: scf.if
// CHECK: }
// CHECK: %[[Y:.*]] = gpu.thread_id y
// CHECK: %[[X:.*]] = gpu.thread_id x
// CHECK: %[[YX:.*]] = arith.muli %[[Y]], %c32
// CHECK: %[[T:.*]] = arith.addi %[[YX]], %[[X]] : index
// CHECK: gpu.shuffle down %{{.*}}, %c16_i32, %c32_i32{{.*}} : i32
// CHECK: arith.maxsi
// CHECK: arith.divsi %[[T]], %c32
// CHECK: gpu.barrier
// CHECK: memref.atomic_rmw maxs
func.func @count(%c: memref<i32>, %a: memref<?x64xi32>, %n: index) {
  affine.for %i = 0 to %n {
    affine.for %j = 0 to 64 {
      %acc = affine.load %c[] : memref<i32>
      %x = affine.load %a[%i, %j] : memref<?x64xi32>
      %t = arith.maxsi %acc, %x : i32
      affine.store %t, %c[] {weft.gpu.reduce = "max"} : memref<i32>
    }
  } {weft.gpu.band = 2 : i64, weft.gpu.coalesced = 1 : i64}
  return
}

// -----

// A block of 16 threads is not a whole warp (a shuffle of every lane would
// read lanes that do not run): each thread stores its partial result in
// the block's shared array of one element per thread, and four halving
// steps (unrolled) between barriers leave the block's result in the first;
// no barrier after the last, whose result the first thread wrote itself.
// CHECK-LABEL: gpu.func @half_warp_kernel
// CHECK-SAME: workgroup(%[[P:.*]] : memref<16xf64, #gpu.address_space<workgroup>>)
// CHECK-NOT: gpu.shuffle
// CHECK: scf.if
// CHECK: }
// CHECK: %[[MINE:.*]] = memref.load %{{.*}}[] : memref<f64>
// CHECK: %[[T:.*]] = gpu.thread_id x
// CHECK: memref.store %[[MINE]], %[[P]][%[[T]]]
// CHECK-NEXT: gpu.barrier
// CHECK: %[[LOW:.*]] = arith.cmpi slt, %[[T]], %c8{{.*}} : index
// CHECK: scf.if %[[LOW]] {
// CHECK: %[[A:.*]] = memref.load %[[P]][%[[T]]]
// CHECK: %[[OTHER:.*]] = arith.addi %[[T]], %c8{{.*}} : index
// CHECK: %[[B:.*]] = memref.load %[[P]][%[[OTHER]]]
// CHECK: %[[AB:.*]] = arith.addf %[[A]], %[[B]] : f64
// CHECK: memref.store %[[AB]], %[[P]][%[[T]]]
// CHECK: }
// CHECK-NEXT: gpu.barrier
// CHECK: arith.cmpi slt, %[[T]], %c4
// CHECK: gpu.barrier
// CHECK: arith.cmpi slt, %[[T]], %c2
// CHECK: gpu.barrier
// CHECK: arith.cmpi slt, %[[T]], %c1
// CHECK: memref.store
// CHECK-NEXT: }
// CHECK-NEXT: %[[R:.*]] = memref.load %[[P]][%[[T]]]
// CHECK: %[[FIRST:.*]] = arith.cmpi eq, %[[T]], %c0
// CHECK: scf.if %[[FIRST]] {
// CHECK-NEXT: memref.atomic_rmw addf %[[R]], %arg{{[0-9]+}}[] {weft.gpu.reduce = "add"}
// CHECK-NOT: gpu.shuffle
// CHECK: gpu.return
func.func @half_warp(%s: memref<f64>, %a: memref<?xf64>, %n: index) {
  affine.for %i = 0 to %n {
    %acc = affine.load %s[] : memref<f64>
    %x = affine.load %a[%i] : memref<?xf64>
    %t = arith.addf %acc, %x : f64
    affine.store %t, %s[] {weft.gpu.reduce = "add"} : memref<f64>
  } {weft.gpu.band = 1 : i64, weft.gpu.coalesced = 0 : i64, weft.gpu.block = array<i64: 16>}
  return
}

// -----

// A 16-bit integer sum: a shuffle moves 32 or 64 bits, so the tree in
// shared memory combines it (eight steps over 256 threads).
// CHECK-LABEL: gpu.func @short_sum_kernel
// CHECK-SAME: workgroup(%[[P:.*]] : memref<256xi16, #gpu.address_space<workgroup>>)
// CHECK-NOT: gpu.shuffle
// CHECK: gpu.barrier
// CHECK: arith.addi %{{.*}}, %{{.*}} : i16
// CHECK-COUNT-7: gpu.barrier
// CHECK-NOT: gpu.barrier
// CHECK: memref.atomic_rmw addi
func.func @short_sum(%s: memref<i16>, %a: memref<?xi16>, %n: index) {
  affine.for %i = 0 to %n {
    %acc = affine.load %s[] : memref<i16>
    %x = affine.load %a[%i] : memref<?xi16>
    %t = arith.addi %acc, %x : i16
    affine.store %t, %s[] {weft.gpu.reduce = "add"} : memref<i16>
  } {weft.gpu.band = 1 : i64, weft.gpu.coalesced = 0 : i64}
  return
}

// -----

// Blocks of 96 threads (not a power of two) cannot halve evenly: every
// thread keeps its own atomic update.
// CHECK-LABEL: gpu.func @odd_kernel
// CHECK-NOT: workgroup
// CHECK-NOT: gpu.barrier
// CHECK: memref.atomic_rmw addf
func.func @odd(%s: memref<f64>, %a: memref<?xf64>, %n: index) {
  affine.for %i = 0 to %n {
    %acc = affine.load %s[] : memref<f64>
    %x = affine.load %a[%i] : memref<?xf64>
    %t = arith.addf %acc, %x : f64
    affine.store %t, %s[] {weft.gpu.reduce = "add"} : memref<f64>
  } {weft.gpu.band = 1 : i64, weft.gpu.coalesced = 0 : i64, weft.gpu.block = array<i64: 96>}
  return
}

// -----

// Updates the block cannot combine stay as they are: one whose element
// differs between the threads (it follows thread_id), one inside a
// condition that differs along x (not every thread of a row reaches it),
// and an atomic weft did not mark.
// CHECK-LABEL: gpu.func @kept
// CHECK-NOT: workgroup
// CHECK-NOT: gpu.barrier
// CHECK: memref.atomic_rmw addf %{{.*}}, %arg0[%{{.*}}] {weft.gpu.reduce = "add"}
// CHECK: scf.if
// CHECK: memref.atomic_rmw addf %{{.*}}, %arg0[%{{.*}}] {weft.gpu.reduce = "add"}
// CHECK: memref.atomic_rmw addf %{{.*}}, %arg0[%{{.*}}] :
module attributes {gpu.container_module} {
  func.func @host(%p: memref<256xf64>, %flag: i1) {
    %c1 = arith.constant 1 : index
    %c256 = arith.constant 256 : index
    gpu.launch_func @m::@kept blocks in (%c1, %c1, %c1) threads in (%c256, %c1, %c1) args(%p : memref<256xf64>, %flag : i1)
    return
  }
  gpu.module @m {
    gpu.func @kept(%p: memref<256xf64>, %flag: i1) kernel {
      %v = arith.constant 1.0 : f64
      %c0 = arith.constant 0 : index
      %t = gpu.thread_id x
      %0 = memref.atomic_rmw addf %v, %p[%t] {weft.gpu.reduce = "add"} : (f64, memref<256xf64>) -> f64
      %c128 = arith.constant 128 : index
      %low = arith.cmpi ult, %t, %c128 : index
      scf.if %low {
        %1 = memref.atomic_rmw addf %v, %p[%c0] {weft.gpu.reduce = "add"} : (f64, memref<256xf64>) -> f64
      }
      %2 = memref.atomic_rmw addf %v, %p[%c0] : (f64, memref<256xf64>) -> f64
      gpu.return
    }
  }
}

// -----

// A row reduction: the element, y[i], follows threadIdx.y, and the update
// sits in the condition that the row exists (gpu-map-loops). Each row of
// 32 threads along x is a warp: its lanes combine their partial results in
// five shuffles, with no shared memory and no barrier, and its first
// thread adds the row's result.
// CHECK-LABEL: gpu.func @row_sums_kernel
// CHECK-NOT: workgroup
// CHECK: scf.if
// CHECK: }
// CHECK: memref.load %{{.*}}[] : memref<f64>
// CHECK: gpu.thread_id y
// CHECK-NEXT: %[[X:.*]] = gpu.thread_id x
// CHECK-NOT: gpu.barrier
// CHECK: gpu.shuffle down %{{.*}}, %c16_i32, %c32_i32{{.*}} : f64
// CHECK: gpu.shuffle down %{{.*}}, %c8_i32
// CHECK: gpu.shuffle down %{{.*}}, %c4_i32
// CHECK: gpu.shuffle down %{{.*}}, %c2_i32
// CHECK: %[[S:.*]], %{{.*}} = gpu.shuffle down %[[V:.*]], %c1_i32
// CHECK-NEXT: %[[R:.*]] = arith.addf %[[V]], %[[S]] : f64
// CHECK-NOT: gpu.barrier
// CHECK-NOT: gpu.shuffle
// CHECK: %[[FIRST:.*]] = arith.cmpi eq, %[[X]], %c0
// CHECK: %[[BOTH:.*]] = arith.andi %{{.*}}, %[[FIRST]] : i1
// CHECK: scf.if %[[BOTH]] {
// CHECK-NEXT: memref.atomic_rmw addf %[[R]], %arg{{[0-9]+}}[%{{.*}}] {weft.gpu.reduce = "add"}
// CHECK-NOT: memref.atomic_rmw
// CHECK: gpu.return
func.func @row_sums(%y: memref<?xf64>, %a: memref<?x?xf64>, %m: index, %n: index) {
  affine.for %i = 0 to %m {
    affine.for %j = 0 to %n {
      %acc = affine.load %y[%i] : memref<?xf64>
      %v = affine.load %a[%i, %j] : memref<?x?xf64>
      %t = arith.addf %acc, %v : f64
      affine.store %t, %y[%i] {weft.gpu.reduce = "add"} : memref<?xf64>
    }
  } {weft.gpu.band = 2 : i64, weft.gpu.coalesced = 1 : i64}
  return
}

// -----

// A column reduction (`y[j] += A[i][j]`, `j` along x, `i` along y): the
// element and its condition differ along x, not along y, so each column of
// the block (8 threads, 32 apart) combines in a tree in shared memory
// (shuffles move values within a warp, along x), and its thread y == 0
// adds the column's result where the condition holds.
// CHECK-LABEL: gpu.func @col_sums_kernel
// CHECK-SAME: workgroup(%[[P:.*]] : memref<256xf64, #gpu.address_space<workgroup>>)
// CHECK-NOT: gpu.shuffle
// CHECK: scf.if
// CHECK: }
// CHECK-NEXT: %[[MINE:.*]] = memref.load %{{.*}}[] : memref<f64>
// CHECK: %[[Y:.*]] = gpu.thread_id y
// CHECK: %[[X:.*]] = gpu.thread_id x
// CHECK: %[[YX:.*]] = arith.muli %[[Y]], %c32
// CHECK: %[[T:.*]] = arith.addi %[[YX]], %[[X]] : index
// CHECK: memref.store %[[MINE]], %[[P]][%[[T]]]
// CHECK-NEXT: gpu.barrier
// CHECK: %[[LOW:.*]] = arith.cmpi slt, %[[Y]], %c4{{.*}} : index
// CHECK: scf.if %[[LOW]] {
// CHECK: %[[A:.*]] = memref.load %[[P]][%[[T]]]
// CHECK: %[[OTHER:.*]] = arith.addi %[[T]], %c128{{.*}} : index
// CHECK: %[[B:.*]] = memref.load %[[P]][%[[OTHER]]]
// CHECK: %[[AB:.*]] = arith.addf %[[A]], %[[B]] : f64
// CHECK: memref.store %[[AB]], %[[P]][%[[T]]]
// CHECK: gpu.barrier
// CHECK: arith.cmpi slt, %[[Y]], %c2
// CHECK: arith.addi %[[T]], %c64
// CHECK: gpu.barrier
// CHECK: arith.cmpi slt, %[[Y]], %c1
// CHECK: arith.addi %[[T]], %c32
// CHECK: memref.store
// CHECK-NEXT: }
// CHECK-NEXT: %[[R:.*]] = memref.load %[[P]][%[[T]]]
// CHECK: %[[FIRST:.*]] = arith.cmpi eq, %[[Y]], %c0
// CHECK: %[[BOTH:.*]] = arith.andi %{{.*}}, %[[FIRST]] : i1
// CHECK: scf.if %[[BOTH]] {
// CHECK-NEXT: memref.atomic_rmw addf %[[R]], %arg{{[0-9]+}}[%{{.*}}] {weft.gpu.reduce = "add"}
// CHECK-NOT: memref.atomic_rmw
// CHECK: gpu.return
func.func @col_sums(%y: memref<?xf64>, %a: memref<?x?xf64>, %m: index, %n: index) {
  affine.for %j = 0 to %n {
    affine.for %i = 0 to %m {
      %acc = affine.load %y[%j] : memref<?xf64>
      %v = affine.load %a[%i, %j] : memref<?x?xf64>
      %t = arith.addf %acc, %v : f64
      affine.store %t, %y[%j] {weft.gpu.reduce = "add"} : memref<?xf64>
    }
  } {weft.gpu.band = 2 : i64, weft.gpu.coalesced = 0 : i64}
  return
}

// -----

// An update in a condition the same for a whole row (here the block is one
// row of 256 threads, eight warps): the row combines first, its warps'
// results through the shared array, and the condition keeps deciding
// whether its first thread adds the result.
// CHECK-LABEL: gpu.func @uniform
// CHECK-SAME: workgroup(%[[P:.*]] : memref<8xf64, #gpu.address_space<workgroup>>)
// CHECK: gpu.shuffle down %{{.*}}, %c16_i32
// CHECK: gpu.barrier
// CHECK: gpu.shuffle down %{{.*}}, %c4_i32
// CHECK: %[[FIRST:.*]] = arith.cmpi eq, %{{.*}}, %c0
// CHECK: %[[BOTH:.*]] = arith.andi %arg1, %[[FIRST]] : i1
// CHECK: scf.if %[[BOTH]] {
// CHECK: memref.atomic_rmw addf
module attributes {gpu.container_module} {
  func.func @host(%p: memref<256xf64>, %flag: i1) {
    %c1 = arith.constant 1 : index
    %c256 = arith.constant 256 : index
    gpu.launch_func @m::@uniform blocks in (%c1, %c1, %c1) threads in (%c256, %c1, %c1) args(%p : memref<256xf64>, %flag : i1)
    return
  }
  gpu.module @m {
    gpu.func @uniform(%p: memref<256xf64>, %flag: i1) kernel {
      %v = arith.constant 1.0 : f64
      %c0 = arith.constant 0 : index
      scf.if %flag {
        %1 = memref.atomic_rmw addf %v, %p[%c0] {weft.gpu.reduce = "add"} : (f64, memref<256xf64>) -> f64
      }
      gpu.return
    }
  }
}
