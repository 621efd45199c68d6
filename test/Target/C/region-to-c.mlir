// The whole C back end on an imported region (weft-seq-pipeline:
// lower-affine, linearize-memref-accesses, cse, loop-invariant-code-motion,
// convert-loops-to-emitc, prepare-c-emission), then weft's C printer. The
// arguments' names come from their locations; the loops here have none (C
// input gives them theirs: test/Frontend/C/c-output.c).
// RUN: weft-opt %s --weft-seq-pipeline --mlir-print-debuginfo --mlir-print-op-generic | weft-translate --emit-c | FileCheck %s

// Subscripts as written, bounds in the loops' headers, one statement per
// store; the extent of a run-time dimension comes first and names the
// array's rows.
// CHECK-LABEL: static void weft_kernel_scop0(int32_t n, int64_t A_dim1, double (*restrict A)[A_dim1], double (*restrict B)[10]) {
// CHECK-NEXT:   for (int64_t it = 0; it < n; it++) {
// CHECK-NEXT:     for (int64_t it_1 = 1; it_1 < (int64_t)n - 1; it_1++) {
// CHECK-NEXT:       B[it][it_1] = 0.5 * (A[it][it_1 - 1] + A[it][it_1 + 1]);
// CHECK-NEXT:     }
// CHECK-NEXT:   }
// CHECK-NEXT: }
func.func @weft_kernel_scop0(%n: i32 loc("n"),
                             %A: memref<?x?xf64> {weft.dim_args = array<i64: -1, 3>} loc("A"),
                             %B: memref<?x10xf64> loc("B"),
                             %e: index loc("A_dim1")) {
  %0 = arith.index_cast %n : i32 to index
  affine.for %i = 0 to %0 {
    affine.for %j = 1 to affine_map<()[s0] -> (s0 - 1)>()[%0] {
      %cst = arith.constant 5.000000e-01 : f64
      %a = affine.load %A[%i, %j - 1] : memref<?x?xf64>
      %b = affine.load %A[%i, %j + 1] : memref<?x?xf64>
      %s = arith.addf %a, %b : f64
      %m = arith.mulf %cst, %s : f64
      affine.store %m, %B[%i, %j] : memref<?x10xf64>
    }
  }
  return
}
