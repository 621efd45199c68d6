// RUN: weft-opt %s -split-input-file -verify-diagnostics

// expected-error @+1 {{argument 0: 'weft.c_arg' must be a string (the C expression of the call)}}
func.func @c_arg_not_a_string(%n: index {weft.c_arg = 3 : i64}) {
  return
}

// -----

// expected-error @+1 {{argument 0: 'weft.may_alias' must be a unit attribute on a memref argument}}
func.func @may_alias_on_a_scalar(%n: index {weft.may_alias}) {
  return
}

// -----

// expected-error @+1 {{argument 0: 'weft.noalias' must be a unit attribute on a memref argument}}
func.func @noalias_with_a_value(%a: memref<4xf64> {weft.noalias = true}) {
  return
}

// -----

// expected-error @+1 {{argument 0: 'weft.region_only' must be a unit attribute on a memref argument}}
func.func @region_only_on_a_scalar(%x: f64 {weft.region_only}) {
  return
}

// -----

// expected-error @+1 {{argument 0: 'weft.local' must be a unit attribute on a memref argument}}
func.func @local_with_a_value(%a: memref<4xf64> {weft.local = 1 : i64}) {
  return
}

// -----

// expected-error @+1 {{argument 0: 'weft.dim_args' must be an array<i64> with one entry per dimension of a memref argument}}
func.func @dim_args_wrong_rank(%a: memref<?x?xf64> {weft.dim_args = array<i64: -1>}, %n: index) {
  return
}

// -----

// expected-error @+1 {{argument 0: 'weft.dim_args' must be an array<i64> with one entry per dimension of a memref argument}}
func.func @dim_args_on_a_scalar(%x: index {weft.dim_args = array<i64: -1>}) {
  return
}

// -----

// expected-error @+1 {{argument 0: 'weft.dim_args' entry 1 is neither -1 nor an index argument}}
func.func @dim_args_not_an_index(%a: memref<?x?xf64> {weft.dim_args = array<i64: -1, 1>}, %x: f64) {
  return
}

// -----

// expected-error @+1 {{argument 0: 'weft.dim_args' entry 5 is neither -1 nor an index argument}}
func.func @dim_args_out_of_range(%a: memref<?x?xf64> {weft.dim_args = array<i64: -1, 5>}, %n: index) {
  return
}

// -----

// In C (an emitc.func), one entry per dimension of the pointer to rows, and
// the extents are `i64`.
// expected-error @+1 {{argument 1: 'weft.dim_args' must be an array<i64> with one entry per dimension of a memref argument}}
emitc.func @dim_args_c_wrong_rank(%n: i64, %a: !emitc.opaque<"double (*)[*][4]"> {weft.dim_args = array<i64: -1, 0>}) {
  emitc.return
}

// -----

// expected-error @+1 {{argument 1: 'weft.dim_args' entry 0 is neither -1 nor an index argument}}
emitc.func @dim_args_c_not_an_integer(%x: f64, %a: !emitc.opaque<"double (*)[*]"> {weft.dim_args = array<i64: -1, 0>}) {
  emitc.return
}

// -----

// expected-error @+1 {{argument 0: 'weft.sizes' is not a weft argument attribute}}
func.func @unknown_argument_attribute(%a: memref<4xf64> {weft.sizes}) {
  return
}

// -----

func.func @parallel_not_on_a_loop(%a: index, %b: index) -> index {
  // expected-error @+1 {{'weft.parallel' must be a unit attribute on a loop}}
  %c = arith.addi %a, %b {weft.parallel} : index
  return %c : index
}

// -----

// expected-error @+1 {{'weft.nodist' must be a unit attribute on a function}}
func.func @nodist_with_a_value() attributes {weft.nodist = 1 : i64} {
  return
}

// -----

func.func @nodist_on_a_loop() {
  // expected-error @+1 {{'weft.nodist' must be a unit attribute on a function}}
  affine.for %i = 0 to 4 {
  } {weft.nodist}
  return
}

// -----

// expected-error @+1 {{'weft.c_arg' annotates a function argument, not an op}}
func.func @c_arg_on_an_op() attributes {weft.c_arg = "x"} {
  return
}

// -----

// expected-error @+1 {{has unknown weft attribute 'weft.ranks'}}
func.func @unknown_op_attribute() attributes {weft.ranks = 4 : i64} {
  return
}

// -----

func.func @gpu_place_elsewhere(%n: index) {
  // expected-error @+1 {{'weft.gpu.place' must be "device" or "host" on a loop}}
  affine.for %i = 0 to %n {
  } {weft.gpu.place = "gpu"}
  return
}

// -----

// expected-error @+1 {{'weft.gpu.place' must be "device" or "host" on a loop}}
func.func @gpu_place_on_a_function() attributes {weft.gpu.place = "host"} {
  return
}

// -----

func.func @gpu_resident_on_a_loop(%n: index) {
  // expected-error @+1 {{'weft.gpu.resident' must be a unit attribute on gpu.alloc, gpu.memcpy or gpu.dealloc}}
  affine.for %i = 0 to %n {
  } {weft.gpu.resident}
  return
}

// -----

func.func @gpu_resident_not_unit() {
  // expected-error @+1 {{'weft.gpu.resident' must be a unit attribute on gpu.alloc, gpu.memcpy or gpu.dealloc}}
  %d = gpu.alloc () {weft.gpu.resident = 1 : i64} : memref<8xf64>
  return
}

// -----

// expected-error @+1 {{'weft.gpu.band' must be a non-negative integer on a loop}}
func.func @gpu_band_on_a_function() attributes {weft.gpu.band = 1 : i64} {
  return
}

// -----

func.func @gpu_coalesced_not_an_integer(%n: index) {
  // expected-error @+1 {{'weft.gpu.coalesced' must be a non-negative integer on a loop}}
  affine.for %i = 0 to %n {
  } {weft.gpu.coalesced = "x"}
  return
}

// -----

// expected-error @+1 {{'weft.c_specifiers' must be an array of strings on a function or a memref.alloca}}
func.func @c_specifiers_not_strings() attributes {weft.c_specifiers = [1 : i64]} {
  return
}

// -----

func.func @gpu_block_zero(%n: index) {
  // expected-error @+1 {{'weft.gpu.block' must be 1 to 3 positive thread counts on a loop}}
  affine.for %i = 0 to %n {
  } {weft.gpu.block = array<i64: 16, 0>}
  return
}

// -----

func.func @gpu_coarsen_one_dimension(%n: index) {
  // expected-error @+1 {{'weft.gpu.coarsen' must be 2 positive element counts on a loop}}
  affine.for %i = 0 to %n {
  } {weft.gpu.coarsen = array<i64: 4>}
  return
}

// -----

func.func @gpu_coarsen_zero(%n: index) {
  // expected-error @+1 {{'weft.gpu.coarsen' must be 2 positive element counts on a loop}}
  affine.for %i = 0 to %n {
  } {weft.gpu.coarsen = array<i64: 2, 0>}
  return
}

// -----

func.func @gpu_coarsen_not_a_loop() {
  // expected-error @+1 {{'weft.gpu.coarsen' must be 2 positive element counts on a loop}}
  %c = arith.constant {weft.gpu.coarsen = array<i64: 2, 2>} 0 : index
  return
}

// -----

func.func @gpu_tile_negative(%n: index) {
  // expected-error @+1 {{'weft.gpu.tile' must be a non-negative integer on a loop}}
  affine.for %i = 0 to %n {
  } {weft.gpu.tile = -16 : i64}
  return
}

// -----

func.func @c_specifiers_on_a_load(%a: memref<4xf64>, %i: index) {
  // expected-error @+1 {{'weft.c_specifiers' must be an array of strings on a function or a memref.alloca}}
  %v = memref.load %a[%i] {weft.c_specifiers = ["__shared__"]} : memref<4xf64>
  return
}

// -----

// expected-error @+1 {{'weft.c_int' must be a unit attribute on scf.for or emitc.for}}
func.func @c_int_on_a_function() attributes {weft.c_int} {
  return
}

// -----

func.func @c_int_with_a_value(%n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  // expected-error @+1 {{'weft.c_int' must be a unit attribute on scf.for or emitc.for}}
  scf.for %i = %c0 to %n step %c1 {
  } {weft.c_int = 32 : i64}
  return
}

// -----

// expected-error @+1 {{'weft.unroll' must be a unit attribute on scf.for or emitc.for}}
func.func @unroll_on_a_function() attributes {weft.unroll} {
  return
}

// -----

func.func @unroll_with_a_count(%n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  // expected-error @+1 {{'weft.unroll' must be a unit attribute on scf.for or emitc.for}}
  scf.for %i = %c0 to %n step %c1 {
  } {weft.unroll = 4 : i64}
  return
}

// -----

func.func @gpu_reduce_unknown_kind(%s: memref<f64>, %v: f64) {
  // expected-error @+1 {{'weft.gpu.reduce' must be "add", "mul", "max" or "min" on affine.store or memref.atomic_rmw}}
  affine.store %v, %s[] {weft.gpu.reduce = "sum"} : memref<f64>
  return
}

// -----

func.func @gpu_reduce_on_a_load(%s: memref<f64>) {
  // expected-error @+1 {{'weft.gpu.reduce' must be "add", "mul", "max" or "min" on affine.store or memref.atomic_rmw}}
  %v = affine.load %s[] {weft.gpu.reduce = "add"} : memref<f64>
  return
}

// -----

// expected-error @+1 {{argument 0: 'weft.c_type' must be a string (the C element type) on a memref argument}}
func.func @c_type_on_a_value(%n: i64 {weft.c_type = "long long"}) {
  return
}

// -----

// expected-error @+1 {{argument 0: 'weft.c_type' must be a string (the C element type) on a memref argument}}
func.func @c_type_not_a_string(%a: memref<?xi64> {weft.c_type = 8 : i64}) {
  return
}

// -----

func.func @c_type_on_an_op(%a: memref<?xi64>) {
  // expected-error @+1 {{'weft.c_type' annotates a function argument, not an op}}
  %c = arith.constant {weft.c_type = "long long"} 0 : index
  return
}

// -----

func.func @gpu_grid_blocks_negative(%n: index) {
  // expected-error @+1 {{'weft.gpu.grid_blocks' must be a non-negative integer on a loop}}
  affine.for %i = 0 to %n {
  } {weft.gpu.grid_blocks = -2 : i64}
  return
}
