// RUN: weft compile --target=seq --emit=mlir %s -o - | FileCheck %s

// Subscripts that are not affine in the iterators and parameters (a product
// of iterators, an indirection through another array) are computed in the
// C integer type and cast to index, and use memref.load / memref.store.

// CHECK-LABEL: func.func @weft_gather_scop0(
// CHECK-SAME: %[[A:[a-z0-9]+]]: memref<?xf64> {weft.c_arg = "(double *)(A)", weft.may_alias}
// CHECK-SAME: %[[IDX:[a-z0-9]+]]: memref<?xi32> {weft.c_arg = "(int32_t *)(idx)", weft.may_alias}
// CHECK: affine.for %[[I:[a-z0-9]+]] =

// A[i * i]: i * i is computed on i32.
// CHECK: %[[I1:.*]] = arith.index_cast %[[I]] : index to i32
// CHECK: %[[I2:.*]] = arith.index_cast %[[I]] : index to i32
// CHECK: %[[SQ:.*]] = arith.muli %[[I1]], %[[I2]] overflow<nsw> : i32
// CHECK: %[[SQI:.*]] = arith.index_cast %[[SQ]] : i32 to index

// A[idx[i]]: the index array itself is read with an affine load.
// CHECK: %[[K:.*]] = affine.load %[[IDX]][%[[I]]] : memref<?xi32>
// CHECK: %[[KI:.*]] = arith.index_cast %[[K]] : i32 to index
// CHECK: %[[V:.*]] = memref.load %[[A]][%[[KI]]] : memref<?xf64>
// CHECK: memref.store %[[V]], %[[A]][%[[SQI]]] : memref<?xf64>

// A[i] stays affine.
// CHECK: affine.store %{{.*}}, %[[A]][%[[I]]] : memref<?xf64>
// CHECK: return
void gather(int n, double A[1000], int idx[100]) {
#pragma scop
  for (int i = 0; i < n; i++) {
    A[i * i] = A[idx[i]];
    A[i] = 0.0;
  }
#pragma endscop
}
