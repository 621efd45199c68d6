// RUN: rm -f %t.c && not weft compile --target=seq %s -o %t.c 2>&1 | FileCheck %s
// RUN: test ! -e %t.c
// BUG: a directive outside a region is attached to the next region in the
// file, however far away: here `nodist` in g() silently applies to the
// region in h() (weft.nodist on @weft_h_scop0), and `distribute(i: block)`
// written for a loop outside any region is applied to the first loop of
// the next region instead. Both should be errors (the directive is not
// followed by a region / its loop is not in a region). The messages are
// not settled, so only the location is checked.

void g(double A[10]) {
// CHECK: directive-before-other-code.c:[[@LINE+1]]:1: error:
#pragma weft nodist
  A[1] = 0.0;
}

void h(int n, double A[10][10]) {
// CHECK: directive-before-other-code.c:[[@LINE+1]]:1: error:
#pragma weft distribute(i: block)
  for (int i = 0; i < n; i++)
    A[i][1] = 1.0;
#pragma scop
  for (int i = 0; i < n; i++)
    A[i][0] = 2.0;
#pragma endscop
}
