// RUN: weft-opt %s --pass-pipeline='builtin.module(dist-partition,func.func(dist-materialize),canonicalize)' | FileCheck %s
// RUN: weft-opt %s --pass-pipeline='builtin.module(dist-partition,func.func(dist-materialize))' | FileCheck %s --check-prefix=RAW

// Row i of a triangle runs i + 1 iterations: blocks of equal length would
// give the last rank most of the work (three quarters at 2 ranks). The
// blocks are weighted by the work of the first row (1) and of the last
// (max(n, 0) iterations of the inner loop), the same for this rank's
// block and every peer's.
// CHECK-LABEL: func.func @triangle
// CHECK-SAME: (%{{.*}}: memref<?x?xf64>, %[[N:.*]]: index)
// CHECK-DAG: %[[C0:.*]] = arith.constant 0 : index
// CHECK-DAG: %[[C1:.*]] = arith.constant 1 : index
// CHECK: %[[LAST:.*]] = arith.subi %[[N]], %[[C1]]
// CHECK: %[[TRIPS:.*]] = affine.apply #{{.*}}()[%[[LAST]]]
// CHECK: %[[WLAST:.*]] = arith.maxsi %[[TRIPS]], %[[C0]]
// CHECK: dist.local_bounds %[[C0]] to %[[N]] at %{{.*}} of %{{.*}} by #dist.dim<block on 0> weighted(%[[C1]], %[[WLAST]])
// CHECK: scf.for
// CHECK: dist.local_bounds %[[C0]] to %[[N]] at %{{.*}} of %{{.*}} by #dist.dim<block on 0> weighted(%[[C1]], %[[WLAST]])
func.func @triangle(%c: memref<?x?xf64>, %n: index) {
  affine.for %i = 0 to %n {
    affine.for %j = 0 to affine_map<(d0) -> (d0 + 1)>(%i) {
      %x = affine.load %c[%i, %j] : memref<?x?xf64>
      %y = arith.mulf %x, %x : f64
      affine.store %y, %c[%i, %j] : memref<?x?xf64>
    }
  }
  return
}

// Rows of equal work keep the plain blocks.
// CHECK-LABEL: func.func @rectangle
// CHECK-NOT: weighted
// CHECK: return
func.func @rectangle(%c: memref<?x?xf64>, %n: index) {
  affine.for %i = 0 to %n {
    affine.for %j = 0 to %n {
      %x = affine.load %c[%i, %j] : memref<?x?xf64>
      %y = arith.mulf %x, %x : f64
      affine.store %y, %c[%i, %j] : memref<?x?xf64>
    }
  }
  return
}

// Row i's work grows as i * i (the innermost bound uses the middle
// iterator): not a product of trip counts of i alone, so plain blocks, and
// none of the arithmetic tried on the way is left.
// CHECK-LABEL: func.func @tetrahedron
// CHECK-NOT: weighted
// CHECK: return
// RAW-LABEL: func.func @tetrahedron
// RAW-NOT: arith.subi
// RAW-NOT: arith.maxsi
// RAW-NOT: arith.muli
// RAW: return
func.func @tetrahedron(%c: memref<?x?xf64>, %n: index) {
  affine.for %i = 0 to %n {
    affine.for %j = 0 to affine_map<(d0) -> (d0 + 1)>(%i) {
      affine.for %k = 0 to affine_map<(d0) -> (d0 + 1)>(%j) {
        %x = affine.load %c[%i, %k] : memref<?x?xf64>
        %y = arith.mulf %x, %x : f64
        affine.store %y, %c[%i, %j] : memref<?x?xf64>
      }
    }
  }
  return
}

// A branch in the rows counts with all its arms (an upper bound on the
// work): still weighted.
// CHECK-LABEL: func.func @triangle_with_branch
// CHECK: dist.local_bounds {{.*}} weighted(
func.func @triangle_with_branch(%c: memref<?x?xf64>, %n: index) {
  affine.for %i = 0 to %n {
    affine.for %j = 0 to affine_map<(d0) -> (d0 + 1)>(%i) {
      affine.if affine_set<(d0, d1) : (d0 - d1 - 1 >= 0)>(%i, %j) {
        %x = affine.load %c[%i, %j] : memref<?x?xf64>
        %y = arith.negf %x : f64
        affine.store %y, %c[%i, %j] : memref<?x?xf64>
      }
    }
  }
  return
}

// So does a non-affine `if` (scf.if: C's `c ? x : y`).
// CHECK-LABEL: func.func @triangle_with_value_branch
// CHECK: dist.local_bounds {{.*}} weighted(
func.func @triangle_with_value_branch(%c: memref<?x?xf64>, %d: memref<?xf64>, %n: index) {
  %zero = arith.constant 0.0 : f64
  affine.for %i = 0 to %n {
    %x = affine.load %d[%i] : memref<?xf64>
    %neg = arith.cmpf olt, %x, %zero : f64
    %abs = scf.if %neg -> f64 {
      %y = arith.negf %x : f64
      scf.yield %y : f64
    } else {
      scf.yield %x : f64
    }
    affine.store %abs, %d[%i] : memref<?xf64>
    affine.for %j = 0 to affine_map<(d0) -> (d0 + 1)>(%i) {
      %v = affine.load %c[%i, %j] : memref<?x?xf64>
      %w = arith.mulf %v, %v : f64
      affine.store %w, %c[%i, %j] : memref<?x?xf64>
    }
  }
  return
}

// Columns j > k of a pivot loop over k (gramschmidt, LU): column j runs in
// the j pivot steps before it, so its work grows with j. The weights sum,
// over the pivot loop's iterations (a loop at run time, before the first
// unit), the work of the first and the last column wherever the step's
// range holds them.
// CHECK-LABEL: func.func @pivot_columns
// CHECK-SAME: (%{{.*}}: memref<?x?xf64>, %[[N:.*]]: index)
// CHECK: %[[FIRST:.*]] = memref.alloca() : memref<index>
// CHECK: %[[LAST:.*]] = memref.alloca() : memref<index>
// CHECK: scf.for %[[K:.*]] = %{{.*}} to %[[N]]
// CHECK:   %[[LB:.*]] = affine.apply #{{.*}}(%[[K]])
// CHECK:   arith.cmpi sle, %[[LB]], %{{.*}}
// CHECK:   scf.if
// CHECK:     memref.load %[[FIRST]][]
// CHECK:     memref.store %{{.*}}, %[[FIRST]][]
// CHECK:   scf.if
// CHECK:     memref.load %[[LAST]][]
// CHECK:     memref.store %{{.*}}, %[[LAST]][]
// CHECK: %[[W0:.*]] = memref.load %[[FIRST]][]
// CHECK: %[[W1:.*]] = memref.load %[[LAST]][]
// CHECK: dist.local_bounds %{{.*}} to %[[N]] at %{{.*}} of %{{.*}} by #dist.dim<block on 0> weighted(%[[W0]], %[[W1]])
func.func @pivot_columns(%a: memref<?x?xf64>, %n: index) {
  affine.for %k = 0 to %n {
    affine.for %j = affine_map<(d0) -> (d0 + 1)>(%k) to %n {
      affine.for %i = 0 to %n {
        %x = affine.load %a[%i, %k] : memref<?x?xf64>
        %y = affine.load %a[%i, %j] : memref<?x?xf64>
        %z = arith.mulf %x, %y : f64
        affine.store %z, %a[%i, %j] : memref<?x?xf64>
      }
    }
  }
  return
}
