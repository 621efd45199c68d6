// The MPI program weft generates for correlation.c prints what the sequential
// program prints, on rank counts that do not divide the problem size.
// REQUIRES: mpicc, mpirun
// RUN: bash %S/../run-mpi.sh %S/../seq/correlation.c %t 1 2 3 4 6
