// RUN: weft-opt %s --gpu-select-nests=report -split-input-file -verify-diagnostics | FileCheck %s

// A parallel loop gpu-expose-bands moved outside the loop that carried it
// (weft.gpu.interchanged; atax's `y[j] += A[i][j] * tmp[i]`): where the
// nest stays on the host, the two are swapped back (the source's order,
// rows of A in the inner loop); where it runs on the device, it stays a
// grid over j, launched once.
// CHECK-LABEL: func.func @small
// CHECK:      affine.for %[[I:.*]] = 0 to 16 {
// CHECK-NEXT:   affine.for %[[J:.*]] = 0 to 16 {
// CHECK-NEXT:     affine.load %{{.*}}[%[[J]]]
// CHECK-NEXT:     affine.load %{{.*}}[%[[I]], %[[J]]]
// CHECK-NOT: weft.gpu
// CHECK: return
func.func @small(%a: memref<16x16xf64>, %y: memref<16xf64>, %tmp: memref<16xf64>) {
  // expected-remark @below {{stays on the host: predicted 0.0768 us on the CPU against 45.1 us on the device (kernels 0.00167 us, 1 launch 5 us, copies 40.1 us)}}
  affine.for %j = 0 to 16 {
    // expected-remark @below {{swapped back with the loop at line 17: the nest stays on the host}}
    affine.for %i = 0 to 16 {
      %u = affine.load %y[%j] : memref<16xf64>
      %v = affine.load %a[%i, %j] : memref<16x16xf64>
      %t = affine.load %tmp[%i] : memref<16xf64>
      %p = arith.mulf %v, %t : f64
      %s = arith.addf %u, %p : f64
      affine.store %s, %y[%j] : memref<16xf64>
    }
  } {weft.gpu.interchanged}
  return
}

// -----

// The interchanged nest is a column reduction (atax's `y[j] += A[i][j] *
// tmp[i]`), repeated 8 times: `j` along x, `i` along y. Once, the host's
// single pass over A (512 MB at the CPU's 30 GB/s) beats copying A to the
// device; 8 times, A's copy is paid once.
// CHECK-LABEL: func.func @large
// CHECK:      affine.for
// CHECK-NEXT:   affine.for %[[J:.*]] = 0 to 8192 {
// CHECK-NEXT:     affine.for %[[I:.*]] = 0 to 8192 {
// CHECK: affine.store %{{.*}}, %{{.*}}[%[[J]]] {weft.gpu.reduce = "add"}
// CHECK: } {weft.gpu.band = 2 : i64, weft.gpu.coalesced = 0 : i64, weft.gpu.grid_blocks = 1728 : i64}
func.func @large(%a: memref<8192x8192xf64>, %y: memref<8192xf64>, %tmp: memref<8192xf64>) {
  // expected-remark @below {{stays on the host: it carries a dependence through #1 (a reduction its threads cannot combine: the element it reduces into differs between its iterations); the loops in it are candidates}}
  affine.for %step = 0 to 8 {
    // expected-remark @below {{runs on the device: the iterations of its 2 outer loops are the threads of a 2-D grid, the loop at line 17 along threadIdx.x (the arrays' contiguous dimension); predicted 24.7 ms on the device (kernels 3.11 ms, 8 launches 40 us, copies 21.5 ms) against 143 ms on the CPU; the threads of a column combine #1 (add): each block's partial results of a column in shared memory, then one atomic update per column of the block}}
    affine.for %j = 0 to 8192 {
      affine.for %i = 0 to 8192 {
        %u = affine.load %y[%j] : memref<8192xf64>
        %v = affine.load %a[%i, %j] : memref<8192x8192xf64>
        %t = affine.load %tmp[%i] : memref<8192xf64>
        %p = arith.mulf %v, %t : f64
        %s = arith.addf %u, %p : f64
        affine.store %s, %y[%j] : memref<8192xf64>
      }
    } {weft.gpu.interchanged}
  }
  return
}
