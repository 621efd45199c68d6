// RUN: weft compile --target=seq --emit=mlir %s -o - | FileCheck %s
// RUN: weft compile --target=seq --emit=mlir %s -o %t.mlir && weft-opt %t.mlir -o /dev/null

// Which loop form each C loop gets: scf.for when the bounds cannot change
// while the loop runs (evaluated once, like C would see them), scf.while
// with the iterator in memory when they can (the body writes what a bound
// reads, possibly through an aliasing pointer), and scf.while for while and
// do-while loops.

// A bound written in the region, but not in the loop that reads it.
// CHECK-LABEL: func.func @weft_outside_scop0(
// CHECK: affine.for
// CHECK: scf.for
// CHECK-NOT: scf.while
// CHECK: return
void outside(int n, double A[10]) {
  int m = n;
#pragma scop
  for (int t = 0; t < 3; t++) {
    for (int i = 0; i < m; i++)
      A[i] = 1.0;
    m = m - 1;
  }
#pragma endscop
}

// The body writes A, which may alias B: the bound is re-read every time.
// CHECK-LABEL: func.func @weft_aliasing_scop0(
// CHECK: %[[SLOT:.*]] = memref.alloca() : memref<index>
// CHECK: scf.while : () -> () {
// CHECK:   memref.load %[[SLOT]][] : memref<index>
// CHECK:   scf.condition
// CHECK: } do {
// CHECK:   memref.store %{{.*}}, %[[SLOT]][] : memref<index>
// CHECK:   scf.yield
void aliasing(int n, double *A, int *B) {
#pragma scop
  for (int j = 0; j < B[0]; j++)
    A[j] += 1.0;
#pragma endscop
}

// The same loop with restrict pointers keeps scf.for.
// CHECK-LABEL: func.func @weft_restricted_scop0(
// CHECK: scf.for
// CHECK-NOT: scf.while
// CHECK: return
void restricted(int n, double *restrict A, int *restrict B) {
#pragma scop
  for (int j = 0; j < B[0]; j++)
    A[j] += 1.0;
#pragma endscop
}

// while evaluates its condition first; do-while after the body.
// CHECK-LABEL: func.func @weft_whiles_scop0(
// CHECK: scf.while : () -> () {
// CHECK:   arith.cmpf ogt
// CHECK:   scf.condition
// CHECK: } do {
// CHECK:   arith.divf
// CHECK: scf.while : () -> () {
// CHECK:   arith.subi
// CHECK:   arith.cmpi sgt
// CHECK:   scf.condition
// CHECK: } do {
// CHECK-NEXT: scf.yield
void whiles(double *x, int *n) {
#pragma scop
  while (x[0] > 1.0)
    x[0] = x[0] / 3.0;
  do
    n[0] = n[0] - 7;
  while (n[0] > 50);
#pragma endscop
}

// Conditions that do not bound the iterator, and unsigned iterators (which
// may wrap), evaluate C's condition every time: scf.while.
// CHECK-LABEL: func.func @weft_conditions_scop0(
// CHECK-COUNT-5: scf.while
// CHECK-NOT: scf.while
// CHECK: return
void conditions(int n, double A[10], unsigned m) {
#pragma scop
  for (int k = 0; n > 0; k++)
    n = n - 3;
  for (int k = 0; k != n; k++)
    A[k] = 1.0;
  for (int k = 0; k < 2.5; k++)
    A[k] = 2.0;
  for (int k = 0; k < 9 && A[k] > 0.0; k++)
    A[k] = -A[k];
  for (unsigned u = 0; u < m; u++)
    A[u] = 3.0;
#pragma endscop
}
