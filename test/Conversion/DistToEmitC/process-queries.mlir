// RUN: weft-opt %s --convert-dist-to-emitc --split-input-file | FileCheck %s

// dist.rank and dist.num_ranks are the runtime's copies of MPI_Comm_rank
// and MPI_Comm_size; their users keep an `index` through a cast that
// convert-loops-to-emitc resolves.
// CHECK-LABEL: func.func @rank_and_size
// CHECK: %[[ME:.*]] = emitc.call_opaque "weft_rt_self"() : () -> i64
// CHECK: %[[MEI:.*]] = builtin.unrealized_conversion_cast %[[ME]] : i64 to index
// CHECK: %[[NP:.*]] = emitc.call_opaque "weft_rt_nranks"() : () -> i64
// CHECK: %[[NPI:.*]] = builtin.unrealized_conversion_cast %[[NP]] : i64 to index
// CHECK: arith.addi %[[MEI]], %[[NPI]]
// CHECK-NOT: dist.
func.func @rank_and_size(%out: memref<1xindex>) {
  %me = dist.rank
  %np = dist.num_ranks
  %s = arith.addi %me, %np : index
  %c0 = arith.constant 0 : index
  memref.store %s, %out[%c0] : memref<1xindex>
  return
}

// -----

// A 2-D grid chosen at run time: its extents come from the runtime, given
// no preference (0, 0).
// CHECK-LABEL: func.func @grid
// CHECK: %[[Z0:.*]] = "emitc.constant"() <{value = 0 : i64}>
// CHECK: %[[Z1:.*]] = "emitc.constant"() <{value = 0 : i64}>
// CHECK: emitc.call_opaque "weft_rt_grid_rows"(%[[Z0]], %[[Z1]]) : (i64, i64) -> i64
// CHECK: emitc.call_opaque "weft_rt_grid_cols"(%{{.*}}, %{{.*}}) : (i64, i64) -> i64
func.func @grid(%out: memref<2xindex>) {
  %rows, %cols = dist.grid_shape #dist.grid<[?, ?]>
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  memref.store %rows, %out[%c0] : memref<2xindex>
  memref.store %cols, %out[%c1] : memref<2xindex>
  return
}

// -----

// Preferred extents (#pragma weft grid(*, 3)) go to the runtime, which
// takes them when the ranks fit; an extent nobody uses is not asked for.
// CHECK-LABEL: func.func @preferred_grid
// CHECK-NOT: weft_rt_grid_rows
// CHECK: %[[Z:.*]] = "emitc.constant"() <{value = 0 : i64}>
// CHECK: %[[THREE:.*]] = "emitc.constant"() <{value = 3 : i64}>
// CHECK: emitc.call_opaque "weft_rt_grid_cols"(%[[Z]], %[[THREE]])
// CHECK-NOT: weft_rt_grid_rows
func.func @preferred_grid(%out: memref<1xindex>) {
  %rows, %cols = dist.grid_shape #dist.grid<[?, ?]> prefer [0, 3]
  %c0 = arith.constant 0 : index
  memref.store %cols, %out[%c0] : memref<1xindex>
  return
}

// -----

// A static grid folds to its extents (the conversion driver folds before
// it rewrites).
// CHECK-LABEL: func.func @static_grid
// CHECK-NOT: weft_rt_grid
// CHECK: %[[C2:.*]] = arith.constant 2 : index
// CHECK-NOT: weft_rt_grid
// CHECK: memref.store %[[C2]]
func.func @static_grid(%out: memref<1xindex>) {
  %rows, %cols = dist.grid_shape #dist.grid<[4, 2]>
  %c0 = arith.constant 0 : index
  memref.store %cols, %out[%c0] : memref<1xindex>
  return
}
