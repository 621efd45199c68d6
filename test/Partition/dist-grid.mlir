// RUN: weft-opt %s --pass-pipeline='builtin.module(dist-partition{report=1})' 2>/dev/null | FileCheck %s
// RUN: weft-opt %s --pass-pipeline='builtin.module(dist-partition{report=1})' 2>&1 >/dev/null | FileCheck %s --check-prefix=REM
// RUN: weft-opt %s --pass-pipeline='builtin.module(dist-partition{report=1 ranks=2})' 2>&1 >/dev/null | FileCheck %s --check-prefix=TWO
// RUN: weft-opt %s --pass-pipeline='builtin.module(dist-partition{report=1 grid-dims=1})' 2>&1 >/dev/null | FileCheck %s --check-prefix=ONE
// RUN: weft-opt %s --pass-pipeline='builtin.module(dist-partition,func.func(dist-materialize{report=1}))' 2>&1 >/dev/null | FileCheck %s --check-prefix=SETS
// RUN: weft-opt %s --pass-pipeline='builtin.module(dist-partition,func.func(dist-materialize))' | FileCheck %s --check-prefix=MAT
// RUN: weft-opt %s --pass-pipeline='builtin.module(dist-partition,func.func(dist-materialize{report=1 max-grid-constraints=100}))' 2>&1 >/dev/null | FileCheck %s --check-prefix=LIMIT
// RUN: weft-opt %s --pass-pipeline='builtin.module(dist-partition,func.func(dist-materialize{report=1 max-isl-ops=30000}))' 2>&1 >/dev/null | FileCheck %s --check-prefix=QUOTA

// Jacobi 2-D: at 4 ranks a 2 x 2 grid halves the halo of 1-D row blocks
// (each rank exchanges half a row and half a column with two neighbours
// instead of two whole rows), so the dynamic program splits both loops of
// both sweeps.
// REM: grid.mlir:[[@LINE+13]]:5: remark: distributed over a 2-D grid: blocks of its iterations and of the inner loop's on each rank (predicted region time at 4 ranks [[T:.*]] s; {{.*}} s if replicated, {{.*}} s if distributed)
// REM: grid.mlir:[[@LINE+25]]:5: remark: distributed over a 2-D grid
// CHECK-LABEL: func.func @jacobi2d
// CHECK: } {dist.distribute = #dist.layout<[block on 0, block on 1], grid = [?, ?]>, dist.unit}
// CHECK: } {dist.distribute = #dist.layout<[block on 0, block on 1], grid = [?, ?]>, dist.unit}
// At 2 ranks the grid is 2 x 1, the same blocks as 1-D: the tie keeps 1-D.
// TWO: grid.mlir:[[@LINE+7]]:5: remark: distributed: blocks of its iterations on each rank (predicted region time at 2 ranks [[T:.*]] s; {{.*}} s if replicated, [[T]] s if distributed over a 2-D grid)
// ONE: grid.mlir:[[@LINE+6]]:5: remark: distributed: blocks of its iterations on each rank (predicted region time at 4 ranks {{.*}} s; {{.*}} s if replicated){{$}}
// Each rank sends only to the ranks whose block differs from its own on
// some axis; a column halo goes only to the neighbour in the same grid row.
// SETS: grid.mlir:[[@LINE+3]]:5: remark: sent after this unit {{.*}} value: [rrlo0, rrhi0, rclo0, rchi0, srlo0, srhi0, sclo0, schi0, e0, rq, p0, p1] -> { M1[i0, i1] : rq = 0 {{.*}} and (srlo0 >= rrhi0 or sclo0 >= rchi0 or schi0 <= rclo0 or srhi0 <= rrlo0) };
func.func @jacobi2d(%a: memref<?x?xf64>, %b: memref<?x?xf64>, %t: index, %n: index) {
  affine.for %s = 0 to %t {
    affine.for %i = 1 to affine_map<()[s0] -> (s0 - 1)>()[%n] {
      affine.for %j = 1 to affine_map<()[s0] -> (s0 - 1)>()[%n] {
        %x = affine.load %a[%i - 1, %j] : memref<?x?xf64>
        %y = affine.load %a[%i + 1, %j] : memref<?x?xf64>
        %z = affine.load %a[%i, %j - 1] : memref<?x?xf64>
        %w = affine.load %a[%i, %j + 1] : memref<?x?xf64>
        %p = arith.addf %x, %y : f64
        %q = arith.addf %z, %w : f64
        %r = arith.addf %p, %q : f64
        affine.store %r, %b[%i, %j] : memref<?x?xf64>
      }
    }
    // SETS: grid.mlir:[[@LINE+1]]:5: remark: sent after this unit {{.*}} M0[i0, rchi0] : sclo0 = rchi0 {{.*}} and i0 >= rrlo0 and i0 >= srlo0 {{.*}} and i0 < srhi0 and i0 < rrhi0;
    affine.for %i = 1 to affine_map<()[s0] -> (s0 - 1)>()[%n] {
      affine.for %j = 1 to affine_map<()[s0] -> (s0 - 1)>()[%n] {
        %x = affine.load %b[%i, %j] : memref<?x?xf64>
        affine.store %x, %a[%i, %j] : memref<?x?xf64>
      }
    }
  }
  return
}
// Over the limit on the grid's message sets, or where the grid's sets take
// more ISL operations than the quota and 1-D blocks' do not, both sweeps
// take 1-D blocks: their sets have the bounds of one block per rank.
// LIMIT: grid.mlir:[[@LINE-27]]:1: remark: the nests split over a 2-D grid take 1-D blocks instead: their message sets have 192 constraints, over the limit of 100
// LIMIT: grid.mlir:[[@LINE-26]]:5: remark: sent after this unit {{.*}} value: [rlo0, rhi0, slo0, shi0, e0, rq, p0, p1] -> { M1[i0, i1] : rq = 0
// QUOTA: grid.mlir:[[@LINE-29]]:1: remark: the nests split over a 2-D grid take 1-D blocks instead: communication analysis exceeded its quota of 30000 ISL operations
// QUOTA: grid.mlir:[[@LINE-28]]:5: remark: sent after this unit {{.*}} value: [rlo0, rhi0, slo0, shi0, e0, rq, p0, p1] -> { M1[i0, i1] : rq = 0
// The grid's shape is chosen at run time; rank r is at (r / cols, r % cols)
// and owns a block of each loop.
// MAT-LABEL: func.func @jacobi2d
// MAT:      %[[ME:.*]] = dist.rank
// MAT:      %[[GRID:.*]]:2 = dist.grid_shape #dist.grid<[?, ?]>
// MAT:      %[[ROW:.*]] = arith.divsi %[[ME]], %[[GRID]]#1
// MAT:      %[[COL:.*]] = arith.remsi %[[ME]], %[[GRID]]#1
// MAT:      %[[LO:.*]], %[[HI:.*]], %{{.*}} = dist.local_bounds %{{.*}} to %{{.*}} at %[[ROW]] of %[[GRID]]#0 by #dist.dim<block on 0>
// MAT:      %[[CLO:.*]], %[[CHI:.*]], %{{.*}} = dist.local_bounds %{{.*}} to %{{.*}} at %[[COL]] of %[[GRID]]#1 by #dist.dim<block on 1>
// MAT:      affine.for
// MAT-NEXT:   affine.for %{{.*}} = max #{{.*}}()[%[[LO]]] to min #{{.*}}()[%{{.*}}, %[[HI]]]
// MAT-NEXT:     affine.for %{{.*}} = max #{{.*}}()[%[[CLO]]] to min #{{.*}}()[%{{.*}}, %[[CHI]]]

// -----

// Nests a 2-D grid cannot split: the inner loop carries a flow dependence,
// its bounds follow the outer loop, or the body holds two loops. They are
// split over all ranks, and the report offers no 2-D alternative.
// REM: grid.mlir:[[@LINE+5]]:3: remark: distributed: blocks of its iterations on each rank (predicted region time at 4 ranks {{.*}} s; {{.*}} s if replicated){{$}}
// REM: grid.mlir:[[@LINE+10]]:3: remark: distributed: blocks of its iterations on each rank (predicted region time at 4 ranks {{.*}} s; {{.*}} s if replicated){{$}}
// REM: grid.mlir:[[@LINE+15]]:3: remark: distributed: blocks of its iterations on each rank (predicted region time at 4 ranks {{.*}} s; {{.*}} s if replicated){{$}}
// CHECK-LABEL: func.func @not_grid
func.func @not_grid(%a: memref<?x?xf64>, %b: memref<?x?xf64>, %n: index) {
  affine.for %i = 0 to %n {
    affine.for %j = 1 to %n {
      %x = affine.load %a[%i, %j - 1] : memref<?x?xf64>
      affine.store %x, %a[%i, %j] : memref<?x?xf64>
    }
  }
  affine.for %i = 0 to %n {
    affine.for %j = 0 to affine_map<(d0) -> (d0)>(%i) {
      %x = affine.load %a[%i, %j] : memref<?x?xf64>
      affine.store %x, %b[%i, %j] : memref<?x?xf64>
    }
  }
  affine.for %i = 0 to %n {
    affine.for %j = 0 to %n {
      %x = affine.load %b[%i, %j] : memref<?x?xf64>
      affine.store %x, %a[%i, %j] : memref<?x?xf64>
    }
    affine.for %j = 0 to %n {
      %x = affine.load %a[%i, %j] : memref<?x?xf64>
      affine.store %x, %b[%i, %j] : memref<?x?xf64>
    }
  }
  return
}

// -----

// A matrix product whose inputs come from before the region sends only its
// result to rank 0, the same bytes over the grid or over 1-D blocks: the tie
// keeps 1-D blocks, whose messages are simpler.
// REM: grid.mlir:[[@LINE+4]]:3: remark: distributed: blocks of its iterations on each rank (predicted region time at 4 ranks [[T:.*]] s; {{.*}} s if replicated, [[T]] s if distributed over a 2-D grid)
// CHECK-LABEL: func.func @product
// CHECK: } {dist.distribute = #dist.dim<block on 0>, dist.unit}
func.func @product(%a: memref<?x?xf64>, %b: memref<?x?xf64>, %c: memref<?x?xf64>, %n: index) {
  affine.for %i = 0 to %n {
    affine.for %j = 0 to %n {
      %z = arith.constant 0.0 : f64
      affine.store %z, %c[%i, %j] : memref<?x?xf64>
      affine.for %k = 0 to %n {
        %x = affine.load %a[%i, %k] : memref<?x?xf64>
        %y = affine.load %b[%k, %j] : memref<?x?xf64>
        %p = arith.mulf %x, %y : f64
        %s = affine.load %c[%i, %j] : memref<?x?xf64>
        %t = arith.addf %s, %p : f64
        affine.store %t, %c[%i, %j] : memref<?x?xf64>
      }
    }
  }
  return
}
