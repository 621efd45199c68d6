// RUN: rm -f %t.c && not weft compile --target=seq %s -o %t.c 2>&1 | FileCheck %s
// RUN: test ! -e %t.c

// Structs, struct members, long double and 128-bit integers are not supported
// in a region. An error about a variable's type points at its first use in
// the region.

struct S { double v; int k; };

void f(int n, double A[10], struct S s, struct S *p, long double *L,
       __int128 *Q) {
#pragma scop
  for (int i = 0; i < n; i++)
// CHECK: unsupported-type.c:[[@LINE+1]]:12: error: type 'struct S' is not supported in a scop region (supported: signed and unsigned char, short, int, long, long long; float, double, _Bool)
    A[i] = s.v;
#pragma endscop
#pragma scop
  for (int i = 0; i < n; i++)
// CHECK: unsupported-type.c:[[@LINE+1]]:12: error: type 'struct S' is not supported in a scop region
    A[i] = p->v;
#pragma endscop
#pragma scop
  for (int i = 0; i < n; i++)
// CHECK: unsupported-type.c:[[@LINE+1]]:5: error: type 'long double' is not supported in a scop region
    L[i] = 1.0;
#pragma endscop
#pragma scop
  for (int i = 0; i < n; i++)
// CHECK: unsupported-type.c:[[@LINE+1]]:5: error: type '__int128' is not supported in a scop region
    Q[i] = 1;
#pragma endscop
}
// CHECK: 4 errors generated.
