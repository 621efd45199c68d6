// --target=mpi-cuda: reductions split across ranks (MPI_Allreduce) whose
// rank-local loops run on each rank's GPU with the threads combining the
// partial results (warp shuffles, one atomic per block), inside a
// time loop and alone; a running sum whose partial results are stored stays
// in order. The same output as the sequential program on 1 to 4 ranks
// (floating-point sums within 1e-12), also at awkward sizes.
// REQUIRES: mpicc, mpirun, g++
// RUN: WEFT_RTOL=1e-12 WEFT_TARGET=mpi-cuda bash %S/../run-mpi.sh %S/../seq/device-reductions.c %t 1 2 3 4
// RUN: WEFT_RTOL=1e-12 WEFT_DEFINES="-DN=257 -DM=3" WEFT_TARGET=mpi-cuda bash %S/../run-mpi.sh %S/../seq/device-reductions.c %t.odd 1 3
