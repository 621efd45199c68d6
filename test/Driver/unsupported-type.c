// RUN: rm -f %t.c && not weft compile --target=seq %s -o %t.c 2>&1 | FileCheck %s
// RUN: test ! -e %t.c

// Unsigned integers, structs and struct members are not supported in a
// region. An error about a variable's type points at its declaration.

struct S { double v; int k; };

void f(int n,
// CHECK: unsupported-type.c:[[@LINE+9]]:5: error: type 'unsigned int' is not supported in a scop region (supported: char, short, int, long, float, double, _Bool)
       unsigned U[10],
       double A[10],
// CHECK: unsupported-type.c:[[@LINE+10]]:12: error: type 'struct S' is not supported in a scop region (supported: char, short, int, long, float, double, _Bool)
       struct S s,
// CHECK: unsupported-type.c:[[@LINE+12]]:12: error: type 'struct S' is not supported in a scop region (supported: char, short, int, long, float, double, _Bool)
       struct S *p) {
#pragma scop
  for (int i = 0; i < n; i++)
    U[i] = 1;
#pragma endscop
#pragma scop
  for (int i = 0; i < n; i++)
    A[i] = s.v;
#pragma endscop
#pragma scop
  for (int i = 0; i < n; i++)
    A[i] = p->v;
#pragma endscop
#pragma scop
  for (int i = 0; i < n; i++)
// CHECK: unsupported-type.c:[[@LINE+1]]:12: error: unsigned integer types are not supported in a scop region
    A[i] = 1u;
#pragma endscop
}
// CHECK: 4 errors generated.
