// RUN: weft compile --report %s -o %t.c 2>&1 | FileCheck %s

// --report explains the Arachne partitioner's choice for every unit. In
// this FDTD step the row `ey[0][j]` is cheap to compute everywhere, while
// distributing it would send its pieces to the owner of row 0 at every
// step: the dynamic program replicates it and distributes the sweeps.

#define NX 300
#define NY 200
double ex[NX][NY], ey[NX][NY], hz[NX][NY], fict[50];

void fdtd(int tmax) {
  int t, i, j;
#pragma scop
  for (t = 0; t < tmax; t++) {
// CHECK: dist-report.c:[[@LINE+1]]:5: remark: runs on every rank: distributing it is predicted to be slower (predicted region time at 4 ranks
    for (j = 0; j < NY; j++)
      ey[0][j] = fict[t];
// CHECK: dist-report.c:[[@LINE+1]]:5: remark: distributed: blocks of its iterations on each rank (predicted region time
    for (i = 1; i < NX; i++)
      for (j = 0; j < NY; j++)
        ey[i][j] = ey[i][j] - 0.5 * (hz[i][j] - hz[i - 1][j]);
// CHECK: dist-report.c:[[@LINE+1]]:5: remark: distributed
    for (i = 0; i < NX; i++)
      for (j = 1; j < NY; j++)
        ex[i][j] = ex[i][j] - 0.5 * (hz[i][j] - hz[i][j - 1]);
// CHECK: dist-report.c:[[@LINE+1]]:5: remark: distributed
    for (i = 0; i < NX - 1; i++)
      for (j = 0; j < NY - 1; j++)
        hz[i][j] = hz[i][j] - 0.7 * (ex[i][j + 1] - ex[i][j] + ey[i + 1][j] - ey[i][j]);
  }
// The predicted times are for the sizes weft assumed: tmax is not known at
// compile time (NX and NY are).
// CHECK: dist-report.c:[[@LINE-20]]:1: remark: partition chosen by the dynamic program over 4 units (4 candidates, {{[0-9]+}} states): predicted region time at 4 ranks {{[0-9.e+-]+}} s; predicted times with tmax, unknown at compile time, taken as 4096{{$}}
// What each distributed sweep wrote goes, right after it, to the ranks
// that read it later (and to rank 0 at the end).
// CHECK: dist-report.c:20:5: remark: sent after this unit (what other ranks read later, or keep after the region): (double *)(ey):
#pragma endscop
}
