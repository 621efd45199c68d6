// RUN: weft-opt %s | weft-opt | FileCheck %s
// RUN: weft-opt %s --mlir-print-op-generic | weft-opt | FileCheck %s
// RUN: weft-opt %s --verify-roundtrip | FileCheck %s

// Round trip of every dist attribute and operation.

#rows = #dist.layout<[block on 0, replicated], grid = [?]>

//===----------------------------------------------------------------------===//
// Attributes
//===----------------------------------------------------------------------===//

// CHECK-LABEL: func.func @attributes()
// CHECK-SAME: d0 = #dist.dim<block on 0>
// CHECK-SAME: d1 = #dist.dim<cyclic on 1>
// CHECK-SAME: d2 = #dist.dim<block_cyclic(32) on 0>
// CHECK-SAME: d3 = #dist.dim<replicated>
// CHECK-SAME: g0 = #dist.grid<[4, 2]>
// CHECK-SAME: g1 = #dist.grid<[?]>
// CHECK-SAME: g2 = #dist.grid<[?, 3, ?]>
// CHECK-SAME: l0 = #dist.layout<[block on 0, replicated], grid = [?]>
// CHECK-SAME: l1 = #dist.layout<[block on 0, block on 1], grid = [4, 2]>
// CHECK-SAME: l2 = #dist.layout<[cyclic on 1, block_cyclic(8) on 0], grid = [2, ?]>
// CHECK-SAME: l3 = #dist.layout<[replicated], grid = [4, 2]>
// CHECK-SAME: l4 = #dist.layout<[], grid = [?]>
func.func @attributes() attributes {
  g0 = #dist.grid<[4, 2]>,
  g1 = #dist.grid<[?]>,
  g2 = #dist.grid<[?, 3, ?]>,
  d0 = #dist.dim<block on 0>,
  d1 = #dist.dim<cyclic on 1>,
  d2 = #dist.dim<block_cyclic(32) on 0>,
  d3 = #dist.dim<replicated>,
  l0 = #dist.layout<[block on 0, replicated], grid = [?]>,
  l1 = #dist.layout<[block on 0, block on 1], grid = [4, 2]>,
  l2 = #dist.layout<[cyclic on 1, block_cyclic(8) on 0], grid = [2, ?]>,
  l3 = #dist.layout<[replicated], grid = [4, 2]>,
  l4 = #dist.layout<[], grid = [?]>
} {
  return
}

// A layout as the discardable attribute `dist.layout`: on a global, on
// function arguments and results, on allocations and on loop nests; and as
// the memory space of a memref type.

// CHECK: memref.global "private" @G : memref<64x64xf64> = uninitialized {dist.layout = #dist.layout<[block on 0, block on 1], grid = [4, 2]>}
memref.global "private" @G : memref<64x64xf64> = uninitialized {dist.layout = #dist.layout<[block on 0, block on 1], grid = [4, 2]>}

// CHECK-LABEL: func.func @annotations(
// CHECK-SAME: memref<?x1300xf64> {dist.layout = #dist.layout<[block on 0, replicated], grid = [?]>}
// CHECK-SAME: memref<?x64xf64, #dist.layout<[cyclic on 0, replicated], grid = [?]>>
// CHECK-SAME: -> (memref<?xf32> {dist.layout = #dist.layout<[block_cyclic(8) on 0], grid = [?]>})
func.func @annotations(%a: memref<?x1300xf64> {dist.layout = #rows},
                       %b: memref<?x64xf64, #dist.layout<[cyclic on 0, replicated], grid = [?]>>,
                       %n: index)
    -> (memref<?xf32> {dist.layout = #dist.layout<[block_cyclic(8) on 0], grid = [?]>}) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  // CHECK: memref.alloc(%{{.*}}) {dist.layout = #dist.layout<[block_cyclic(8) on 0], grid = [?]>} : memref<?xf32>
  %m = memref.alloc(%n) {dist.layout = #dist.layout<[block_cyclic(8) on 0], grid = [?]>} : memref<?xf32>
  // CHECK: affine.for
  // CHECK: } {dist.layout = #dist.layout<[block on 1, block on 0], grid = [?, ?]>}
  affine.for %i = 0 to 10 {
    affine.for %j = 0 to 10 {
    }
  } {dist.layout = #dist.layout<[block on 1, block on 0], grid = [?, ?]>}
  // CHECK: scf.for
  // CHECK: } {dist.layout = #dist.layout<[cyclic on 0], grid = [?]>}
  scf.for %i = %c0 to %n step %c1 {
  } {dist.layout = #dist.layout<[cyclic on 0], grid = [?]>}
  // CHECK: affine.parallel
  // CHECK: } {dist.layout = #dist.layout<[block on 0, block on 1], grid = [2, 2]>}
  affine.parallel (%i, %j) = (0, 0) to (10, 10) {
  } {dist.layout = #dist.layout<[block on 0, block on 1], grid = [2, 2]>}
  return %m : memref<?xf32>
}

//===----------------------------------------------------------------------===//
// Process queries
//===----------------------------------------------------------------------===//

// CHECK-LABEL: func.func @queries(
func.func @queries() -> (index, index, index, index, index, index) {
  // CHECK: %{{.*}} = dist.num_ranks
  %p = dist.num_ranks
  // CHECK: %{{.*}} = dist.rank
  %me = dist.rank
  // CHECK: %{{.*}}:2 = dist.grid_shape #dist.grid<[?, 2]>
  %s:2 = dist.grid_shape #dist.grid<[?, 2]>
  // CHECK: %{{.*}}:2 = dist.grid_shape #dist.grid<[?, ?]> prefer [4, 0]
  %pref:2 = dist.grid_shape #dist.grid<[?, ?]> prefer [4, 0]
  return %p, %me, %s#0, %s#1, %pref#0, %pref#1 : index, index, index, index, index, index
}

//===----------------------------------------------------------------------===//
// Index arithmetic
//===----------------------------------------------------------------------===//

// CHECK-LABEL: func.func @index_arithmetic(
// CHECK-SAME: %[[LB:[^:]*]]: index, %[[UB:[^:]*]]: index, %[[P:[^:]*]]: index, %[[NP:[^:]*]]: index)
func.func @index_arithmetic(%lb: index, %ub: index, %p: index, %np: index)
    -> (index, index, index, index, index, index) {
  // CHECK: %{{.*}}, %{{.*}}, %{{.*}} = dist.local_bounds %[[LB]] to %[[UB]] at %[[P]] of %[[NP]] by #dist.dim<block on 0>
  %lo, %hi, %st = dist.local_bounds %lb to %ub at %p of %np by #dist.dim<block on 0>
  // CHECK: dist.local_bounds %[[LB]] to %[[UB]] at %[[P]] of %[[NP]] by #dist.dim<block_cyclic(4) on 1>
  %lo2, %hi2, %st2 = dist.local_bounds %lb to %ub at %p of %np by #dist.dim<block_cyclic(4) on 1>
  // Blocks of equal work: the first and the last index's weights.
  // CHECK: dist.local_bounds %[[LB]] to %[[UB]] at %[[P]] of %[[NP]] by #dist.dim<block on 0> weighted(%[[P]], %[[UB]])
  %lo3, %hi3, %st3 = dist.local_bounds %lb to %ub at %p of %np by #dist.dim<block on 0> weighted(%p, %ub)
  return %lo, %hi, %st, %lo2, %hi3, %st2
      : index, index, index, index, index, index
}

//===----------------------------------------------------------------------===//
// Messages of exact element sets
//===----------------------------------------------------------------------===//

// Each message op names its array, the ISL set of the elements it carries
// and the values of the set's parameters; a rank-local array adds the
// global subscripts of its first element (`origin`).
// CHECK-LABEL: func.func @collectives(
// CHECK-SAME: %[[G:[^:]*]]: memref<1300x1300xf64>, %[[V:[^:]*]]: memref<16xi32>, %[[K:[^:]*]]: index)
func.func @collectives(%g: memref<1300x1300xf64>, %v: memref<16xi32>,
                       %k: index) {
  %c0 = arith.constant 0 : index
  // CHECK: dist.broadcast %[[G]] elements "{ G[i, j] : 0 <= i < 1300 and 0 <= j < 1300 }" () root %{{.*}} : memref<1300x1300xf64>
  dist.broadcast %g elements "{ G[i, j] : 0 <= i < 1300 and 0 <= j < 1300 }" () root %c0 : memref<1300x1300xf64>
  // CHECK: dist.broadcast %[[G]] elements "[k] -> { G[k, j] : 0 <= j < 1300 }" (%[[K]]) root %{{.*}} : memref<1300x1300xf64>
  dist.broadcast %g elements "[k] -> { G[k, j] : 0 <= j < 1300 }" (%k) root %c0 : memref<1300x1300xf64>
  // CHECK: dist.allreduce min %[[V]] elements "{ V[i] : 0 <= i < 16 }" () : memref<16xi32>
  dist.allreduce min %v elements "{ V[i] : 0 <= i < 16 }" () : memref<16xi32>
  return
}

// CHECK-LABEL: func.func @grid_on_function
// CHECK-SAME: attributes {dist.grid = #dist.grid<[4, ?]>}
func.func @grid_on_function() attributes {dist.grid = #dist.grid<[4, ?]>} {
  return
}

// CHECK-LABEL: func.func @messages(
// CHECK-SAME: %[[A:[^:]*]]: memref<?xf64>, %[[PEER:[^:]*]]: index, %[[LO:[^:]*]]: index, %[[HI:[^:]*]]: index
func.func @messages(%a: memref<?xf64>, %peer: index, %lo: index, %hi: index) {
  // CHECK: dist.isend %[[A]] elements "[lo, hi] -> { A[i] : i = hi - 1 and hi > lo }" (%[[LO]], %[[HI]]) to %[[PEER]] tag 2 : memref<?xf64>
  dist.isend %a elements "[lo, hi] -> { A[i] : i = hi - 1 and hi > lo }" (%lo, %hi) to %peer tag 2 : memref<?xf64>
  // CHECK: dist.irecv %[[A]] elements "[lo, hi] -> { A[i] : i = lo - 1 and hi > lo }" (%[[LO]], %[[HI]]) origin [%[[LO]]] from %[[PEER]] tag 32767 : memref<?xf64>
  dist.irecv %a elements "[lo, hi] -> { A[i] : i = lo - 1 and hi > lo }" (%lo, %hi) origin [%lo] from %peer tag 32767 : memref<?xf64>
  // CHECK: dist.wait_all
  dist.wait_all
  // CHECK: %{{.*}} = dist.replicas_stale
  %stale = dist.replicas_stale
  // CHECK: dist.set_replicas_stale
  dist.set_replicas_stale
  return
}

// dist-alias-check's functions and the overlap test they use.
// CHECK-LABEL: func.func @overlap_check
// CHECK-SAME: attributes {dist.alias_check}
// CHECK: %{{.*}} = dist.ranges_overlap %{{.*}}[%{{.*}}, %{{.*}}], %{{.*}}[%{{.*}}, %{{.*}}] : memref<?xf64>, memref<?x4xf32>
func.func @overlap_check(%a: memref<?xf64>, %b: memref<?x4xf32>, %lo: index,
                         %hi: index) attributes {dist.alias_check} {
  %o = dist.ranges_overlap %a[%lo, %hi], %b[%lo, %hi] : memref<?xf64>, memref<?x4xf32>
  return
}
// CHECK-LABEL: func.func @overlap_check_sequential
// CHECK-SAME: attributes {dist.sequential}
func.func @overlap_check_sequential() attributes {dist.sequential} {
  return
}
// CHECK-LABEL: func.func @overlap_check_distributed
// CHECK-SAME: attributes {dist.args_disjoint}
func.func @overlap_check_distributed() attributes {dist.args_disjoint} {
  return
}

// CHECK-LABEL: func.func @partitioner_marks
// CHECK: } {dist.distribute = #dist.dim<block on 0>, dist.unit}
func.func @partitioner_marks(%a: memref<8xf64>) {
  affine.for %i = 0 to 8 {
    %x = affine.load %a[%i] : memref<8xf64>
    affine.store %x, %a[%i] : memref<8xf64>
  } {dist.unit, dist.distribute = #dist.dim<block on 0>}
  return
}

// CHECK-LABEL: func.func @interchange_mark
// CHECK: } {dist.interchange, dist.unit}
func.func @interchange_mark(%x: memref<8xf64>, %a: memref<8x8xf64>) {
  affine.for %i = 0 to 8 {
    affine.for %j = 0 to 8 {
      %v = affine.load %a[%j, %i] : memref<8x8xf64>
      affine.store %v, %x[%i] : memref<8xf64>
    }
  } {dist.unit, dist.interchange}
  return
}
