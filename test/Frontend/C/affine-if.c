// RUN: weft compile --target=seq --emit=mlir %s -o - | FileCheck %s

// Conditions that are affine in the iterators and parameters (comparisons
// joined by &&) become affine.if with an integer set; `==` becomes an
// equality constraint.

// CHECK-DAG: #[[SET0:.*]] = affine_set<(d0) : (d0 - 1 >= 0)>
// CHECK-DAG: #[[SET1:.*]] = affine_set<(d0, d1)[s0] : (d0 - d1 == 0, -d1 + s0 - {{.*}} >= 0)>

// CHECK-LABEL: func.func @weft_cond_scop0(
// CHECK: affine.for %[[I:[a-z0-9]+]] =
// CHECK: affine.for %[[J:[a-z0-9]+]] =
// CHECK: affine.if #[[SET0]](%[[J]]) {
// CHECK: affine.load %{{.*}}[%[[I]], %[[J]] - 1]
// CHECK: affine.store
// CHECK: } else {
// CHECK: affine.store
// CHECK: }
// CHECK: affine.if #[[SET1]](%[[I]], %[[J]])[%{{.*}}] {
// CHECK: affine.store
// CHECK-NOT: else
// CHECK: }
// CHECK-NOT: scf.if
// CHECK: return
void cond(int n, double A[100][100]) {
#pragma scop
  for (int i = 0; i < n; i++)
    for (int j = 0; j < n; j++) {
      if (j - 1 >= 0)
        A[i][j] = A[i][j - 1];
      else
        A[i][j] = 0.0;
      if (i == j && j < n - 1)
        A[i][j] = 1.0;
    }
#pragma endscop
}
