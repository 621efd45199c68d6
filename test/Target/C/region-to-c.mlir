// The whole C back end on an imported region: lower-affine,
// linearize-memref-accesses and convert-loops-to-emitc, then the MLIR C++
// emitter.
// RUN: weft-opt %s --lower-affine --linearize-memref-accesses --canonicalize --convert-loops-to-emitc | mlir-translate --mlir-to-cpp | FileCheck %s

// CHECK-LABEL: static void weft_kernel_scop0(int32_t v1, double *restrict v2, double *restrict v3) {
// CHECK: for (int64_t [[I:v[0-9]+]] = {{v[0-9]+}}; [[I]] < {{v[0-9]+}}; [[I]] += {{v[0-9]+}}) {
// CHECK:   for (int64_t [[J:v[0-9]+]] = {{v[0-9]+}}; [[J]] < {{v[0-9]+}}; [[J]] += {{v[0-9]+}}) {
// CHECK:     int64_t [[ROW:v[0-9]+]] = [[I]] * {{v[0-9]+}};
// CHECK:     int64_t [[LIN:v[0-9]+]] = [[ROW]] + [[J]];
// CHECK:     double [[T:v[0-9]+]];
// CHECK:     [[T]] = v3[[[LIN]]];
// CHECK:     v2[{{v[0-9]+}}] = [[T]];
// CHECK: return;
func.func @weft_kernel_scop0(%n: i32, %B: memref<?x10xf64>, %A: memref<?x10xf64>) {
  %0 = arith.index_cast %n : i32 to index
  affine.for %i = 0 to %0 {
    affine.for %j = 0 to 10 {
      %v = affine.load %A[%i, %j] : memref<?x10xf64>
      affine.store %v, %B[%i, %j] : memref<?x10xf64>
    }
  }
  return
}
