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

func.func @not_a_buffer(%v: memref<?xf64>) {
  // expected-error @+2 {{only all-reduces of a message buffer can be lowered to C}}
  // expected-error @+1 {{failed to legalize operation 'dist.allreduce'}}
  dist.allreduce add %v : memref<?xf64>
  return
}

// -----

func.func @scalar_broadcast(%x: f64, %root: index) -> f64 {
  // expected-error @+2 {{only broadcasts of a 1-D buffer's first elements can be lowered to C}}
  // expected-error @+1 {{failed to legalize operation 'dist.broadcast'}}
  %y = dist.broadcast %x root %root : f64
  return %y : f64
}
