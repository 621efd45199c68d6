// RUN: weft-opt %s --gpu-map-loops -split-input-file -verify-diagnostics | FileCheck %s

// A nest of two loops becomes a grid of 32 x 8 blocks: j (coalesced) on x.
// Thread (b, t) runs iteration lb + (b * T + t) * step when it is below the
// trip count; the body leaves affine form, and the scalar only the nest uses
// moves into it (each thread has its own).
// CHECK-LABEL: func.func @two
// CHECK-DAG: %[[C8:.*]] = arith.constant 8 : index
// CHECK: scf.parallel (%[[BI:.*]], %[[BJ:.*]]) =
// CHECK: scf.parallel (%[[TI:.*]], %[[TJ:.*]]) = (%{{.*}}, %{{.*}}) to (%[[C8]], %c32{{.*}})
// CHECK: %[[K:.*]] = arith.muli %[[BI]], %[[C8]]
// CHECK: arith.addi %[[K]], %[[TI]]
// CHECK: arith.cmpi slt
// CHECK: scf.if
// CHECK-NEXT: memref.alloca() : memref<f64>
// CHECK: memref.load
// CHECK-NOT: affine.
// CHECK: mapping = [#gpu.loop_dim_map<processor = thread_y, map = (d0) -> (d0), bound = (d0) -> (d0)>, #gpu.loop_dim_map<processor = thread_x, map = (d0) -> (d0), bound = (d0) -> (d0)>]
// CHECK: mapping = [#gpu.loop_dim_map<processor = block_y, map = (d0) -> (d0), bound = (d0) -> (d0)>, #gpu.loop_dim_map<processor = block_x, map = (d0) -> (d0), bound = (d0) -> (d0)>]
func.func @two(%a: memref<?x64xf64>, %n: index) {
  %s = memref.alloca() : memref<f64>
  affine.for %i = 0 to %n {
    affine.for %j = 0 to 64 step 2 {
      %v = affine.load %a[%i, %j] : memref<?x64xf64>
      affine.store %v, %s[] : memref<f64>
      %w = affine.load %s[] : memref<f64>
      affine.store %w, %a[%i, %j + 1] : memref<?x64xf64>
    }
  } {weft.gpu.band = 2 : i64, weft.gpu.coalesced = 1 : i64}
  return
}

// -----

// One loop: blocks of 256 threads; a sequential loop inside runs in each
// thread.
// CHECK-LABEL: func.func @one
// CHECK: %[[C256:.*]] = arith.constant 256 : index
// CHECK: scf.parallel
// CHECK: scf.parallel (%{{.*}}) = (%{{.*}}) to (%[[C256]])
// CHECK: scf.if
// CHECK: scf.for
// CHECK: processor = thread_x
// CHECK: processor = block_x
func.func @one(%a: memref<100x8xf64>) {
  affine.for %i = 0 to 100 {
    affine.for %k = 1 to 8 {
      %p = affine.load %a[%i, %k - 1] : memref<100x8xf64>
      affine.store %p, %a[%i, %k] : memref<100x8xf64>
    }
  } {weft.gpu.band = 1 : i64, weft.gpu.coalesced = 0 : i64}
  return
}

// -----

func.func @inconsistent(%a: memref<8xf64>) {
  // expected-error @below {{is marked as a nest of 2 loops but holds fewer}}
  affine.for %i = 0 to 8 {
    %v = affine.load %a[%i] : memref<8xf64>
    affine.store %v, %a[%i] : memref<8xf64>
  } {weft.gpu.band = 2 : i64, weft.gpu.coalesced = 0 : i64}
  return
}

// -----

// A triangle: j runs from i to 63. Its grid dimension spans the extremes of
// that range over the nest's i (the min of its lower bounds at the first
// and the last i, the max of its upper bounds: 64 at both, folded), and the
// guard keeps each thread inside the range at its own i.
// CHECK-LABEL: func.func @triangle
// CHECK: arith.minsi
// CHECK-NOT: arith.maxsi
// CHECK: scf.parallel
// CHECK: scf.parallel
// CHECK: arith.addi
// CHECK: %[[I:.*]] = arith.addi %{{.*}}, %{{.*}} : index
// CHECK: arith.cmpi slt
// CHECK: arith.addi
// CHECK: %[[J:.*]] = arith.addi %{{.*}}, %{{.*}} : index
// CHECK: arith.cmpi slt
// CHECK-DAG: arith.cmpi sge, %[[J]], %[[I]] : index
// CHECK-DAG: arith.cmpi slt, %[[J]], %{{.*}} : index
// CHECK: scf.if
// CHECK: memref.load %{{.*}}[%[[I]], %[[J]]]
func.func @triangle(%a: memref<?x64xf64>, %n: index) {
  affine.for %i = 0 to %n {
    affine.for %j = affine_map<(d0) -> (d0)>(%i) to 64 {
      %v = affine.load %a[%i, %j] : memref<?x64xf64>
      affine.store %v, %a[%j, %i] : memref<?x64xf64>
    }
  } {weft.gpu.band = 2 : i64, weft.gpu.coalesced = 1 : i64}
  return
}

// -----

// A nest whose threads combine reductions (weft.gpu.reduce, gpu-select-nests):
// every access of the element in the nest goes to the thread's own
// accumulator, which starts at the identity (0 for the sum, -inf for the
// maximum); after its iterations every thread updates the element
// atomically with it (gpu-reduce-blocks combines a block's first). The
// sum and the maximum into elements of one array keep their own
// accumulators.
// CHECK-LABEL: func.func @reduce
// CHECK: scf.parallel
// CHECK: scf.parallel
// CHECK-DAG: %[[SUM:.*]] = memref.alloca() : memref<f64>
// CHECK-DAG: %[[MAX:.*]] = memref.alloca() : memref<f64>
// CHECK-DAG: %[[ZERO:.*]] = arith.constant 0.000000e+00 : f64
// CHECK-DAG: %[[NEGINF:.*]] = arith.constant 0xFFF0000000000000 : f64
// CHECK-DAG: memref.store %[[ZERO]], %[[SUM]][]
// CHECK-DAG: memref.store %[[NEGINF]], %[[MAX]][]
// CHECK: scf.if
// CHECK-NOT: %arg0
// CHECK: memref.store %{{.*}}, %[[SUM]][]
// CHECK: memref.store %{{.*}}, %[[MAX]][]
// CHECK: }
// CHECK: %[[S:.*]] = memref.load %[[SUM]][]
// CHECK: memref.atomic_rmw addf %[[S]], %arg0[%{{.*}}] {weft.gpu.reduce = "add"}
// CHECK: %[[M:.*]] = memref.load %[[MAX]][]
// CHECK: memref.atomic_rmw maxnumf %[[M]], %arg0[%{{.*}}] {weft.gpu.reduce = "max"}
// CHECK-NOT: weft.gpu.reduce
func.func @reduce(%r: memref<2xf64>, %a: memref<64xf64>) {
  affine.for %i = 0 to 64 {
    %s = affine.load %r[0] : memref<2xf64>
    %x = affine.load %a[%i] : memref<64xf64>
    %t = arith.addf %s, %x : f64
    affine.store %t, %r[0] {weft.gpu.reduce = "add"} : memref<2xf64>
    %m = affine.load %r[1] : memref<2xf64>
    %u = arith.maxnumf %m, %x : f64
    affine.store %u, %r[1] {weft.gpu.reduce = "max"} : memref<2xf64>
  } {weft.gpu.band = 1 : i64, weft.gpu.coalesced = 0 : i64}
  return
}

// -----

// A row reduction (gpu-select-nests' rowReductions): the element, y[i],
// follows the grid's y dimension. Every thread of a row combines its
// partial result into it, where the row exists: the atomic update is
// guarded by i's range alone (threads past n along x add the identity).
// CHECK-LABEL: func.func @row_sums
// CHECK: scf.parallel (%[[BI:.*]], %[[BJ:.*]]) =
// CHECK: scf.parallel (%[[TI:.*]], %[[TJ:.*]]) =
// CHECK: %[[RI:.*]] = arith.addi %{{.*}}, %[[TI]] : index
// CHECK: %[[I:.*]] = arith.addi %c0{{.*}}, %{{.*}} : index
// CHECK: %[[ROW:.*]] = arith.cmpi slt, %[[RI]], %{{.*}} : index
// CHECK: %[[COL:.*]] = arith.cmpi slt, %{{.*}}, %{{.*}} : index
// CHECK: %[[BOTH:.*]] = arith.andi %[[ROW]], %[[COL]] : i1
// CHECK: %[[OWN:.*]] = memref.alloca() : memref<f64>
// CHECK: scf.if %[[BOTH]] {
// CHECK: }
// CHECK: %[[P:.*]] = memref.load %[[OWN]][]
// CHECK: scf.if %[[ROW]] {
// CHECK-NEXT: memref.atomic_rmw addf %[[P]], %arg0[%[[I]]] {weft.gpu.reduce = "add"}
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

// A sum whose nest may launch at most 1728 blocks (weft.gpu.grid_blocks,
// gpu-select-nests): the grid is min(ceil(n / 256), 1728) blocks, and each
// thread runs every (blocks * 256)-th iteration from its own in a loop
// (grid-stride), its accumulator summing them all before its one atomic
// update. The loop's bound replaces the thread's guard.
// CHECK-LABEL: func.func @strided_sum
// CHECK: %[[UP:.*]] = arith.addi %arg2, %c255
// CHECK: %[[WANT:.*]] = arith.divsi %[[UP]], %c256
// CHECK: %[[BLOCKS:.*]] = arith.minsi %[[WANT]], %c1728
// CHECK: scf.parallel (%[[B:.*]]) = (%{{.*}}) to (%[[BLOCKS]])
// CHECK: scf.parallel (%[[T:.*]]) = (%{{.*}}) to (%c256
// CHECK: %[[OWN:.*]] = memref.alloca() : memref<f64>
// CHECK: %[[STRIDE:.*]] = arith.muli %[[BLOCKS]], %c256
// CHECK: %[[BT:.*]] = arith.muli %[[B]], %c256
// CHECK: %[[FIRST:.*]] = arith.addi %[[BT]], %[[T]]
// CHECK: scf.for %{{.*}} = %[[FIRST]] to %arg2 step %[[STRIDE]] {
// CHECK-NOT: scf.if
// CHECK: memref.store %{{.*}}, %[[OWN]][]
// CHECK-NEXT: }
// CHECK-NEXT: %[[P:.*]] = memref.load %[[OWN]][]
// CHECK-NEXT: memref.atomic_rmw addf %[[P]], %arg0[] {weft.gpu.reduce = "add"}
func.func @strided_sum(%s: memref<f64>, %a: memref<?xf64>, %n: index) {
  affine.for %i = 0 to %n {
    %acc = affine.load %s[] : memref<f64>
    %x = affine.load %a[%i] : memref<?xf64>
    %t = arith.addf %acc, %x : f64
    affine.store %t, %s[] {weft.gpu.reduce = "add"} : memref<f64>
  } {weft.gpu.band = 1 : i64, weft.gpu.coalesced = 0 : i64, weft.gpu.grid_blocks = 1728 : i64}
  return
}

// -----

// A grid-stride loop whose loop starts at 1 runs over the iterator itself:
// from 1 + the thread's first position to the source's bound, n - 1,
// computed where the loop runs (`i < n - 1` in the kernel), by the grid's
// width.
// CHECK-LABEL: func.func @strided_from_one
// CHECK: %[[BLOCKS:.*]] = arith.minsi %{{.*}}, %c1728
// CHECK: scf.parallel (%[[B:.*]]) = (%{{.*}}) to (%[[BLOCKS]])
// CHECK: scf.parallel (%[[T:.*]]) = (%{{.*}}) to (%c256
// CHECK: %[[STRIDE:.*]] = arith.muli %[[BLOCKS]], %c256
// CHECK: %[[BT:.*]] = arith.muli %[[B]], %c256
// CHECK: %[[FIRST:.*]] = arith.addi %[[BT]], %[[T]]
// CHECK: %[[START:.*]] = arith.addi %c1{{.*}}, %[[FIRST]]
// CHECK: %[[END:.*]] = arith.addi %arg2, %c-1
// CHECK: scf.for %[[I:.*]] = %[[START]] to %[[END]] step %[[STRIDE]] {
// CHECK: memref.load %arg1[%[[I]]]
func.func @strided_from_one(%s: memref<f64>, %a: memref<?xf64>, %n: index) {
  affine.for %i = 1 to affine_map<()[s0] -> (s0 - 1)>()[%n] {
    %acc = affine.load %s[] : memref<f64>
    %x = affine.load %a[%i] : memref<?xf64>
    %t = arith.addf %acc, %x : f64
    affine.store %t, %s[] {weft.gpu.reduce = "add"} : memref<f64>
  } {weft.gpu.band = 1 : i64, weft.gpu.coalesced = 0 : i64, weft.gpu.grid_blocks = 1728 : i64}
  return
}

// -----

// A row reduction with the same limit: the blocks along x (j) are what the
// rows' blocks leave of 1728, at least one; the guard of i's range is
// tested once around the loop over j, and again around the atomic update.
// CHECK-LABEL: func.func @strided_rows
// CHECK: %[[ROWS:.*]] = arith.divsi %{{.*}}, %c8
// CHECK: %[[WANT:.*]] = arith.divsi %{{.*}}, %c32
// CHECK: %[[OTHERS:.*]] = arith.maxsi %[[ROWS]], %c1
// CHECK: %[[SHARE:.*]] = arith.divsi %c1728, %[[OTHERS]]
// CHECK: %[[CAP:.*]] = arith.maxsi %[[SHARE]], %c1
// CHECK: %[[BLOCKS:.*]] = arith.minsi %[[WANT]], %[[CAP]]
// CHECK: scf.parallel (%{{.*}}, %{{.*}}) = (%{{.*}}, %{{.*}}) to (%[[ROWS]], %[[BLOCKS]])
// CHECK: %[[ROW:.*]] = arith.cmpi slt
// CHECK: scf.if %[[ROW]] {
// CHECK: scf.for
// CHECK-NOT: scf.if
// CHECK: memref.load %arg1
// CHECK: }
// CHECK-NEXT: }
// CHECK: scf.if %[[ROW]] {
// CHECK-NEXT: memref.atomic_rmw addf
func.func @strided_rows(%y: memref<?xf64>, %a: memref<?x?xf64>, %m: index, %n: index) {
  affine.for %i = 0 to %m {
    affine.for %j = 0 to %n {
      %acc = affine.load %y[%i] : memref<?xf64>
      %v = affine.load %a[%i, %j] : memref<?x?xf64>
      %t = arith.addf %acc, %v : f64
      affine.store %t, %y[%i] {weft.gpu.reduce = "add"} : memref<?xf64>
    }
  } {weft.gpu.band = 2 : i64, weft.gpu.coalesced = 1 : i64, weft.gpu.grid_blocks = 1728 : i64}
  return
}

// -----

// A column reduction (`y[j] += A[i][j]`, `j` along x): the element uses x's
// iterator, so the grid-stride loop runs along y, over the rows: the blocks
// along y are what the columns' blocks leave of 1728; the guard of j's range
// is tested around the loop and around the atomic update.
// CHECK-LABEL: func.func @strided_columns
// CHECK: %[[COLUMNS:.*]] = arith.divsi %{{.*}}, %c32
// CHECK: %[[WANT:.*]] = arith.divsi %{{.*}}, %c8
// CHECK: %[[OTHERS:.*]] = arith.maxsi %[[COLUMNS]], %c1
// CHECK: %[[SHARE:.*]] = arith.divsi %c1728, %[[OTHERS]]
// CHECK: %[[CAP:.*]] = arith.maxsi %[[SHARE]], %c1
// CHECK: %[[BLOCKS:.*]] = arith.minsi %[[WANT]], %[[CAP]]
// CHECK: scf.parallel (%{{.*}}, %[[BY:.*]]) = (%{{.*}}, %{{.*}}) to (%[[COLUMNS]], %[[BLOCKS]])
// CHECK: scf.parallel (%{{.*}}, %[[TY:.*]]) = (%{{.*}}, %{{.*}}) to (%c32{{.*}}, %c8{{.*}})
// CHECK: %[[COLUMN:.*]] = arith.cmpi slt
// CHECK: scf.if %[[COLUMN]] {
// CHECK: %[[STRIDE:.*]] = arith.muli %[[BLOCKS]], %c8
// CHECK: %[[BT:.*]] = arith.muli %[[BY]], %c8
// CHECK: %[[FIRST:.*]] = arith.addi %[[BT]], %[[TY]]
// CHECK: scf.for %{{.*}} = %[[FIRST]] to %arg2 step %[[STRIDE]] {
// CHECK-NOT: scf.if
// CHECK: memref.load %arg1[%{{.*}}, %{{.*}}]
// CHECK: }
// CHECK-NEXT: }
// CHECK: scf.if %[[COLUMN]] {
// CHECK-NEXT: memref.atomic_rmw addf
func.func @strided_columns(%y: memref<?xf64>, %a: memref<?x?xf64>, %m: index, %n: index) {
  affine.for %j = 0 to %n {
    affine.for %i = 0 to %m {
      %acc = affine.load %y[%j] : memref<?xf64>
      %v = affine.load %a[%i, %j] : memref<?x?xf64>
      %t = arith.addf %acc, %v : f64
      affine.store %t, %y[%j] {weft.gpu.reduce = "add"} : memref<?xf64>
    }
  } {weft.gpu.band = 2 : i64, weft.gpu.coalesced = 0 : i64, weft.gpu.grid_blocks = 1728 : i64}
  return
}
