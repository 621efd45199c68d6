// RUN: weft compile --target=seq --emit=mlir %s -o - | FileCheck %s
// RUN: weft compile --target=seq --emit=mlir %s -o %t.mlir && weft-opt %t.mlir -o /dev/null

// A loop whose bound is not affine (it reads an array, or multiplies two
// iterators) becomes scf.for over index; its iterator is not an affine
// dimension, so accesses through it use memref.load / memref.store.
// The parameters are `restrict`: without it, y could alias row and the bound
// would have to be re-read on every iteration (see loop-kinds.c).

// CHECK-LABEL: func.func @weft_csr_scop0(
// CHECK-SAME: %[[ROW:[a-z0-9]+]]: memref<?xi32> {weft.c_arg = "(int32_t *)(row)"}
// CHECK: affine.for %[[I:[a-z0-9]+]] =
// CHECK: %[[LO:.*]] = affine.load %[[ROW]][%[[I]]] : memref<?xi32>
// CHECK: %[[LOI:.*]] = arith.index_cast %[[LO]] : i32 to index
// CHECK: %[[HI:.*]] = affine.load %[[ROW]][%[[I]] + 1] : memref<?xi32>
// CHECK: %[[HII:.*]] = arith.index_cast %[[HI]] : i32 to index
// CHECK: %[[ONE:.*]] = arith.constant 1 : index
// CHECK: scf.for %[[J:.*]] = %[[LOI]] to %[[HII]] step %[[ONE]] {
// CHECK: %[[J32:.*]] = arith.index_cast %[[J]] : index to i32
// CHECK: %[[JI:.*]] = arith.index_cast %[[J32]] : i32 to index
// CHECK: memref.load %[[VAL:[a-z0-9]+]][%[[JI]]] : memref<?xf64>
// CHECK: affine.store %{{.*}}, %{{.*}}[%[[I]]] : memref<?xf64>
// CHECK-NEXT: }

// for (k = 0; k < i * i; k += 2): a triangular-like bound that is a product.
// CHECK: %[[TWO:.*]] = arith.constant 2 : index
// CHECK: scf.for %{{.*}} = %{{.*}} to %{{.*}} step %[[TWO]] {
// CHECK: memref.store %{{.*}}, %{{.*}}[%{{.*}}] : memref<?xf64>
// CHECK: return
void csr(int n, int row[restrict 101], double val[restrict 1000],
         int col[restrict 1000], double x[restrict 100],
         double y[restrict 100]) {
#pragma scop
  for (int i = 0; i < n; i++) {
    for (int j = row[i]; j < row[i + 1]; j++)
      y[i] += val[j] * x[col[j]];
    for (int k = 0; k < i * i; k += 2)
      y[k] = 0.0;
  }
#pragma endscop
}
