// RUN: weft compile --target=seq --emit=mlir %s -o - | FileCheck %s

// Directives written just before a region belong to that region, as in
// docs/directives.md (`#pragma weft nodist` / `grid` before `#pragma scop`).
// Only their presence on the region's function is checked here.

// CHECK-LABEL: func.func @weft_f_scop0(
// CHECK-SAME: dist.grid = #dist.grid<[4, 2]>
// CHECK-SAME: weft.nodist
// CHECK-LABEL: func.func @weft_f_scop1(
// CHECK-NOT: dist.grid
// CHECK-NOT: weft.nodist
// CHECK: return
void f(int n, double A[100]) {
#pragma weft grid(4, 2)
#pragma weft nodist
#pragma scop
  for (int i = 0; i < n; i++)
    A[i] = 0.0;
#pragma endscop
#pragma scop
  for (int i = 0; i < n; i++)
    A[i] += 1.0;
#pragma endscop
}
