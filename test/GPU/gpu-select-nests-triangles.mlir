// RUN: weft-opt %s --gpu-select-nests=gpu-choice=always -split-input-file | FileCheck %s
// RUN: weft-opt %s --gpu-select-nests='gpu-choice=always report' -split-input-file 2>&1 >/dev/null \
// RUN:   | FileCheck %s --check-prefix=REPORT

// REPORT-COUNT-3: remark: runs on the device: {{.*}}, the loop at line {{[0-9]+}} in shared-memory tiles of 32 where gpu-stage-tiles can stage its reads
// REPORT: remark: runs on the device: {{.*}}; the loop at line {{[0-9]+}} without shared-memory tiles: its first row may hold no element, so that the tiles could read what the loop does not
// REPORT: remark: runs on the device: {{.*}}; the loop at line {{[0-9]+}} without shared-memory tiles: its last row may hold no element, so that the tiles could read what the loop does not
// REPORT: remark: runs on the device: {{.*}}; the loop at line {{[0-9]+}} without shared-memory tiles: the triangle is a band along the diagonal, a small part of the grid's box
// REPORT: remark: runs on the device: {{.*}}; the loop at line {{[0-9]+}} without shared-memory tiles: the triangle's bounds are not its outer iterator plus or minus an invariant

// Triangular 2-D nests whose threads run a k loop: gpu-select-nests gives
// the loop shared-memory tiles only where every row and every column of
// the grid's box holds an element of the triangle (the tiles load rows and
// columns of the box; the triangle's condition only guards the
// computation) and the triangle is half of its box.

// syrk's lower triangle (j <= i): every row and column of the n x n box
// holds an element, half the box is inside; the k loop is staged.
// CHECK-LABEL: func.func @lower
// CHECK: weft.gpu.tile = {{[0-9]+}} : i64
func.func @lower(%s: memref<?x?xf64>, %a: memref<?x?xf64>, %n: index, %m: index) {
  affine.for %i = 0 to %n {
    affine.for %j = 0 to affine_map<(d0) -> (d0 + 1)>(%i) {
      affine.for %k = 0 to %m {
        %p = affine.load %a[%i, %k] : memref<?x?xf64>
        %q = affine.load %a[%j, %k] : memref<?x?xf64>
        %r = affine.load %s[%i, %j] : memref<?x?xf64>
        %t = arith.mulf %p, %q : f64
        %v = arith.addf %r, %t : f64
        affine.store %v, %s[%i, %j] : memref<?x?xf64>
      }
    }
  }
  return
}

// -----

// covariance's upper triangle (j from i to n): its narrowest row, the
// last, holds one element.
// CHECK-LABEL: func.func @upper
// CHECK: weft.gpu.tile = {{[0-9]+}} : i64
func.func @upper(%s: memref<?x?xf64>, %a: memref<?x?xf64>, %n: index, %m: index) {
  affine.for %i = 0 to %n {
    affine.for %j = affine_map<(d0) -> (d0)>(%i) to %n {
      affine.for %k = 0 to %m {
        %p = affine.load %a[%i, %k] : memref<?x?xf64>
        %q = affine.load %a[%j, %k] : memref<?x?xf64>
        %r = affine.load %s[%i, %j] : memref<?x?xf64>
        %t = arith.mulf %p, %q : f64
        %v = arith.addf %r, %t : f64
        affine.store %v, %s[%i, %j] : memref<?x?xf64>
      }
    }
  }
  return
}

// -----

// Above the anti-diagonal (j < n - i): rows shrink, the last holds one.
// CHECK-LABEL: func.func @anti
// CHECK: weft.gpu.tile = {{[0-9]+}} : i64
func.func @anti(%s: memref<?x?xf64>, %a: memref<?x?xf64>, %n: index, %m: index) {
  affine.for %i = 0 to %n {
    affine.for %j = 0 to affine_map<(d0)[s0] -> (s0 - d0)>(%i)[%n] {
      affine.for %k = 0 to %m {
        %p = affine.load %a[%i, %k] : memref<?x?xf64>
        %q = affine.load %a[%j, %k] : memref<?x?xf64>
        %r = affine.load %s[%i, %j] : memref<?x?xf64>
        %t = arith.mulf %p, %q : f64
        %v = arith.addf %r, %t : f64
        affine.store %v, %s[%i, %j] : memref<?x?xf64>
      }
    }
  }
  return
}

// -----

// The strict lower triangle (j < i): row 0 has no element, so the tile of
// A[i][k] would load a row that this read never reads.
// CHECK-LABEL: func.func @strict
// CHECK-NOT: weft.gpu.tile
// CHECK: return
func.func @strict(%s: memref<?x?xf64>, %a: memref<?x?xf64>, %n: index, %m: index) {
  affine.for %i = 0 to %n {
    affine.for %j = 0 to affine_map<(d0) -> (d0)>(%i) {
      affine.for %k = 0 to %m {
        %p = affine.load %a[%i, %k] : memref<?x?xf64>
        %q = affine.load %a[%j, %k] : memref<?x?xf64>
        %r = affine.load %s[%i, %j] : memref<?x?xf64>
        %t = arith.mulf %p, %q : f64
        %v = arith.addf %r, %t : f64
        affine.store %v, %s[%i, %j] : memref<?x?xf64>
      }
    }
  }
  return
}

// -----

// Rows from i to m for i < n: whether the last row holds an element
// depends on n and m, unknown.
// CHECK-LABEL: func.func @other_size
// CHECK-NOT: weft.gpu.tile
// CHECK: return
func.func @other_size(%s: memref<?x?xf64>, %a: memref<?x?xf64>, %n: index, %m: index) {
  affine.for %i = 0 to %n {
    affine.for %j = affine_map<(d0) -> (d0)>(%i) to %m {
      affine.for %k = 0 to %m {
        %p = affine.load %a[%i, %k] : memref<?x?xf64>
        %q = affine.load %a[%j, %k] : memref<?x?xf64>
        %r = affine.load %s[%i, %j] : memref<?x?xf64>
        %t = arith.mulf %p, %q : f64
        %v = arith.addf %r, %t : f64
        affine.store %v, %s[%i, %j] : memref<?x?xf64>
      }
    }
  }
  return
}

// -----

// A band of three diagonals: every row holds three elements, but the band
// is a vanishing part of its box, whose every block would load tiles.
// CHECK-LABEL: func.func @band
// CHECK-NOT: weft.gpu.tile
// CHECK: return
func.func @band(%s: memref<?x?xf64>, %a: memref<?x?xf64>, %n: index, %m: index) {
  affine.for %i = 0 to %n {
    affine.for %j = affine_map<(d0) -> (d0)>(%i) to affine_map<(d0) -> (d0 + 3)>(%i) {
      affine.for %k = 0 to %m {
        %p = affine.load %a[%i, %k] : memref<?x?xf64>
        %q = affine.load %a[%j, %k] : memref<?x?xf64>
        %r = affine.load %s[%i, %j] : memref<?x?xf64>
        %t = arith.mulf %p, %q : f64
        %v = arith.addf %r, %t : f64
        affine.store %v, %s[%i, %j] : memref<?x?xf64>
      }
    }
  }
  return
}

// -----

// A triangle twice as steep (j < 2i + 1): consecutive rows' ranges still
// touch, but the coefficient is outside what gpu-select-nests checks.
// CHECK-LABEL: func.func @steep
// CHECK-NOT: weft.gpu.tile
// CHECK: return
func.func @steep(%s: memref<?x?xf64>, %a: memref<?x?xf64>, %n: index, %m: index) {
  affine.for %i = 0 to %n {
    affine.for %j = 0 to affine_map<(d0) -> (d0 * 2 + 1)>(%i) {
      affine.for %k = 0 to %m {
        %p = affine.load %a[%i, %k] : memref<?x?xf64>
        %q = affine.load %a[%j, %k] : memref<?x?xf64>
        %r = affine.load %s[%i, %j] : memref<?x?xf64>
        %t = arith.mulf %p, %q : f64
        %v = arith.addf %r, %t : f64
        affine.store %v, %s[%i, %j] : memref<?x?xf64>
      }
    }
  }
  return
}
