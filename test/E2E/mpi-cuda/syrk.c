// --target=mpi-cuda: syrk and syr2k (lower triangles, j <= i), whose rows
// are distributed, each rank's block computed by two 2-D grids of GPU
// threads over the triangle (gpu-expose-bands: distribution and
// interchange), gathered to rank 0; the same output as the sequential
// program on 1 and 3 ranks (CPU emulation of CUDA), syr2k at awkward sizes.
// REQUIRES: mpicc, mpirun, g++
// RUN: WEFT_TARGET=mpi-cuda bash %S/../run-mpi.sh %S/../seq/syrk.c %t 1 3
// RUN: WEFT_DEFINES="-DN=35 -DM=3" WEFT_TARGET=mpi-cuda bash %S/../run-mpi.sh %S/../seq/syr2k.c %t.2k 1 3
