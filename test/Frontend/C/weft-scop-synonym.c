// RUN: weft compile --target=seq --emit=mlir %s -o - | FileCheck %s
// RUN: weft compile --target=seq %s -o - | grep -v '^//' | FileCheck %s --check-prefix=C

// `#pragma weft scop` / `#pragma weft endscop` are synonyms of `#pragma scop`
// / `#pragma endscop`, and the two spellings can be mixed.

// CHECK-LABEL: func.func @weft_syn_scop0(
// CHECK: affine.for
// CHECK: affine.for
// CHECK: return

// CHECK-LABEL: func.func @weft_syn_scop1(
// CHECK: affine.store %{{.*}}, %{{.*}}[0]
// CHECK: return

// CHECK-LABEL: func.func @weft_syn_scop2(
// CHECK: affine.store %{{.*}}, %{{.*}}[1]
// CHECK: return
// CHECK-NOT: func.func

// No pragma survives in the C output.
// C-NOT: {{^}}#pragma
// C: {{^}}weft_syn_scop0(
// C-NEXT: #line
// C-NOT: {{^}}#pragma
// C: {{^}}weft_syn_scop1(
// C-NOT: {{^}}#pragma
// C: {{^}}weft_syn_scop2(
// C-NOT: {{^}}#pragma
void syn(int n, double A[100][100], double x[100]) {
#pragma weft scop
  for (int i = 0; i < n; i++)
    for (int j = 0; j < n; j++)
      A[i][j] = x[j];
#pragma weft endscop

#pragma weft scop
  x[0] = 1.0;
#pragma endscop

#pragma scop
  x[1] = 2.0;
#pragma weft endscop
}
