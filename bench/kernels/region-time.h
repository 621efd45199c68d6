/* bench/generated-c.sh SIZES=large: the time of a kernel's region alone,
   without the program's start, its initialisation and its output, which
   stay sequential on every rank (under MPI only rank 0's line is seen, and
   rank 0's region ends after the live-out values have reached it). */
#include <stdio.h>
#include <time.h>

static double region_clock(void)
{
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec + 1e-9 * t.tv_nsec;
}

static void region_report(double start)
{
  fprintf(stderr, "region seconds %.6f\n", region_clock() - start);
}
