// RUN: weft compile --target=seq --emit=mlir %s -o - | FileCheck %s
// RUN: not weft compile --target=seq %s -DBAD -o %t.c 2>&1 | FileCheck %s --check-prefix=BAD

// Arrays reached through pointers may overlap each other and any other
// array or scalar of the region (weft.may_alias); distinct objects and
// restrict pointers may not. `#pragma weft noalias` asserts that arrays
// (all of them without a list) overlap no other (weft.noalias).

double G[100];

// CHECK-LABEL: func.func @weft_pointers_scop0(
// CHECK-SAME: {weft.c_arg = "(double *)(p)", weft.may_alias}
// CHECK-SAME: {weft.c_arg = "(double *)(G)"}
// CHECK-SAME: {weft.c_arg = "(double *)(r)"}
// CHECK-SAME: {weft.c_arg = "(double *)(v)", weft.dim_args = array<i64: -1, {{[0-9]+}}>, weft.may_alias}
// CHECK-SAME: {weft.c_arg = "(double *)(rows)", weft.may_alias}
// CHECK-SAME: {weft.c_arg = "(double *)(local)", weft.region_only}
void pointers(int n, double *p, double *restrict r, double v[n][n],
              double (*rows)[8]) {
  double local[8];
  int i;
#pragma scop
  for (i = 0; i < 8; i++) {
    p[i] = G[i] + r[i];
    v[i][i] = rows[i][i];
    local[i] = p[i];
  }
#pragma endscop
}

// CHECK-LABEL: func.func @weft_asserted_scop0(
// CHECK-SAME: {weft.c_arg = "(double *)(a)", weft.may_alias, weft.noalias}
// CHECK-SAME: {weft.c_arg = "(double *)(b)", weft.may_alias}
// CHECK-LABEL: func.func @weft_asserted_scop1(
// CHECK-SAME: {weft.c_arg = "(double *)(a)", weft.may_alias, weft.noalias}
// CHECK-SAME: {weft.c_arg = "(double *)(b)", weft.may_alias, weft.noalias}
// CHECK-SAME: {weft.c_arg = "(double *)(G)", weft.noalias}
void asserted(double *a, double *b) {
  int i;
#pragma weft noalias(a)
#pragma scop
  for (i = 0; i < 8; i++)
    a[i] = b[i];
#pragma endscop
#pragma scop
#pragma weft noalias
  for (i = 0; i < 8; i++)
    a[i] = b[i] + G[i];
#pragma endscop
}

#ifdef BAD
void bad(double *a) {
  int i;
#pragma scop
// BAD: may-alias.c:[[@LINE+1]]:1: error: 'c' is not an array used in this scop region
#pragma weft noalias(a, c)
  for (i = 0; i < 8; i++)
    a[i] = 0.0;
#pragma endscop
}
#endif
