// RUN: weft-opt %s -split-input-file -verify-diagnostics

// One case per verifier error of the dist attributes and operations.

//===----------------------------------------------------------------------===//
// #dist.grid
//===----------------------------------------------------------------------===//

// expected-error @+1 {{a process grid needs at least one axis}}
func.func @grid_empty() attributes {g = #dist.grid<[]>} { return }

// -----

// expected-error @+1 {{grid extent along axis 1 must be positive or '?', got 0}}
func.func @grid_zero() attributes {g = #dist.grid<[4, 0]>} { return }

// -----

// expected-error @+1 {{grid extent along axis 0 must be positive or '?', got -2}}
func.func @grid_negative() attributes {g = #dist.grid<[-2]>} { return }

// -----

//===----------------------------------------------------------------------===//
// #dist.dim
//===----------------------------------------------------------------------===//

// expected-error @+1 {{expected 'block', 'cyclic', 'block_cyclic' or 'replicated', got 'blocked'}}
func.func @dim_kind() attributes {d = #dist.dim<blocked on 0>} { return }

// -----

// expected-error @+1 {{'block_cyclic' needs a block size, e.g. 'block_cyclic(32) on 0'}}
func.func @dim_no_block_size() attributes {d = #dist.dim<block_cyclic on 0>} { return }

// -----

// expected-error @+1 {{only 'block_cyclic' takes a block size, not 'cyclic'}}
func.func @dim_spurious_block_size() attributes {d = #dist.dim<cyclic(4) on 0>} { return }

// -----

// expected-error @+1 {{block size must be positive, got 0}}
func.func @dim_zero_block_size() attributes {d = #dist.dim<block_cyclic(0) on 0>} { return }

// -----

// expected-error @+1 {{a replicated dimension is not distributed over a grid axis}}
func.func @dim_replicated_axis() attributes {d = #dist.dim<replicated on 0>} { return }

// -----

// expected-error @+1 {{'block' needs the grid axis it is distributed over ('on <axis>')}}
func.func @dim_no_axis() attributes {d = #dist.dim<block>} { return }

// -----

// expected-error @+1 {{grid axis must be non-negative, got -1}}
func.func @dim_negative_axis() attributes {d = #dist.dim<cyclic on -1>} { return }

// -----

//===----------------------------------------------------------------------===//
// #dist.layout
//===----------------------------------------------------------------------===//

// expected-error @+1 {{dimension 1 is distributed over grid axis 1, but the grid has 1 axes}}
func.func @layout_axis_range() attributes {l = #dist.layout<[replicated, block on 1], grid = [4]>} { return }

// -----

// expected-error @+1 {{dimensions 0 and 1 are both distributed over grid axis 0}}
func.func @layout_shared_axis() attributes {l = #dist.layout<[block on 0, cyclic on 0], grid = [?, ?]>} { return }

// -----

// expected-error @+1 {{block size must be positive, got -8}}
func.func @layout_bad_entry() attributes {l = #dist.layout<[block_cyclic(-8) on 0], grid = [?]>} { return }

// -----

// expected-error @+1 {{grid extent along axis 0 must be positive or '?', got 0}}
func.func @layout_bad_grid() attributes {l = #dist.layout<[block on 0], grid = [0]>} { return }

// -----

//===----------------------------------------------------------------------===//
// dist.layout as a discardable attribute
//===----------------------------------------------------------------------===//

func.func @unknown_attr() {
  // expected-error @+1 {{'arith.constant' op has unknown dist attribute 'dist.partition'}}
  %c0 = arith.constant {dist.partition = 1} 0 : index
  return
}

// -----

func.func @not_a_layout(%n: index) {
  // expected-error @+1 {{'memref.alloc' op 'dist.layout' must be a #dist.layout, got #dist.grid<[4]>}}
  %a = memref.alloc(%n) {dist.layout = #dist.grid<[4]>} : memref<?xf64>
  return
}

// -----

func.func @band_too_shallow() {
  // expected-error @+1 {{'affine.for' op has a 'dist.layout' of rank 2 but roots a perfectly nested band of only 1 loop(s)}}
  affine.for %i = 0 to 10 {
    affine.for %j = 0 to 10 {
    }
    affine.for %j = 0 to 10 {
    }
  } {dist.layout = #dist.layout<[block on 0, block on 1], grid = [?, ?]>}
  return
}

// -----

func.func @alloc_rank(%n: index) {
  // expected-error @+1 {{'memref.alloc' op memref of rank 1 does not match layout of rank 2}}
  %a = memref.alloc(%n) {dist.layout = #dist.layout<[block on 0, replicated], grid = [?]>} : memref<?xf64>
  return
}

// -----

func.func @not_an_array() {
  // expected-error @+1 {{'arith.constant' op cannot carry 'dist.layout': expected a loop, a memref.global or an op with one memref result}}
  %c0 = arith.constant {dist.layout = #dist.layout<[block on 0], grid = [?]>} 0 : index
  return
}

// -----

// expected-error @+1 {{'memref.global' op memref of rank 2 does not match layout of rank 1}}
memref.global "private" @G : memref<8x8xf64> = uninitialized {dist.layout = #dist.layout<[block on 0], grid = [?]>}

// -----

// expected-error @+1 {{'func.func' op argument 0: 'dist.layout' annotates a memref, not 'index'}}
func.func @arg_not_memref(%n: index {dist.layout = #dist.layout<[block on 0], grid = [?]>}) {
  return
}

// -----

// expected-error @+1 {{'func.func' op argument 0: memref of rank 2 does not match layout of rank 1}}
func.func @arg_rank(%a: memref<?x?xf64> {dist.layout = #dist.layout<[block on 0], grid = [?]>}) {
  return
}

// -----

// expected-error @+1 {{'func.func' op result 0: memref of rank 1 does not match layout of rank 2}}
func.func private @result_rank() -> (memref<?xf64> {dist.layout = #dist.layout<[block on 0, block on 1], grid = [?, ?]>})

// -----

//===----------------------------------------------------------------------===//
// Process queries
//===----------------------------------------------------------------------===//

func.func @grid_shape_results() {
  // expected-error @+2 {{'dist.grid_shape' op inferred type(s) 'index', 'index' are incompatible with return type(s) of operation 'index'}}
  // expected-error @+1 {{'dist.grid_shape' op failed to infer returned types}}
  %0 = "dist.grid_shape"() <{grid = #dist.grid<[?, 2]>}> : () -> index
  return
}

// -----

func.func @grid_shape_prefer_count() {
  // expected-error @+1 {{'dist.grid_shape' op prefers 1 extents for a grid of rank 2}}
  %0:2 = dist.grid_shape #dist.grid<[?, ?]> prefer [4]
  return
}

// -----

func.func @grid_shape_prefer_static() {
  // expected-error @+1 {{'dist.grid_shape' op prefers extents for a grid with a static extent}}
  %0:2 = dist.grid_shape #dist.grid<[?, 2]> prefer [4, 2]
  return
}

// -----

func.func @grid_shape_prefer_negative() {
  // expected-error @+1 {{'dist.grid_shape' op prefers a negative extent}}
  %0:2 = dist.grid_shape #dist.grid<[?, ?]> prefer [-1, 2]
  return
}

// -----

//===----------------------------------------------------------------------===//
// Index arithmetic
//===----------------------------------------------------------------------===//

func.func @local_bounds_extent(%lb: index, %ub: index, %p: index) {
  %c0 = arith.constant 0 : index
  // expected-error @+1 {{'dist.local_bounds' op number of processes along the grid axis must be positive, got 0}}
  %0:3 = dist.local_bounds %lb to %ub at %p of %c0 by #dist.dim<block on 0>
  return
}

// -----

func.func @local_bounds_one_weight(%lb: index, %ub: index, %p: index, %np: index) {
  // expected-error @+1 {{'dist.local_bounds' op takes two weights (first and last index), and only for a block distribution}}
  %0:3 = dist.local_bounds %lb to %ub at %p of %np by #dist.dim<block on 0> weighted(%ub)
  return
}

// -----

func.func @local_bounds_weighted_cyclic(%lb: index, %ub: index, %p: index, %np: index) {
  // expected-error @+1 {{'dist.local_bounds' op takes two weights (first and last index), and only for a block distribution}}
  %0:3 = dist.local_bounds %lb to %ub at %p of %np by #dist.dim<cyclic on 0> weighted(%lb, %ub)
  return
}

// -----

//===----------------------------------------------------------------------===//
// Messages of exact element sets: isend, irecv, broadcast, allreduce
//===----------------------------------------------------------------------===//

func.func @message_element_type(%a: memref<4xf16>, %r: index) {
  // expected-error @+1 {{'dist.broadcast' op operand #0 must be memref of}}
  dist.broadcast %a elements "{ A[i] : 0 <= i < 4 }" () root %r : memref<4xf16>
  return
}

// -----

func.func @broadcast_root(%a: memref<4xf64>) {
  %m2 = arith.constant -2 : index
  // expected-error @+1 {{'dist.broadcast' op root rank must be non-negative, got -2}}
  dist.broadcast %a elements "{ A[i] : 0 <= i < 4 }" () root %m2 : memref<4xf64>
  return
}

// -----

func.func @elements_not_a_set(%a: memref<4xf64>) {
  // expected-error @+1 {{'dist.allreduce' op 'elements' must be an ISL set, got "A[i]"}}
  dist.allreduce add %a elements "A[i]" () : memref<4xf64>
  return
}

// -----

func.func @elements_params_without_arrow(%a: memref<4xf64>, %n: index) {
  // expected-error @+1 {{'dist.allreduce' op 'elements' must be an ISL set, got "[n] { A[i] : i < n }"}}
  dist.allreduce add %a elements "[n] { A[i] : i < n }" (%n) : memref<4xf64>
  return
}

// -----

func.func @elements_param_count(%a: memref<?xf64>, %lo: index, %p: index) {
  // expected-error @+1 {{'dist.isend' op the set has 2 parameters, but 1 values are given}}
  dist.isend %a elements "[lo, hi] -> { A[i] : lo <= i < hi }" (%lo) to %p tag 0 : memref<?xf64>
  return
}

// -----

func.func @origin_rank(%a: memref<?x?xf64>, %lo: index, %p: index) {
  // expected-error @+1 {{'dist.irecv' op needs one origin subscript per dimension (2), got 1}}
  dist.irecv %a elements "[lo] -> { A[lo, 0] }" (%lo) origin [%lo] from %p tag 0 : memref<?x?xf64>
  return
}

// -----

func.func @peer_negative(%a: memref<4xf64>) {
  %m1 = arith.constant -1 : index
  // expected-error @+1 {{'dist.isend' op peer rank must be non-negative, got -1}}
  dist.isend %a elements "{ A[0] }" () to %m1 tag 0 : memref<4xf64>
  return
}

// -----

func.func @too_many_subscripts(%a: memref<1x1x1x1x1x1x1x1x1xf64>) {
  // expected-error @+1 {{'dist.allreduce' op carries elements of a rank-9 array; the runtime takes 8 subscripts at most}}
  dist.allreduce add %a elements "{ A[0, 0, 0, 0, 0, 0, 0, 0, 0] }" () : memref<1x1x1x1x1x1x1x1x1xf64>
  return
}

// -----

func.func @allreduce_kind(%a: memref<4xi32>) {
  // expected-error @+1 {{expected string or keyword containing one of the following enum values for attribute 'kind' [add, mul, min, max]}}
  dist.allreduce xor %a elements "{ A[i] : 0 <= i < 4 }" () : memref<4xi32>
  return
}

// -----

func.func @isend_tag_too_large(%a: memref<4xf64>, %p: index) {
  // expected-error @+1 {{attribute 'tag' failed to satisfy constraint}}
  dist.isend %a elements "{ A[0] }" () to %p tag 32768 : memref<4xf64>
  return
}

// -----

// expected-error @+1 {{'func.func' op 'dist.grid' must be a #dist.grid, got 4 : i64}}
func.func @grid_attr_not_grid() attributes {dist.grid = 4} { return }

// -----

func.func @grid_attr_not_on_function() {
  // expected-error @+1 {{'arith.constant' op cannot carry 'dist.grid': expected a function}}
  %c = arith.constant {dist.grid = #dist.grid<[2]>} 0 : index
  return
}

// -----

func.func @distribute_without_unit(%a: memref<8xf64>) {
  // expected-error @+1 {{'dist.distribute' must be a #dist.dim, or a #dist.layout of two loops over a 2-D grid, on a loop that is a 'dist.unit'}}
  affine.for %i = 0 to 8 {
  } {dist.distribute = #dist.dim<block on 0>}
  return
}

// -----

func.func @distribute_over_1d_grid(%a: memref<8x8xf64>) {
  // expected-error @+1 {{'dist.distribute' must be a #dist.dim, or a #dist.layout of two loops over a 2-D grid, on a loop that is a 'dist.unit'}}
  affine.for %i = 0 to 8 {
    affine.for %j = 0 to 8 {
    }
  } {dist.unit, dist.distribute = #dist.layout<[block on 0, replicated], grid = [?]>}
  return
}

// -----

func.func @unknown_reduction(%a: memref<8xf64>, %v: f64) {
  // expected-error @+1 {{'dist.reduce' must be "add", "mul", "max" or "min", got "xor"}}
  affine.store %v, %a[0] {dist.reduce = "xor"} : memref<8xf64>
  return
}

// -----

// expected-error @+1 {{'dist.sequential' must be a unit attribute on a function}}
func.func @sequential_not_unit() attributes {dist.sequential = 1} { return }

// -----

// expected-error @+1 {{'dist.args_disjoint' must be a unit attribute on a function}}
func.func @args_disjoint_not_unit() attributes {dist.args_disjoint = "yes"} { return }

// -----

func.func @alias_check_on_loop() {
  // expected-error @+1 {{'dist.alias_check' must be a unit attribute on a function}}
  affine.for %i = 0 to 8 {
  } {dist.alias_check}
  return
}

// -----

func.func @overlap_not_index(%a: memref<?xf64>, %lo: i64) {
  // expected-error @+1 {{operand #1 must be index}}
  %o = "dist.ranges_overlap"(%a, %lo, %lo, %a, %lo, %lo) : (memref<?xf64>, i64, i64, memref<?xf64>, i64, i64) -> i1
  return
}

// -----

// expected-error @+1 {{'dist.unit' must be a unit attribute}}
func.func @unit_with_a_value() attributes {dist.unit = 1 : i64} {
  return
}

// -----

// expected-error @+1 {{'dist.interchange' must be a unit attribute on a loop}}
func.func @interchange_on_a_function() attributes {dist.interchange} {
  return
}

// -----

func.func @interchange_with_a_value() {
  // expected-error @+1 {{'dist.interchange' must be a unit attribute on a loop}}
  affine.for %i = 0 to 8 {
  } {dist.interchange = 1 : i64}
  return
}
