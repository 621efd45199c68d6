// RUN: weft compile --target=seq %s -o %t.c
// RUN: grep -v '^// ' %t.c | FileCheck %s
// RUN: %if gcc %{ gcc -std=gnu99 -fsyntax-only -Wall -Werror %t.c %}

// The generated function reads like its region: the source's names for
// arguments, iterators and locals, subscripts as written, a VLA parameter
// after the extent it takes (passed first), and no temporaries where C
// needs none. A downward loop counts up a counter `i_rev` and names the
// iterator; a temporary avoids the file's macro `tmp`.

#define N 10
#define tmp 0

// CHECK-LABEL: static void weft_f_scop0(int32_t n, int64_t A_dim1, double (*A)[A_dim1], double *x, double *out) {
// CHECK-NEXT:   double s;
// CHECK-NEXT:   double T[10][10];
// CHECK-NEXT:   s = 0.0;
// CHECK-NEXT:   for (int64_t i_rev = 0; i_rev < n; i_rev++) {
// CHECK-NEXT:     int64_t i = (int64_t)n - 1 - i_rev;
// CHECK-NEXT:     for (int j = 0; j < 10; j++) {
// CHECK-NEXT:       T[i][j] = A[i][j] * x[j];
// CHECK-NEXT:       double tmp_1;
// CHECK-NEXT:       if (T[i][j] > 0.0) {
// CHECK-NEXT:         tmp_1 = T[i][j];
// CHECK-NEXT:       } else {
// CHECK-NEXT:         tmp_1 = -T[i][j];
// CHECK-NEXT:       }
// CHECK-NEXT:       s += tmp_1;
// CHECK-NEXT:     }
// CHECK-NEXT:   }
// CHECK-NEXT:   out[0] = s;
// CHECK-NEXT: }
// CHECK: weft_f_scop0(n, (long)(sizeof(A[0]) / sizeof(A[0][0])), (void *)(A), (double *)(x), (double *)(out));
void f(int n, double A[n][n], double x[N], double *out) {
  int i, j;
#pragma scop
  {
    double s;
    double T[N][N];
    s = 0.0;
    for (i = n - 1; i >= 0; i--)
      for (j = 0; j < N; j++) {
        T[i][j] = A[i][j] * x[j];
        s += T[i][j] > 0.0 ? T[i][j] : -T[i][j];
      }
    out[0] = s;
  }
#pragma endscop
}
