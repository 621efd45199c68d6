// RUN: weft compile --target=seq --emit=mlir %s -o - | FileCheck %s

// Variable-length array parameters and pointers to arrays: the leading
// dimension is dynamic; a non-constant inner dimension is passed as an extra
// index argument computed at the call site with sizeof, and `weft.dim_args`
// on the array gives that argument's position for each dimension (-1: none).

// CHECK-LABEL: func.func @weft_vla_scop0(
// CHECK-SAME: %[[A:[a-z0-9]+]]: memref<?x?xf64> {weft.c_arg = "(double *)(A)", weft.dim_args = array<i64: -1, [[ADIM:[0-9]+]]>, weft.may_alias}
// CHECK-SAME: %[[P:[a-z0-9]+]]: memref<?x37xf32> {weft.c_arg = "(float *)(P)", weft.may_alias}
// CHECK-SAME: %[[T:[a-z0-9]+]]: memref<?x?x?xi32> {weft.c_arg = "(int32_t *)(T)", weft.dim_args = array<i64: -1, [[TD1:[0-9]+]], [[TD2:[0-9]+]]>, weft.may_alias}
// CHECK-SAME: %arg[[ADIM]]: index {weft.c_arg = "(long)(sizeof(A[0]) / sizeof(A[0][0]))"}
// CHECK-SAME: %arg[[TD1]]: index {weft.c_arg = "(long)(sizeof(T[0]) / sizeof(T[0][0]))"}
// CHECK-SAME: %arg[[TD2]]: index {weft.c_arg = "(long)(sizeof(T[0][0]) / sizeof(T[0][0][0]))"}
// CHECK: affine.load %[[P]][%{{.*}}, %{{.*}} + 1] : memref<?x37xf32>
// CHECK: affine.store %{{.*}}, %[[A]][%{{.*}}, %{{.*}}] : memref<?x?xf64>
// CHECK: affine.store %{{.*}}, %[[T]][%{{.*}}, %{{.*}}, 0] : memref<?x?x?xi32>
// CHECK: return
void vla(int n, int m, double A[n][m], float (*P)[37], int T[n][m][n + 1]) {
#pragma scop
  for (int i = 0; i < n; i++)
    for (int j = 0; j < m; j++) {
      A[i][j] = P[i][j + 1];
      T[i][j][0] = 1;
    }
#pragma endscop
}
