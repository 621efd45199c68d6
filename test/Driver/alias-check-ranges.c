// RUN: weft compile %s -o %t.c
// RUN: grep -v '^// CHECK' %t.c | FileCheck %s
// The ranges the run-time alias check compares, as offsets into each
// argument's row-major layout: from the first element its accesses touch
// to one past the last, folded as they are built (a's rows 1 to m - 1 and
// columns 2 to n - 1: from 1 * 100 + 2 to (m - 1) * 100 + n; b's shifted
// by one row and two columns; before, `0 * 100 + ...` and `n - 1 + 1`).
// CHECK: weft_rt_ranges_overlap(a, 102, ((int64_t)m - 1) * 100 + (int64_t)n, 8, b, 0, ((int64_t)m - 1 - 1) * 100 + ((int64_t)n - 2), 8);
void add(int m, int n, double a[][100], double b[][100]) {
  int i, j;
#pragma scop
  for (i = 1; i < m; i++)
    for (j = 2; j < n; j++)
      a[i][j] = a[i][j] + b[i - 1][j - 2];
#pragma endscop
}
