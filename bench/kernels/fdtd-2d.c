/* bench/generated-c.sh SIZES=large: test/E2E/seq/fdtd-2d.c with a checksum
   instead of its arrays as output, so that timing the MPI program does not
   time mpirun forwarding hundreds of MB of text, and the region's own time
   on stderr (region-time.h). */
/* 2-D finite-difference time-domain kernel with a 1-D forcing array indexed
   by the time iterator; VLA parameters with two distinct extents. */
#include <stdio.h>
#include <stdlib.h>
#include <math.h>
#include "region-time.h"

#ifndef NX
#define NX 29
#endif
#ifndef NY
#define NY 37
#endif
#ifndef TMAX
#define TMAX 11
#endif

static void kernel_fdtd_2d(int tmax, int nx, int ny, double ex[nx][ny],
                           double ey[nx][ny], double hz[nx][ny], double fict[tmax])
{
  int t, i, j;

#pragma scop
  for (t = 0; t < tmax; t++) {
    for (j = 0; j < ny; j++)
      ey[0][j] = fict[t];
    for (i = 1; i < nx; i++)
      for (j = 0; j < ny; j++)
        ey[i][j] = ey[i][j] - 0.5 * (hz[i][j] - hz[i - 1][j]);
    for (i = 0; i < nx; i++)
      for (j = 1; j < ny; j++)
        ex[i][j] = ex[i][j] - 0.5 * (hz[i][j] - hz[i][j - 1]);
    for (i = 0; i < nx - 1; i++)
      for (j = 0; j < ny - 1; j++)
        hz[i][j] = hz[i][j] - 0.7 * (ex[i][j + 1] - ex[i][j] + ey[i + 1][j] - ey[i][j]);
  }
#pragma endscop
}

static double ex[NX][NY], ey[NX][NY], hz[NX][NY], fict[TMAX];

int main(void)
{
  int i, j;
  double sum = 0.0;

  for (i = 0; i < TMAX; i++)
    fict[i] = (double)i;
  for (i = 0; i < NX; i++)
    for (j = 0; j < NY; j++) {
      ex[i][j] = ((double)i * (j + 1)) / NX;
      ey[i][j] = ((double)i * (j + 2)) / NY;
      hz[i][j] = ((double)i * (j + 3)) / NX;
    }
  double start = region_clock();
  kernel_fdtd_2d(TMAX, NX, NY, ex, ey, hz, fict);
  region_report(start);
  for (i = 0; i < NX; i++)
    for (j = 0; j < NY; j++)
      sum += ex[i][j] + 0.5 * ey[i][j] + 0.25 * hz[i][j];
  printf("checksum %.17g\n", sum);
  return 0;
}
