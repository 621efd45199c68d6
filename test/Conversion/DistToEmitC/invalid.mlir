// RUN: weft-opt %s --convert-dist-to-emitc --split-input-file --verify-diagnostics

// Forms of the dist ops that the MPI runtime has no call for are errors at
// the op (dist-materialize never emits them).

func.func @cyclic(%lb: index, %ub: index, %p: index, %np: index, %out: memref<1xindex>) {
  // expected-error @+2 {{only block distributions can be lowered to C}}
  // expected-error @+1 {{failed to legalize operation 'dist.local_bounds'}}
  %lo, %hi, %st = dist.local_bounds %lb to %ub at %p of %np by #dist.dim<cyclic on 0>
  %c0 = arith.constant 0 : index
  memref.store %lo, %out[%c0] : memref<1xindex>
  return
}

// -----

func.func @grid_3d(%out: memref<1xindex>) {
  // expected-error @+2 {{only fully static grids and 2-D grids chosen at run time can be lowered to C}}
  // expected-error @+1 {{failed to legalize operation 'dist.grid_shape'}}
  %x, %y, %z = dist.grid_shape #dist.grid<[?, ?, ?]>
  %c0 = arith.constant 0 : index
  memref.store %x, %out[%c0] : memref<1xindex>
  return
}

// -----

// A message's set must be one the runtime can walk over the array.

func.func @set_syntax(%a: memref<8xf64>) {
  // expected-error @+2 {{encoding a message set failed}}
  // expected-error @+1 {{failed to legalize operation 'dist.allreduce'}}
  dist.allreduce add %a elements "{ A[i] : 0 <= i < }" () : memref<8xf64>
  return
}

// -----

func.func @set_subscripts(%a: memref<8xf64>) {
  // expected-error @+2 {{encoding a message set failed: the set's elements have 2 subscripts, the array 1}}
  // expected-error @+1 {{failed to legalize operation 'dist.allreduce'}}
  dist.allreduce add %a elements "{ A[i, j] : 0 <= i < 8 and 0 <= j < 8 }" () : memref<8xf64>
  return
}

// -----

func.func @set_unbounded(%a: memref<8xf64>, %root: index) {
  // expected-error @+2 {{encoding a message set failed: subscript 0 of a message set is unbounded}}
  // expected-error @+1 {{failed to legalize operation 'dist.broadcast'}}
  dist.broadcast %a elements "{ A[i] : 0 <= i }" () root %root : memref<8xf64>
  return
}

// -----

// The runtime needs the row-major extents of the array.
func.func @no_extent(%a: memref<?x?xf64>, %p: index) {
  // expected-error @+2 {{'dist.isend' op dynamic extent of dimension 1 is not available as a 'weft.dim_args' argument}}
  // expected-error @+1 {{failed to legalize operation 'dist.isend'}}
  dist.isend %a elements "{ A[i, j] : 0 <= i < 8 and 0 <= j < 8 }" () to %p tag 0 : memref<?x?xf64>
  return
}
