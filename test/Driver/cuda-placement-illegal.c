// RUN: rm -f %t.cu && not weft compile --target=cuda %s -o %t.cu 2>&1 | FileCheck %s
// RUN: test ! -e %t.cu
// RUN: weft compile --target=mpi %s -o %t.c
// RUN: weft compile --target=seq %s -o %t.c

// A loop forced onto the device that cannot run there is an error at the
// loop under --target=cuda; the other targets ignore the directive.

void carried(int n, double s[n]) {
  int i;
#pragma scop
#pragma weft device
// CHECK-DAG: cuda-placement-illegal.c:[[@LINE+1]]:3: error: '#pragma weft device': the loop cannot run on the device: it carries a dependence through s
  for (i = 1; i < n; i++)
    s[i] = s[i - 1] + 1;
#pragma endscop
}

void indirect(int n, double a[n], int idx[n]) {
  int i;
#pragma scop
#pragma weft device
// CHECK-DAG: cuda-placement-illegal.c:[[@LINE+1]]:3: error: '#pragma weft device': the loop cannot run on the device: its region has no polyhedral model
  for (i = 0; i < n; i++)
    a[idx[i]] = 2 * a[i];
#pragma endscop
}

void rank4(int n, double a[n][n][n][n]) {
  int i, j, k, l;
#pragma scop
#pragma weft device
// CHECK-DAG: cuda-placement-illegal.c:[[@LINE+1]]:3: error: '#pragma weft device': the loop cannot run on the device: it accesses an array of rank above 3
  for (i = 0; i < n; i++)
    for (j = 0; j < n; j++)
      for (k = 0; k < n; k++)
        for (l = 0; l < n; l++)
          a[i][j][k][l] = 0;
#pragma endscop
}
