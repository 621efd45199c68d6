// RUN: weft-opt %s --convert-loops-to-emitc --split-input-file --verify-diagnostics | FileCheck %s

// The dist ops that dist-materialize emits become calls of the MPI runtime
// header (runtime/mpi/weft_rt_mpi.h); sizes travel in bytes.
// A distributed region stays a call (WEFT_RT_REGION).
// CHECK-LABEL: emitc.func @exchange
// CHECK-SAME: specifiers = ["static", "WEFT_RT_REGION"]
// CHECK: %[[ME:.*]] = emitc.call_opaque "weft_rt_self"() : () -> i64
// CHECK: %[[NP:.*]] = emitc.call_opaque "weft_rt_nranks"() : () -> i64
// CHECK: %[[LO:.*]] = emitc.call_opaque "weft_rt_block_lo"(%{{.*}}, %{{.*}}, %[[ME]], %[[NP]])
// CHECK: %[[HI:.*]] = emitc.call_opaque "weft_rt_block_hi"(%{{.*}}, %{{.*}}, %[[ME]], %[[NP]])
// CHECK: %[[SLOT:.*]] = "emitc.constant"() <{value = 5 : i64}>
// CHECK: %[[SIZE:.*]] = "emitc.constant"() <{value = 4 : i64}>
// CHECK: %[[BUF:.*]] = emitc.call_opaque "weft_rt_buffer"(%[[SLOT]], %[[ME]], %[[HI]], %[[SIZE]]) : (i64, i64, i64, i64) -> !emitc.ptr<f32>
// CHECK: emitc.call_opaque "weft_rt_isend"(%[[BUF]], %[[HI]], %{{.*}}, %[[ME]], %{{.*}})
// CHECK: emitc.call_opaque "weft_rt_irecv"(%[[BUF]], %[[HI]], %{{.*}}, %[[ME]], %{{.*}})
// CHECK: emitc.call_opaque "weft_rt_wait_all"() : () -> ()
// CHECK: emitc.call_opaque "weft_rt_bcast"(%[[BUF]], %[[LO]], %{{.*}}, %[[ME]])
// CHECK: emitc.call_opaque "weft_rt_replicas_stale"() : () -> i1
// CHECK: emitc.call_opaque "weft_rt_set_replicas_stale"() : () -> ()
func.func @exchange(%lb: index, %ub: index) {
  %me = dist.rank
  %np = dist.num_ranks
  %lo, %hi, %st = dist.local_bounds %lb to %ub at %me of %np by #dist.dim<block on 0>
  %b = dist.message_buffer 5, %me, %hi : memref<?xf32>
  dist.isend %b[%hi] to %me tag 1 : memref<?xf32>
  dist.irecv %b[%hi] from %me tag 1 : memref<?xf32>
  dist.wait_all
  dist.broadcast %b[0] [%lo] root %me : memref<?xf32>
  %s = dist.replicas_stale
  dist.set_replicas_stale
  return
}

// -----

func.func @cyclic(%lb: index, %ub: index, %p: index, %np: index) {
  // expected-error @+1 {{only block distributions can be lowered to C}}
  %lo, %hi, %st = dist.local_bounds %lb to %ub at %p of %np by #dist.dim<cyclic on 0>
  return
}

// -----

// A 2-D grid chosen at run time: its extents come from the runtime, given
// no preference (0, 0); a rank's coordinates are plain index arithmetic.
// CHECK-LABEL: emitc.func @grid
// CHECK: %[[Z0:.*]] = "emitc.constant"() <{value = 0 : i64}>
// CHECK: %[[Z1:.*]] = "emitc.constant"() <{value = 0 : i64}>
// CHECK: %[[ROWS:.*]] = emitc.call_opaque "weft_rt_grid_rows"(%[[Z0]], %[[Z1]]) : (i64, i64) -> i64
// CHECK: %[[COLS:.*]] = emitc.call_opaque "weft_rt_grid_cols"(%{{.*}}, %{{.*}}) : (i64, i64) -> i64
// CHECK: emitc.call_opaque "weft_rt_block_lo"(%{{.*}}, %{{.*}}, %{{.*}}, %[[ROWS]])
// CHECK: emitc.call_opaque "weft_rt_block_hi"(%{{.*}}, %{{.*}}, %{{.*}}, %[[COLS]])
func.func @grid(%lb: index, %ub: index, %out: memref<2xindex>) {
  %me = dist.rank
  %rows, %cols = dist.grid_shape #dist.grid<[?, ?]>
  %r = arith.divui %me, %cols : index
  %c = arith.remui %me, %cols : index
  %lo, %hi, %st = dist.local_bounds %lb to %ub at %r of %rows by #dist.dim<block on 0>
  %lo1, %hi1, %st1 = dist.local_bounds %lb to %ub at %c of %cols by #dist.dim<block on 1>
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  memref.store %lo, %out[%c0] : memref<2xindex>
  memref.store %hi1, %out[%c1] : memref<2xindex>
  return
}

// -----

// Preferred extents (#pragma weft grid(*, 3)) go to the runtime, which
// takes them when the ranks fit.
// CHECK-LABEL: emitc.func @preferred_grid
// CHECK-DAG: %[[Z:.*]] = "emitc.constant"() <{value = 0 : i64}>
// CHECK-DAG: %[[THREE:.*]] = "emitc.constant"() <{value = 3 : i64}>
// CHECK: emitc.call_opaque "weft_rt_grid_cols"(%[[Z]], %[[THREE]])
func.func @preferred_grid(%out: memref<1xindex>) {
  %rows, %cols = dist.grid_shape #dist.grid<[?, ?]> prefer [0, 3]
  %c0 = arith.constant 0 : index
  memref.store %cols, %out[%c0] : memref<1xindex>
  return
}

// -----

// A static extent is a constant; only 2-D grids are chosen at run time.
// CHECK-LABEL: emitc.func @static_grid
// CHECK-NOT: weft_rt_grid
// CHECK: emitc.return
func.func @static_grid(%out: memref<1xindex>) {
  %rows, %cols = dist.grid_shape #dist.grid<[4, 2]>
  %c0 = arith.constant 0 : index
  memref.store %cols, %out[%c0] : memref<1xindex>
  return
}

// -----

func.func @grid_3d(%out: memref<1xindex>) {
  // expected-error @+1 {{only fully static grids and 2-D grids chosen at run time can be lowered to C}}
  %x, %y, %z = dist.grid_shape #dist.grid<[?, ?, ?]>
  %c0 = arith.constant 0 : index
  memref.store %x, %out[%c0] : memref<1xindex>
  return
}

// -----

// min/max of a value with itself is the value (no self-comparison in C).
// CHECK-LABEL: emitc.func @self_min
// CHECK-NOT: emitc.cmp
// CHECK: emitc.return
func.func @self_min(%a: index, %out: memref<1xindex>) {
  %m = arith.minsi %a, %a : index
  %c0 = arith.constant 0 : index
  memref.store %m, %out[%c0] : memref<1xindex>
  return
}

// -----

// An all-reduce of a message buffer, in place: element type and operator
// as runtime codes (f64 -> 0, i32 -> 3; add -> 0, max -> 3).
// CHECK-LABEL: emitc.func @combine
// CHECK: %[[B:.*]] = emitc.call_opaque "weft_rt_buffer"
// CHECK-NEXT: %[[T:.*]] = "emitc.constant"() <{value = 0 : i64}>
// CHECK-NEXT: %[[K:.*]] = "emitc.constant"() <{value = 0 : i64}>
// CHECK-NEXT: emitc.call_opaque "weft_rt_allreduce"(%[[B]], %arg0, %[[T]], %[[K]])
// CHECK: %[[C:.*]] = emitc.call_opaque "weft_rt_buffer"
// CHECK-NEXT: %[[T2:.*]] = "emitc.constant"() <{value = 3 : i64}>
// CHECK-NEXT: %[[K2:.*]] = "emitc.constant"() <{value = 3 : i64}>
// CHECK-NEXT: emitc.call_opaque "weft_rt_allreduce"(%[[C]], %arg0, %[[T2]], %[[K2]])
func.func @combine(%n: index) {
  %me = dist.rank
  %b = dist.message_buffer 0, %me, %n : memref<?xf64>
  dist.allreduce add %b : memref<?xf64>
  %c = dist.message_buffer 2, %me, %n : memref<?xi32>
  dist.allreduce max %c : memref<?xi32>
  return
}

// -----

func.func @not_a_buffer(%v: memref<?xf64>) {
  // expected-error @+1 {{only all-reduces of a message buffer can be lowered to C}}
  dist.allreduce add %v : memref<?xf64>
  return
}

// -----

// Rank-local storage: elements times element size from weft_rt_alloc,
// freed with weft_rt_free.
// CHECK-LABEL: emitc.func @local_storage
// CHECK-SAME: (%[[N:.*]]: i64)
// CHECK: %[[ONE:.*]] = "emitc.constant"() <{value = 1 : i64}>
// CHECK: %[[C8:.*]] = "emitc.constant"() <{value = 8 : i64}>
// CHECK: %[[ROW:.*]] = emitc.mul %[[ONE]], %[[C8]]
// CHECK: %[[ALL:.*]] = emitc.mul %[[ROW]], %[[N]]
// CHECK: %[[SIZE:.*]] = "emitc.constant"() <{value = 4 : i64}>
// CHECK: %[[P:.*]] = emitc.call_opaque "weft_rt_alloc"(%[[ALL]], %[[SIZE]]) : (i64, i64) -> !emitc.ptr<f32>
// CHECK: emitc.call_opaque "weft_rt_free"(%[[P]])
func.func @local_storage(%n: index) {
  %l = memref.alloc(%n) : memref<8x?xf32>
  memref.dealloc %l : memref<8x?xf32>
  return
}

// -----

// The overlap test of dist-alias-check: each range with its element size,
// and calls of the region's other functions, defined before it. Arguments
// that may overlap stay plain pointers, and the dispatcher is a plain
// static function (the C compiler may inline it and the region as written).
// CHECK-LABEL: emitc.func @dispatch
// CHECK-SAME: (%[[A:.*]]: !emitc.ptr<f64>, %[[B:.*]]: !emitc.ptr<i32>, %[[LO:.*]]: i64, %[[HI:.*]]: i64)
// CHECK-SAME: attributes {specifiers = ["static"]}
// CHECK: %[[S8:.*]] = "emitc.constant"() <{value = 8 : i64}>
// CHECK: %[[S4:.*]] = "emitc.constant"() <{value = 4 : i64}>
// CHECK: %[[O:.*]] = emitc.call_opaque "weft_rt_ranges_overlap"(%[[A]], %[[LO]], %[[HI]], %[[S8]], %[[B]], %[[LO]], %[[HI]], %[[S4]]) : (!emitc.ptr<f64>, i64, i64, i64, !emitc.ptr<i32>, i64, i64, i64) -> i1
// CHECK: emitc.if %[[O]] {
// CHECK:   emitc.call_opaque "dispatch_sequential"(%[[A]], %[[B]], %[[LO]], %[[HI]]) : (!emitc.ptr<f64>, !emitc.ptr<i32>, i64, i64) -> ()
func.func @dispatch_sequential(%a: memref<?xf64> {weft.may_alias}, %b: memref<?xi32> {weft.may_alias}, %lo: index, %hi: index)
    attributes {dist.sequential} {
  return
}
func.func @dispatch(%a: memref<?xf64> {weft.may_alias}, %b: memref<?xi32> {weft.may_alias}, %lo: index, %hi: index)
    attributes {dist.alias_check} {
  %o = dist.ranges_overlap %a[%lo, %hi], %b[%lo, %hi] : memref<?xf64>, memref<?xi32>
  scf.if %o {
    func.call @dispatch_sequential(%a, %b, %lo, %hi) : (memref<?xf64>, memref<?xi32>, index, index) -> ()
  }
  return
}
