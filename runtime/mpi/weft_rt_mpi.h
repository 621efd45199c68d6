/*===- weft_rt_mpi.h - MPI runtime of weft-generated programs -----*- C -*-===*
 *
 * weft copies this file into every program it generates for --target=mpi,
 * so that the output builds with a plain `mpicc OUT.c -lm`. It starts MPI
 * before main (the sequential program's main is kept as it is), stops it at
 * exit, and keeps only rank 0's output.
 *
 *===----------------------------------------------------------------------===*/
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

static int weft_rt_rank __attribute__((unused)) = 0;
static int weft_rt_size __attribute__((unused)) = 1;

static void weft_rt_finalize(void) {
  int finalized = 0;
  MPI_Finalized(&finalized);
  if (!finalized) {
    fflush(stdout);
    fflush(stderr);
    MPI_Finalize();
  }
}

__attribute__((constructor)) static void weft_rt_init(void) {
  int initialized = 0;
  MPI_Initialized(&initialized);
  if (!initialized)
    MPI_Init(NULL, NULL);
  MPI_Comm_rank(MPI_COMM_WORLD, &weft_rt_rank);
  MPI_Comm_size(MPI_COMM_WORLD, &weft_rt_size);
  /* Every rank computes what the program prints; rank 0 alone prints it. */
  if (weft_rt_rank != 0 && (!freopen("/dev/null", "w", stdout) ||
                            !freopen("/dev/null", "w", stderr)))
    MPI_Abort(MPI_COMM_WORLD, 1);
  atexit(weft_rt_finalize);
}
