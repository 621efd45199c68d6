// --target=mpi-cuda: the nests of ../seq/split-interchange.c (bicg's fused
// loop, with a third statement), each rank's inner loop distributed over
// its statements where gpu-expose-bands can, and the parallel parts moved
// out of the loop that carries them; the same output as the sequential
// program on 1, 2 and 3 ranks (CPU emulation of CUDA): bit for bit with
// the sums in program order, within rounding where ranks split them.
// REQUIRES: mpicc, mpirun, g++
// RUN: WEFT_TARGET=mpi-cuda WEFT_FLAGS=--fp-reductions=ordered bash %S/../run-mpi.sh %S/../seq/split-interchange.c %t 1 2 3
// RUN: WEFT_TARGET=mpi-cuda WEFT_RTOL=1e-12 bash %S/../run-mpi.sh %S/../seq/split-interchange.c %t.split 2 3
