// --target=mpi-cuda at an awkward size: jacobi-2d with 2 interior rows and
// columns on up to 4 ranks, so that some ranks own no iteration (empty
// grids, empty transfer boxes) and the others own one row.
// REQUIRES: mpicc, mpirun, g++
// RUN: WEFT_DEFINES="-DN=4 -DTSTEPS=3" WEFT_TARGET=mpi-cuda bash %S/../run-mpi.sh %S/../seq/jacobi-2d.c %t 1 2 3 4
