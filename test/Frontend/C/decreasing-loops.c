// RUN: weft compile --target=seq --emit=mlir %s -o - | FileCheck %s
// RUN: weft compile --target=seq --emit=mlir %s -o %t.mlir && weft-opt %t.mlir -o /dev/null

// Decreasing loops (`>=`, `>`, `--`, `-= c`) become an increasing affine.for
// over a counter k, and the iterator is recomputed as `start - k` with
// affine.apply.

// CHECK-DAG: #[[REV1:.*]] = affine_map<(d0)[s0] -> (-d0 + s0 - 1)>
// CHECK-DAG: #[[UB3:.*]] = affine_map<()[s0] -> (s0 - 3)>
// CHECK-DAG: #[[REV2:.*]] = affine_map<(d0)[s0] -> (-d0 + s0)>

// CHECK-LABEL: func.func @weft_down_scop0(
// CHECK-SAME: %[[N:[a-z0-9]+]]: i32 {weft.c_arg = "n"}
// CHECK-SAME: %[[A:[a-z0-9]+]]: memref<?xf64>
// CHECK: %[[NI:.*]] = arith.index_cast %[[N]] : i32 to index

// for (i = n - 1; i >= 0; i--)
// CHECK: affine.for %[[K:.*]] = 0 to %[[NI]] {
// CHECK-NEXT: %[[I:.*]] = affine.apply #[[REV1]](%[[K]])[%[[NI]]]
// CHECK-NEXT: %[[X:.*]] = affine.load %[[A]][%[[I]] + 1] : memref<?xf64>
// CHECK-NEXT: affine.store %[[X]], %[[A]][%[[I]]] : memref<?xf64>

// for (i = n; i > 3; i -= 3)
// CHECK: affine.for %[[K2:.*]] = 0 to #[[UB3]]()[%[[NI]]] step 3 {
// CHECK-NEXT: %[[I2:.*]] = affine.apply #[[REV2]](%[[K2]])[%[[NI]]]
// CHECK: affine.store %{{.*}}, %[[A]][%[[I2]]] : memref<?xf64>
// CHECK: return
void down(int n, double A[200]) {
#pragma scop
  for (int i = n - 1; i >= 0; i--)
    A[i] = A[i + 1];
  for (int i = n; i > 3; i -= 3)
    A[i] = 1.0;
#pragma endscop
}
