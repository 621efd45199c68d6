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

func.func @grid_coord_rank_range() {
  %c8 = arith.constant 8 : index
  // expected-error @+1 {{'dist.grid_coord' op process rank 8 is out of range for a grid of 8 processes}}
  %0:2 = dist.grid_coord #dist.grid<[4, 2]> of %c8
  return
}

// -----

func.func @grid_coord_negative() {
  %m1 = arith.constant -1 : index
  // expected-error @+1 {{'dist.grid_coord' op process rank must be non-negative, got -1}}
  %0 = dist.grid_coord #dist.grid<[?]> of %m1
  return
}

// -----

func.func @grid_rank_count(%i: index) {
  // expected-error @+1 {{'dist.grid_rank' op expects 2 coordinates for the grid, got 1}}
  %0 = dist.grid_rank #dist.grid<[?, ?]> [%i]
  return
}

// -----

func.func @grid_rank_coord(%i: index) {
  %c2 = arith.constant 2 : index
  // expected-error @+1 {{'dist.grid_rank' op coordinate 2 along axis 1 is outside the grid extent 2}}
  %0 = dist.grid_rank #dist.grid<[?, 2]> [%i, %c2]
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

func.func @local_size_coord(%lb: index, %ub: index) {
  %c4 = arith.constant 4 : index
  // expected-error @+1 {{'dist.local_size' op coordinate 4 is outside [0, 4)}}
  %0 = dist.local_size %lb to %ub at %c4 of %c4 by #dist.dim<cyclic on 0>
  return
}

// -----

func.func @locate_replicated(%i: index, %lb: index, %ub: index, %np: index) {
  // expected-error @+1 {{'dist.locate' op has no single owner on a replicated dimension}}
  %0:2 = dist.locate %i in %lb to %ub of %np by #dist.dim<replicated>
  return
}

// -----

func.func @locate_outside(%np: index) {
  %c0 = arith.constant 0 : index
  %c10 = arith.constant 10 : index
  // expected-error @+1 {{'dist.locate' op index 10 is outside [0, 10)}}
  %0:2 = dist.locate %c10 in %c0 to %c10 of %np by #dist.dim<block on 0>
  return
}

// -----

//===----------------------------------------------------------------------===//
// dist.halo_exchange
//===----------------------------------------------------------------------===//

func.func @halo_layout_rank(%a: memref<?xf64>) {
  // expected-error @+1 {{'dist.halo_exchange' op memref of rank 1 does not match layout of rank 2}}
  dist.halo_exchange %a on #dist.layout<[block on 0, replicated], grid = [?]> low [1, 0] high [1, 0] : memref<?xf64>
  return
}

// -----

func.func @halo_memory_space(%a: memref<?xf64, #dist.layout<[cyclic on 0], grid = [?]>>) {
  // expected-error @+1 {{'dist.halo_exchange' op memref memory space #dist.layout<[cyclic on 0], grid = [?]> differs from layout #dist.layout<[block on 0], grid = [?]>}}
  dist.halo_exchange %a on #dist.layout<[block on 0], grid = [?]> low [1] high [1] : memref<?xf64, #dist.layout<[cyclic on 0], grid = [?]>>
  return
}

// -----

func.func @halo_count(%a: memref<?x8xf64>) {
  // expected-error @+1 {{'dist.halo_exchange' op expects 2 high halo widths, got 1}}
  dist.halo_exchange %a on #dist.layout<[block on 0, replicated], grid = [?]> low [1, 0] high [1] : memref<?x8xf64>
  return
}

// -----

func.func @halo_negative(%a: memref<?x8xf64>) {
  // expected-error @+1 {{'dist.halo_exchange' op low halo width along dimension 0 must be non-negative, got -1}}
  dist.halo_exchange %a on #dist.layout<[block on 0, replicated], grid = [?]> low [-1, 0] high [1, 0] : memref<?x8xf64>
  return
}

// -----

func.func @halo_not_block(%a: memref<?x8xf64>) {
  // expected-error @+1 {{'dist.halo_exchange' op dimension 1 is replicated, only block-distributed dimensions have halos}}
  dist.halo_exchange %a on #dist.layout<[block on 0, replicated], grid = [?]> low [1, 1] high [1, 0] : memref<?x8xf64>
  return
}

// -----

func.func @halo_too_small(%a: memref<3x8xf64>) {
  // expected-error @+1 {{'dist.halo_exchange' op extent 3 along dimension 0 is smaller than its halo widths (4)}}
  dist.halo_exchange %a on #dist.layout<[block on 0, replicated], grid = [?]> low [2, 0] high [2, 0] : memref<3x8xf64>
  return
}

// -----

//===----------------------------------------------------------------------===//
// dist.redistribute
//===----------------------------------------------------------------------===//

func.func @redistribute_element(%a: memref<?x8xf64>, %b: memref<8x?xf32>) {
  // expected-error @+1 {{'dist.redistribute' op element types differ: 'f64' and 'f32'}}
  dist.redistribute %a on #dist.layout<[block on 0, replicated], grid = [?]> to %b on #dist.layout<[replicated, block on 0], grid = [?]> global [8, 8] : memref<?x8xf64>, memref<8x?xf32>
  return
}

// -----

func.func @redistribute_global_count(%a: memref<?x8xf64>, %b: memref<8x?xf64>) {
  // expected-error @+1 {{'dist.redistribute' op expects 2 global extents, got 1}}
  dist.redistribute %a on #dist.layout<[block on 0, replicated], grid = [?]> to %b on #dist.layout<[replicated, block on 0], grid = [?]> global [8] : memref<?x8xf64>, memref<8x?xf64>
  return
}

// -----

func.func @redistribute_global_negative(%a: memref<?x8xf64>, %b: memref<8x?xf64>) {
  // expected-error @+1 {{'dist.redistribute' op global extent along dimension 0 must be non-negative, got -8}}
  dist.redistribute %a on #dist.layout<[block on 0, replicated], grid = [?]> to %b on #dist.layout<[replicated, block on 0], grid = [?]> global [-8, 8] : memref<?x8xf64>, memref<8x?xf64>
  return
}

// -----

func.func @redistribute_local_extent(%a: memref<300x1300xf64>, %b: memref<1300x?xf64>) {
  // expected-error @+1 {{'dist.redistribute' op source extent 300 along dimension 0 cannot hold the 325 indices every process owns (1300 over 4)}}
  dist.redistribute %a on #dist.layout<[block on 0, replicated], grid = [4]> to %b on #dist.layout<[replicated, block on 0], grid = [4]> global [1300, 1300] : memref<300x1300xf64>, memref<1300x?xf64>
  return
}

// -----

func.func @redistribute_uneven(%a: memref<?x1301xf64>, %b: memref<1301x326xf64>) {
  // expected-error @+1 {{'dist.redistribute' op dest extent 326 along dimension 1 cannot hold the 325 to 326 indices a process owns (1301 over 4); use a dynamic extent}}
  dist.redistribute %a on #dist.layout<[block on 0, replicated], grid = [4]> to %b on #dist.layout<[replicated, block on 0], grid = [4]> global [1301, 1301] : memref<?x1301xf64>, memref<1301x326xf64>
  return
}

// -----

//===----------------------------------------------------------------------===//
// dist.gather / dist.scatter
//===----------------------------------------------------------------------===//

func.func @gather_rank(%a: memref<?x8xf64>, %g: memref<64xf64>) {
  // expected-error @+1 {{'dist.gather' op global memref of rank 1 does not match local memref of rank 2}}
  dist.gather %a on #dist.layout<[block on 0, replicated], grid = [?]> into %g : memref<?x8xf64>, memref<64xf64>
  return
}

// -----

func.func @gather_element(%a: memref<?x8xf64>, %g: memref<8x8xi64>) {
  // expected-error @+1 {{'dist.gather' op element types differ: 'f64' and 'i64'}}
  dist.gather %a on #dist.layout<[block on 0, replicated], grid = [?]> into %g : memref<?x8xf64>, memref<8x8xi64>
  return
}

// -----

func.func @gather_root(%a: memref<?x8xf64>, %g: memref<8x8xf64>) {
  %c4 = arith.constant 4 : index
  // expected-error @+1 {{'dist.gather' op root rank 4 is out of range for a grid of 4 processes}}
  dist.gather %a on #dist.layout<[block on 0, replicated], grid = [4]> into %g root %c4 : memref<?x8xf64>, memref<8x8xf64>
  return
}

// -----

func.func @gather_replicated_extent(%a: memref<?x7xf64>, %g: memref<8x8xf64>) {
  // expected-error @+1 {{'dist.gather' op local extent 7 along dimension 1 cannot hold the 8 indices every process owns (8 over 1)}}
  dist.gather %a on #dist.layout<[block on 0, replicated], grid = [?]> into %g : memref<?x7xf64>, memref<8x8xf64>
  return
}

// -----

func.func @scatter_root(%a: memref<?x8xf64>, %g: memref<8x8xf64>) {
  %m1 = arith.constant -1 : index
  // expected-error @+1 {{'dist.scatter' op root rank must be non-negative, got -1}}
  dist.scatter %a on #dist.layout<[block on 0, replicated], grid = [?]> from %g root %m1 : memref<?x8xf64>, memref<8x8xf64>
  return
}

// -----

//===----------------------------------------------------------------------===//
// dist.broadcast / dist.reduce / dist.allreduce
//===----------------------------------------------------------------------===//

func.func @broadcast_element(%a: memref<4xf16>, %r: index) {
  // expected-error @+1 {{'dist.broadcast' op operand #0 must be MPI-transferable scalar or strided memref}}
  dist.broadcast %a root %r : memref<4xf16>
  return
}

// -----

func.func @broadcast_root(%x: f64) {
  %m2 = arith.constant -2 : index
  // expected-error @+1 {{'dist.broadcast' op root rank must be non-negative, got -2}}
  %0 = dist.broadcast %x root %m2 : f64
  return
}

// -----

func.func @broadcast_scalar_slice(%x: f64, %r: index) {
  // expected-error @+1 {{'dist.broadcast' op can only slice a memref operand}}
  %0 = dist.broadcast %x[0] [1] root %r : f64
  return
}

// -----

func.func @broadcast_slice_rank(%a: memref<8x8xf64>, %r: index) {
  // expected-error @+1 {{'dist.broadcast' op slice of a rank-2 memref needs 2 offsets and sizes, got 1 and 1}}
  dist.broadcast %a[0] [8] root %r : memref<8x8xf64>
  return
}

// -----

func.func @broadcast_slice_offset(%a: memref<8x8xf64>, %r: index) {
  // expected-error @+1 {{'dist.broadcast' op slice offset along dimension 1 must be non-negative, got -1}}
  dist.broadcast %a[0, -1] [8, 1] root %r : memref<8x8xf64>
  return
}

// -----

func.func @broadcast_slice_size(%a: memref<8x8xf64>, %r: index) {
  // expected-error @+1 {{'dist.broadcast' op slice size along dimension 0 must be non-negative, got -3}}
  dist.broadcast %a[0, 0] [-3, 1] root %r : memref<8x8xf64>
  return
}

// -----

func.func @broadcast_slice_bounds(%a: memref<8x8xf64>, %r: index) {
  // expected-error @+1 {{'dist.broadcast' op slice [6, 10) exceeds dimension 0 of extent 8}}
  dist.broadcast %a[6, 0] [4, 8] root %r : memref<8x8xf64>
  return
}

// -----

func.func @broadcast_memref_result(%a: memref<8xf64>, %r: index) {
  // expected-error @+1 {{'dist.broadcast' op updates a memref in place and has no result}}
  %0 = "dist.broadcast"(%a, %r) <{operandSegmentSizes = array<i32: 1, 1, 0, 0>}> : (memref<8xf64>, index) -> f64
  return
}

// -----

func.func @reduce_root(%x: i32) {
  %m1 = arith.constant -1 : index
  // expected-error @+1 {{'dist.reduce' op root rank must be non-negative, got -1}}
  %0 = dist.reduce add %x root %m1 : i32
  return
}

// -----

func.func @reduce_no_result(%x: i32, %r: index) {
  // expected-error @+1 {{'dist.reduce' op on a scalar must yield one result of type 'i32'}}
  "dist.reduce"(%x, %r) <{kind = 0 : i32}> : (i32, index) -> ()
  return
}

// -----

func.func @allreduce_result_type(%x: i32) {
  // expected-error @+1 {{'dist.allreduce' op on a scalar must yield one result of type 'i32'}}
  %0 = "dist.allreduce"(%x) <{kind = 3 : i32}> : (i32) -> i64
  return
}

// -----

func.func @allreduce_kind(%x: i32) {
  // expected-error @+1 {{expected string or keyword containing one of the following enum values for attribute 'kind' [add, mul, min, max]}}
  %0 = dist.allreduce xor %x : i32
  return
}

// -----

//===----------------------------------------------------------------------===//
// dist.send / dist.recv
//===----------------------------------------------------------------------===//

func.func @send_peer(%a: memref<8xf64>) {
  %m1 = arith.constant -1 : index
  // expected-error @+1 {{'dist.send' op peer rank must be non-negative, got -1}}
  dist.send %a to %m1 : memref<8xf64>
  return
}

// -----

func.func @send_tag(%a: memref<8xf64>, %p: index) {
  // expected-error @+1 {{'dist.send' op tag must be in [0, 32767], got 40000}}
  dist.send %a to %p tag 40000 : memref<8xf64>
  return
}

// -----

// A negative tag reads as a huge unsigned value through the I64Attr accessor;
// the verifier must still reject it.
func.func @recv_negative_tag(%a: memref<8xf64>, %p: index) {
  // expected-error @+1 {{'dist.recv' op tag must be in [0, 32767], got -5}}
  dist.recv %a from %p tag -5 : memref<8xf64>
  return
}

// -----

func.func @recv_slice(%a: memref<8xf64>, %p: index) {
  // expected-error @+1 {{'dist.recv' op slice [4, 12) exceeds dimension 0 of extent 8}}
  dist.recv %a[4] [8] from %p : memref<8xf64>
  return
}

// -----

func.func @slice_half(%a: memref<8xf64>, %r: index) {
  // expected-error @+1 {{'dist.broadcast' op needs both slice offsets and slice sizes}}
  "dist.broadcast"(%a, %r) <{operandSegmentSizes = array<i32: 1, 1, 0, 0>, static_offsets = array<i64: 0>}> : (memref<8xf64>, index) -> ()
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

func.func @isend_tag_too_large(%b: memref<?xf64>, %n: index, %p: index) {
  // expected-error @+1 {{attribute 'tag' failed to satisfy constraint}}
  dist.isend %b[%n] to %p tag 32768 : memref<?xf64>
  return
}

// -----

func.func @message_buffer_not_1d(%p: index, %n: index) {
  // expected-error @+1 {{result #0 must be 1D memref}}
  %b = dist.message_buffer 0, %p, %n : memref<?x?xf64>
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
