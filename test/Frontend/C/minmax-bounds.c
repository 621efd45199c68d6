// RUN: weft compile --target=seq --emit=mlir %s -o - | FileCheck %s

// Lower bounds written as `a > b ? a : b` become affine max bounds, upper
// bounds written as `a < b ? a : b` (or as `i < a && i < b`) affine min bounds.

// CHECK-DAG: #[[MAXLB:.*]] = affine_map<(d0) -> (d0, 2)>
// CHECK-DAG: #[[MINUB:.*]] = affine_map<()[s0, s1] -> (s0, s1)>
// CHECK-DAG: #[[MAXLB2:.*]] = affine_map<()[s0, s1] -> (s0 - 4, s1)>
// CHECK-DAG: #[[MINUB2:.*]] = affine_map<()[s0, s1] -> (s0 + 1, s1)>

// CHECK-LABEL: func.func @weft_minmax_scop0(
// CHECK-SAME: %[[N:[a-z0-9]+]]: i32 {weft.c_arg = "n"}
// CHECK-SAME: %[[M:[a-z0-9]+]]: i32 {weft.c_arg = "m"}
// CHECK-DAG: %[[NI:.*]] = arith.index_cast %[[N]] : i32 to index
// CHECK-DAG: %[[MI:.*]] = arith.index_cast %[[M]] : i32 to index
// CHECK: affine.for %[[I:.*]] = 0 to %[[NI]] {
// CHECK-NEXT: affine.for %{{.*}} = max #[[MAXLB]](%[[I]]) to min #[[MINUB]]()[%[[NI]], %[[MI]]] {
// CHECK: affine.for %{{.*}} = max #[[MAXLB2]]()[%[[NI]], %[[MI]]] to min #[[MINUB2]]()[%[[NI]], %[[MI]]] {
// CHECK-NOT: scf.for
// CHECK: return
void minmax(int n, int m, double A[100][100]) {
#pragma scop
  for (int i = 0; i < n; i++)
    for (int j = (i > 2 ? i : 2); j < (n < m ? n : m); j++)
      A[i][j] = 0.0;
  for (int k = (m < n - 4 ? n - 4 : m); k <= n && k < m; k++)
    A[k][0] = 1.0;
#pragma endscop
}
