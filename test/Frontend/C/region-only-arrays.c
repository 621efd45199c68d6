// Arrays that no code outside the region can read are marked
// weft.region_only: a static array named only in the region and a local
// array of the function named only in it. An array with external linkage,
// one named after the region or in another function, a pointer (which may
// alias) and a parameter are not.
// RUN: weft compile --target=seq --emit=mlir %s -o - | FileCheck %s

// CHECK-LABEL: func.func @weft_k_scop0(
// CHECK-SAME: {weft.c_arg = "(double *)(Priv)", weft.region_only}
// CHECK-SAME: {weft.c_arg = "(double *)(Printed)"}
// CHECK-SAME: {weft.c_arg = "(double *)(Extern)"}
// CHECK-SAME: {weft.c_arg = "(double *)(local)", weft.region_only}
// CHECK-SAME: {weft.c_arg = "(double *)(after)"}
// CHECK-SAME: {weft.c_arg = "(double *)(ptr)", weft.may_alias}
// CHECK-SAME: {weft.c_arg = "(double *)(param)", weft.may_alias}
// CHECK-SAME: {weft.c_arg = "(double *)(inLoop)"}
#define N 16
static double Priv[N];
static double Printed[N];
double Extern[N];
extern void use(double *);

double k(double *ptr, double param[N], int n) {
  double local[N], after[N], inLoop[N], sum = 0.0;
  int i, r;
  for (r = 0; r < 2; r++) {
    if (r)
      use(inLoop);
#pragma scop
    for (i = 0; i < n; i++) {
      Priv[i] = i;
      Printed[i] = i;
      Extern[i] = i;
      local[i] = i;
      after[i] = i;
      ptr[i] = i;
      param[i] = i;
      inLoop[i] = i;
    }
    for (i = 0; i < n; i++)
      sum += Priv[i] + local[i];
#pragma endscop
  }
  return sum + after[0];
}

void other(void) { use(Printed); }
