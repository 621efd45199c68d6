// RUN: weft-opt %s --convert-dist-to-emitc --convert-loops-to-emitc --split-input-file | FileCheck %s

// convert-dist-to-emitc's calls of the MPI runtime header stay as they are
// in the rebuilt function, on its C values (the casts between them are
// resolved); each op alone is tested in test/Conversion/DistToEmitC.
// A distributed region stays a call (WEFT_RT_REGION).
// CHECK-LABEL: emitc.func @exchange
// CHECK-SAME: specifiers = ["static", "WEFT_RT_REGION"]
// The set's table is a `static const` array at the function's entry.
// CHECK: %[[T:.*]] = "emitc.variable"() <{value = #emitc.opaque<"{1, 2, 1, {{.*}}}">}> : () -> !emitc.array<{{[0-9]+}}x!emitc.opaque<"static const int64_t">>
// CHECK: %[[ME:.*]] = emitc.call_opaque "weft_rt_self"() : () -> i64
// CHECK: %[[NP:.*]] = emitc.call_opaque "weft_rt_nranks"() : () -> i64
// CHECK: %[[LO:.*]] = emitc.call_opaque "weft_rt_block_lo"(%{{.*}}, %{{.*}}, %[[ME]], %[[NP]])
// CHECK: %[[HI:.*]] = emitc.call_opaque "weft_rt_block_hi"(%{{.*}}, %{{.*}}, %[[ME]], %[[NP]])
// CHECK: %[[V:.*]] = emitc.call_opaque "weft_rt_values"(%{{.*}}, %[[LO]], %[[HI]])
// CHECK: emitc.call_opaque "weft_rt_isend_elements"(%[[T]], %[[A:[^,]*]], %{{.*}}, %[[ME]], %{{.*}}, %[[V]])
// CHECK: emitc.call_opaque "weft_rt_irecv_elements"(%[[T]], %[[A]], %{{.*}}, %[[ME]], %{{.*}}, %{{.*}})
// CHECK: emitc.call_opaque "weft_rt_wait_all"() : () -> ()
// CHECK: emitc.call_opaque "weft_rt_bcast_elements"(%[[T]], %[[A]], %{{.*}}, %[[ME]], %{{.*}})
// CHECK: emitc.call_opaque "weft_rt_replicas_stale"() : () -> i1
// CHECK: emitc.call_opaque "weft_rt_set_replicas_stale"() : () -> ()
func.func @exchange(%a: memref<?xf32>, %lb: index, %ub: index) {
  %me = dist.rank
  %np = dist.num_ranks
  %lo, %hi, %st = dist.local_bounds %lb to %ub at %me of %np by #dist.dim<block on 0>
  dist.isend %a elements "[lo, hi] -> { A[i] : lo <= i < hi }" (%lo, %hi) to %me tag 1 : memref<?xf32>
  dist.irecv %a elements "[lo, hi] -> { A[i] : lo <= i < hi }" (%lo, %hi) from %me tag 1 : memref<?xf32>
  dist.wait_all
  dist.broadcast %a elements "[lo, hi] -> { A[i] : lo <= i < hi }" (%lo, %hi) root %me : memref<?xf32>
  %s = dist.replicas_stale
  dist.set_replicas_stale
  return
}

// -----

// A 2-D grid chosen at run time: its extents come from the runtime, given
// no preference (0, 0); a rank's coordinates are plain index arithmetic.
// CHECK-LABEL: emitc.func @grid
// CHECK-SAME: specifiers = ["static", "WEFT_RT_REGION"]
// CHECK: %[[Z0:.*]] = "emitc.constant"() <{value = 0 : i64}>
// CHECK: %[[Z1:.*]] = "emitc.constant"() <{value = 0 : i64}>
// CHECK: %[[ROWS:.*]] = emitc.call_opaque "weft_rt_grid_rows"(%[[Z0]], %[[Z1]]) : (i64, i64) -> i64
// CHECK: %[[COLS:.*]] = emitc.call_opaque "weft_rt_grid_cols"(%{{.*}}, %{{.*}}) : (i64, i64) -> i64
// CHECK: emitc.call_opaque "weft_rt_block_lo"(%{{.*}}, %{{.*}}, %{{.*}}, %[[ROWS]])
// CHECK: emitc.call_opaque "weft_rt_block_hi"(%{{.*}}, %{{.*}}, %{{.*}}, %[[COLS]])
func.func @grid(%lb: index, %ub: index, %out: memref<2xindex>) {
  %me = dist.rank
  %rows, %cols = dist.grid_shape #dist.grid<[?, ?]>
  %r = arith.divsi %me, %cols : index
  %c = arith.remsi %me, %cols : index
  %lo, %hi, %st = dist.local_bounds %lb to %ub at %r of %rows by #dist.dim<block on 0>
  %lo1, %hi1, %st1 = dist.local_bounds %lb to %ub at %c of %cols by #dist.dim<block on 1>
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  memref.store %lo, %out[%c0] : memref<2xindex>
  memref.store %hi1, %out[%c1] : memref<2xindex>
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
// static function (the C compiler may inline it); the region as written
// stays a function of its own (WEFT_RT_AS_WRITTEN: noinline).
// CHECK-LABEL: emitc.func @dispatch_sequential
// CHECK-SAME: specifiers = ["static", "WEFT_RT_AS_WRITTEN"]
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

// A region as written that takes a scalar of its caller by address stays
// inlinable: only inlined into the scalar's owner does the C compiler keep
// the scalar in a register.
// CHECK-LABEL: emitc.func @scalar_ref_sequential
// CHECK-SAME: attributes {specifiers = ["static"]}
func.func @scalar_ref_sequential(%s: memref<f64>, %a: memref<?xf64> {weft.may_alias}, %n: index)
    attributes {dist.sequential} {
  return
}
