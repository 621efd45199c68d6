// RUN: weft-opt %s --gpu-select-nests='report=1 gpu-choice=always' -split-input-file -verify-diagnostics | FileCheck %s
// RUN: weft-opt %s --gpu-select-nests='report=1 gpu-choice=always split-fp-reductions=0' -split-input-file 2>%t.remarks | FileCheck %s --check-prefix=ORDERED
// RUN: FileCheck %s --check-prefix=ORDERED-REMARKS < %t.remarks

// A dot product into a scalar argument: the loop carries only the
// reduction, whose element is the same in every iteration, so it is a
// device nest whose threads combine the sums; the update is marked, and
// the nest gets the most blocks its grid needs (two waves of the A100's
// resident blocks: 2 * 108 SMs * 2048 threads / 256) for gpu-map-loops'
// grid-stride loop.
// CHECK-LABEL: func.func @dot
// CHECK: affine.store %{{.*}}, %arg0[] {weft.gpu.reduce = "add"}
// CHECK: {weft.gpu.band = 1 : i64, weft.gpu.coalesced = 0 : i64, weft.gpu.grid_blocks = 1728 : i64}
// ORDERED-LABEL: func.func @dot
// ORDERED-NOT: weft.gpu
// ORDERED: return
// ORDERED-REMARKS: remark: stays on the host: it carries a dependence through s (a reduction its threads cannot combine: --fp-reductions=ordered keeps its floating-point reduction in program order)
func.func @dot(%s: memref<f64> {weft.c_arg = "&s"}, %a: memref<?xf64>, %b: memref<?xf64>, %n: index) {
  // expected-remark-re @below {{runs on the device: its iterations are the threads of a 1-D grid; gpu-choice=always; predicted {{[^;]*}}; its threads combine s (add): each block's partial results in warp shuffles, then across warps in shared memory, then one atomic update per block}}
  affine.for %i = 0 to %n {
    %acc = affine.load %s[] : memref<f64>
    %x = affine.load %a[%i] : memref<?xf64>
    %y = affine.load %b[%i] : memref<?xf64>
    %p = arith.mulf %x, %y : f64
    %sum = arith.addf %acc, %p : f64
    affine.store %sum, %s[] : memref<f64>
  }
  return
}

// -----

// A sum of 16-bit integers (C's short): no warp shuffle moves them, so the
// report says what gpu-reduce-blocks does, a tree in shared memory.
// CHECK-LABEL: func.func @short_sum
// CHECK: affine.store %{{.*}}, %arg0[] {weft.gpu.reduce = "add"}
func.func @short_sum(%s: memref<i16> {weft.c_arg = "&s"}, %a: memref<?xi16>, %n: index) {
  // expected-remark-re @below {{runs on the device: its iterations are the threads of a 1-D grid; gpu-choice=always; predicted {{[^;]*}}; its threads combine s (add): each block's partial results in shared memory, then one atomic update per block}}
  affine.for %i = 0 to %n {
    %acc = affine.load %s[] : memref<i16>
    %x = affine.load %a[%i] : memref<?xi16>
    %sum = arith.addi %acc, %x : i16
    affine.store %sum, %s[] : memref<i16>
  }
  return
}

// -----

// A 2-D nest whose loops both carry the same reductions (a sum and a
// maximum written as C's ?:, into elements of an array with constant
// subscripts) is a 2-D grid; an integer count is combined even when
// floating-point reductions must keep their order.
// CHECK-LABEL: func.func @two_d
// CHECK-DAG: weft.gpu.reduce = "add"
// CHECK-DAG: weft.gpu.reduce = "max"
// CHECK: {weft.gpu.band = 2 : i64, weft.gpu.coalesced = 1 : i64, weft.gpu.grid_blocks = 1728 : i64}
// CHECK: weft.gpu.reduce = "add"
// CHECK: {weft.gpu.band = 1 : i64, weft.gpu.coalesced = 0 : i64, weft.gpu.grid_blocks = 1728 : i64}
// ORDERED-LABEL: func.func @two_d
// ORDERED-NOT: weft.gpu.reduce = "max"
// ORDERED: weft.gpu.reduce = "add"
// ORDERED-REMARKS: remark: stays on the host: it carries a dependence through #0 (a reduction its threads cannot combine: --fp-reductions=ordered keeps its floating-point reduction in program order)
// ORDERED-REMARKS: remark: runs on the device: its iterations are the threads of a 1-D grid; gpu-choice=always; predicted {{[^;]*}}; its threads combine #2 (add)
// ORDERED: {weft.gpu.band = 1 : i64, weft.gpu.coalesced = 0 : i64, weft.gpu.grid_blocks = 1728 : i64}
func.func @two_d(%r: memref<2xf64>, %a: memref<64x48xf64>, %c: memref<i32>, %n: index) {
  // expected-remark-re @below {{runs on the device: the iterations of its 2 outer loops are the threads of a 2-D grid, the loop at line 22 along threadIdx.x (the arrays' contiguous dimension); gpu-choice=always; predicted {{[^;]*}}; its threads combine #0 (add), #0 (max)}}
  affine.for %i = 0 to 64 {
    affine.for %j = 0 to 48 {
      %s = affine.load %r[0] : memref<2xf64>
      %x = affine.load %a[%i, %j] : memref<64x48xf64>
      %t = arith.addf %s, %x : f64
      affine.store %t, %r[0] : memref<2xf64>
      %y = affine.load %a[%i, %j] : memref<64x48xf64>
      %mx = affine.load %r[1] : memref<2xf64>
      %gt = arith.cmpf ogt, %y, %mx : f64
      %new = scf.if %gt -> (f64) {
        %again = affine.load %a[%i, %j] : memref<64x48xf64>
        scf.yield %again : f64
      } else {
        %old = affine.load %r[1] : memref<2xf64>
        scf.yield %old : f64
      }
      affine.store %new, %r[1] : memref<2xf64>
    }
  }
  // expected-remark-re @below {{runs on the device: its iterations are the threads of a 1-D grid; gpu-choice=always; predicted {{[^;]*}}; its threads combine #2 (add)}}
  affine.for %i = 0 to %n {
    %k = affine.load %c[] : memref<i32>
    %one = arith.constant 1 : i32
    %k1 = arith.addi %k, %one : i32
    affine.store %k1, %c[] : memref<i32>
  }
  return
}

// -----

// Column sums: the loop over i carries reductions into y[j], an element
// that differs between the iterations of the nest (j runs inside it); the
// loop over j is parallel and runs as the threads, each summing its column.
// CHECK-LABEL: func.func @columns
// CHECK-NOT: weft.gpu.reduce
// CHECK: {weft.gpu.band = 1 : i64, weft.gpu.coalesced = 0 : i64}
func.func @columns(%y: memref<?xf64>, %a: memref<?x?xf64>, %n: index) {
  // expected-remark @below {{stays on the host: it carries a dependence through #0 (a reduction its threads cannot combine: the element it reduces into differs between its iterations); the loops in it are candidates}}
  affine.for %i = 0 to %n {
    // expected-remark @below {{runs on the device: its iterations are the threads of a 1-D grid; gpu-choice=always}}
    affine.for %j = 0 to %n {
      %acc = affine.load %y[%j] : memref<?xf64>
      %x = affine.load %a[%i, %j] : memref<?x?xf64>
      %sum = arith.addf %acc, %x : f64
      affine.store %sum, %y[%j] : memref<?xf64>
    }
  }
  return
}

// -----

// A reduction next to another carried dependence (a prefix sum writes each
// partial result out) is not one the threads can combine.
// CHECK-LABEL: func.func @prefix
// CHECK-NOT: weft.gpu
// CHECK: return
func.func @prefix(%s: memref<f64>, %a: memref<?xf64>, %p: memref<?xf64>, %n: index) {
  // expected-remark @below {{stays on the host: it carries a dependence through #0; the loops in it are candidates}}
  affine.for %i = 0 to %n {
    %acc = affine.load %s[] : memref<f64>
    %x = affine.load %a[%i] : memref<?xf64>
    %sum = arith.addf %acc, %x : f64
    affine.store %sum, %s[] : memref<f64>
    affine.store %sum, %p[%i] : memref<?xf64>
  }
  return
}

// -----

// A row reduction: `i` carries nothing, `j` only the sums into y[i], whose
// element `i` picks; `j` is in the last subscript of A and x (2 to 0), so
// it joins the nest as x and the threads of a row combine y[i]'s sums.
// Ordered: the floating-point sum stays in each thread, along `j`.
// CHECK-LABEL: func.func @gemv
// CHECK: affine.store %{{.*}}, %arg0[%{{.*}}] {weft.gpu.reduce = "add"}
// CHECK: {weft.gpu.band = 2 : i64, weft.gpu.coalesced = 1 : i64, weft.gpu.grid_blocks = 1728 : i64}
// ORDERED-LABEL: func.func @gemv
// ORDERED-NOT: weft.gpu.reduce
// ORDERED: {weft.gpu.band = 1 : i64, weft.gpu.coalesced = 0 : i64}
func.func @gemv(%y: memref<?xf64>, %a: memref<?x?xf64>, %x: memref<?xf64>, %m: index, %n: index) {
  // expected-remark-re @below {{runs on the device: the iterations of its 2 outer loops are the threads of a 2-D grid, the loop at line 16 along threadIdx.x (the arrays' contiguous dimension); gpu-choice=always; predicted {{[^;]*}}; the threads of a row combine #0 (add): each block's partial results of a row in warp shuffles, then one atomic update per row of the block}}
  affine.for %i = 0 to %m {
    affine.for %j = 0 to %n {
      %acc = affine.load %y[%i] : memref<?xf64>
      %v = affine.load %a[%i, %j] : memref<?x?xf64>
      %w = affine.load %x[%j] : memref<?xf64>
      %p = arith.mulf %v, %w : f64
      %s = arith.addf %acc, %p : f64
      affine.store %s, %y[%i] : memref<?xf64>
    }
  }
  return
}

// -----

// Transposed, `z[i] += A[j][i] * x[j]`: A's last subscript is `i`, x's `j`
// (1 to 1): a column reduction. `i` stays along x, where one thread per `i`
// reads A along a row, and `j` joins it along y: the threads of a column of
// the block combine, which spreads each column over the blocks of the grid.
// Ordered, floating-point sums keep one thread per `i`, which runs `j` in
// program order.
// CHECK-LABEL: func.func @transposed
// CHECK: affine.store %{{.*}}, %arg0[%{{.*}}] {weft.gpu.reduce = "add"}
// CHECK: {weft.gpu.band = 2 : i64, weft.gpu.coalesced = 0 : i64, weft.gpu.grid_blocks = 1728 : i64}
// ORDERED-LABEL: func.func @transposed
// ORDERED-NOT: weft.gpu.reduce
// ORDERED: {weft.gpu.band = 1 : i64, weft.gpu.coalesced = 0 : i64}
func.func @transposed(%z: memref<?xf64>, %a: memref<?x?xf64>, %x: memref<?xf64>, %m: index, %n: index) {
  // expected-remark-re @below {{runs on the device: the iterations of its 2 outer loops are the threads of a 2-D grid, the loop at line 17 along threadIdx.x (the arrays' contiguous dimension); gpu-choice=always; predicted {{[^;]*}}; the threads of a column combine #0 (add): each block's partial results of a column in shared memory, then one atomic update per column of the block}}
  affine.for %i = 0 to %m {
    affine.for %j = 0 to %n {
      %acc = affine.load %z[%i] : memref<?xf64>
      %v = affine.load %a[%j, %i] : memref<?x?xf64>
      %w = affine.load %x[%j] : memref<?xf64>
      %p = arith.mulf %v, %w : f64
      %s = arith.addf %acc, %p : f64
      affine.store %s, %z[%i] : memref<?xf64>
    }
  }
  return
}

// -----

// A filter's three taps (`y[i] += w[k] * a[i + k]`): `k` is in the last
// subscript of more accesses, but 3 threads of a row of 32 would leave the
// other 29 idle; nor would 3 of a column of 8 fill it. One thread per `i`
// runs the taps.
// CHECK-LABEL: func.func @taps
// CHECK-NOT: weft.gpu.reduce
// CHECK: {weft.gpu.band = 1 : i64, weft.gpu.coalesced = 0 : i64}
func.func @taps(%y: memref<?xf64>, %w: memref<3xf64>, %a: memref<?xf64>, %n: index) {
  // expected-remark @below {{runs on the device: its iterations are the threads of a 1-D grid; gpu-choice=always}}
  affine.for %i = 0 to %n {
    affine.for %k = 0 to 3 {
      %acc = affine.load %y[%i] : memref<?xf64>
      %v = affine.load %w[%k] : memref<3xf64>
      %u = affine.load %a[%i + %k] : memref<?xf64>
      %p = arith.mulf %v, %u : f64
      %s = arith.addf %acc, %p : f64
      affine.store %s, %y[%i] : memref<?xf64>
    }
  }
  return
}

// -----

// A column of 8 (one thread each along y) is a column reduction still.
// CHECK-LABEL: func.func @eight_rows
// CHECK: {weft.gpu.band = 2 : i64, weft.gpu.coalesced = 0 : i64, weft.gpu.grid_blocks = 1728 : i64}
func.func @eight_rows(%z: memref<?xi32>, %a: memref<8x?xi32>, %n: index) {
  // expected-remark-re @below {{runs on the device: the iterations of its 2 outer loops are the threads of a 2-D grid, the loop at line 8 along threadIdx.x (the arrays' contiguous dimension); gpu-choice=always; predicted {{[^;]*}}; the threads of a column combine #0 (add): each block's partial results of a column in shared memory, then one atomic update per column of the block}}
  affine.for %i = 0 to %n {
    affine.for %j = 0 to 8 {
      %acc = affine.load %z[%i] : memref<?xi32>
      %v = affine.load %a[%j, %i] : memref<8x?xi32>
      %s = arith.addi %acc, %v : i32
      affine.store %s, %z[%i] : memref<?xi32>
    }
  }
  return
}

// -----

// A row's integer sum: order does not change it, so the row's threads
// combine it ordered too.
// CHECK-LABEL: func.func @row_count
// CHECK: affine.store %{{.*}}, %arg0[%{{.*}}] {weft.gpu.reduce = "add"}
// CHECK: {weft.gpu.band = 2 : i64, weft.gpu.coalesced = 1 : i64, weft.gpu.grid_blocks = 1728 : i64}
// ORDERED-LABEL: func.func @row_count
// ORDERED: {weft.gpu.reduce = "add"}
// ORDERED: {weft.gpu.band = 2 : i64, weft.gpu.coalesced = 1 : i64, weft.gpu.grid_blocks = 1728 : i64}
func.func @row_count(%c: memref<?xi32>, %k: memref<?x?xi32>, %m: index, %n: index) {
  // expected-remark-re @below {{runs on the device: the iterations of its 2 outer loops are the threads of a 2-D grid, the loop at line 14 along threadIdx.x (the arrays' contiguous dimension); gpu-choice=always; predicted {{[^;]*}}; the threads of a row combine #0 (add): each block's partial results of a row in warp shuffles, then one atomic update per row of the block}}
  affine.for %i = 0 to %m {
    affine.for %j = 0 to %n {
      %acc = affine.load %c[%i] : memref<?xi32>
      %v = affine.load %k[%i, %j] : memref<?x?xi32>
      %s = arith.addi %acc, %v : i32
      affine.store %s, %c[%i] : memref<?xi32>
    }
  }
  return
}
